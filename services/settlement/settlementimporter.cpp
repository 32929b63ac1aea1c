#include "settlementimporter.h"

#include "formats/statementformat.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/sqlitenative.h"
#include "db/transaction.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlError>
#include <QStringEncoder>

#include <algorithm>
#include <future>
#include <memory>
#include <optional>

#include <sqlite3.h>

#include <spdlog/spdlog.h>

#include <openssl/evp.h>

namespace OncePay {

namespace {

QString sha256Hex(const QByteArray &data)
{
    // OpenSSL uses the CPU's SHA extensions where it has them (several times Qt's speed); the
    // digest is the same.
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_Digest(data.constData(), size_t(data.size()), digest, &size, EVP_sha256(), nullptr) !=
        1)
        return QString::fromLatin1(
            QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
    return QString::fromLatin1(
        QByteArray::fromRawData(reinterpret_cast<const char *>(digest), int(size)).toHex());
}

// A PASSIVE checkpoint on a connection of its own: it copies into the database file what has
// been committed to the WAL so far, takes no lock a writer needs, and syncs the file as the
// engine's connections do (synchronous=FULL). Nothing happens for a database in memory or one
// that cannot be opened again; the final checkpoint then copies everything, as before.
void checkpointAside(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return;
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) == SQLITE_OK &&
        sqlite3_exec(db, "PRAGMA synchronous = FULL", nullptr, nullptr, nullptr) == SQLITE_OK)
        sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    sqlite3_close(db);
}

// Imports of one channel's statements are stored one after the other on a server database, as
// SQLite's single writer (BEGIN IMMEDIATE) stores them: two people importing overlapping
// statements at the same moment get what importing them in turn gives — the second finds the
// first's lines known (or in conflict), never a duplicate-key error or a deadlock between two
// transactions inserting the same keys in other orders. PostgreSQL: a transaction-scoped advisory
// lock per channel, released by COMMIT or ROLLBACK. MariaDB: a named lock of the session per
// database and channel (GET_LOCK names are server-wide), released when this guard is destroyed —
// after the transaction it was taken for has ended.
class ImportLock {
public:
    ImportLock(const Connection &c, std::chrono::seconds wait)
        : m_c(c)
        , m_wait(wait)
    {}
    ~ImportLock()
    {
        if (m_held)
            (void)Sql::exec(
                m_c.db(),
                QStringLiteral("SELECT RELEASE_LOCK(%1)").arg(SettlementImporter::kLockNameSql),
                {m_channel});
    }
    ImportLock(const ImportLock &) = delete;
    ImportLock &operator=(const ImportLock &) = delete;

    // Inside the transaction on PostgreSQL; on MariaDB any time before the statement's rows.
    Result<void> take(const QString &channel)
    {
        if (m_c.dialect() == Dialect::Postgres) {
            auto r = Sql::exec(
                m_c.db(), QStringLiteral("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"),
                {QString(QStringLiteral("oncepay.settlement_import:") + channel)});
            if (!r)
                return r.error();
            return {};
        }
        if (m_c.dialect() != Dialect::MySql)
            return {};
        const qint64 wait = m_wait.count();
        auto got = Sql::scalar(m_c.db(),
                               QStringLiteral("SELECT GET_LOCK(%1, %2)")
                                   .arg(SettlementImporter::kLockNameSql)
                                   .arg(wait),
                               {channel});
        if (!got)
            return got.error();
        if (got->isNull() || got->toInt() != 1) {
            const QString message = QStringLiteral("another %1 statement import is still being"
                                                   " stored after %2 s; try again when it has"
                                                   " finished")
                                        .arg(channel)
                                        .arg(wait);
            spdlog::warn("settlement import: {}", message.toStdString());
            return makeError(ErrorCode::Unavailable, message, QStringLiteral("import_busy"));
        }
        m_held = true;
        m_channel = channel;
        return {};
    }

private:
    const Connection &m_c;
    const std::chrono::seconds m_wait;
    bool m_held = false;
    QString m_channel;
};

} // namespace

void SettlementImporter::setLockWait(std::chrono::seconds wait)
{
    m_lockWait = std::max(wait, std::chrono::seconds(0));
}

Result<SettlementImporter::Prepared> SettlementImporter::prepareFile(const QString &channel,
                                                                     const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound, QStringLiteral("%1: %2").arg(path, f.errorString()));
    constexpr qint64 kMaxBytes = 2LL * 1024 * 1024 * 1024;
    if (f.size() > kMaxBytes)
        return makeError(ErrorCode::TooLarge, QStringLiteral("%1: larger than 2 GiB").arg(path));
    return prepare(channel, QFileInfo(path).fileName(), f.readAll());
}

Result<SettlementImporter::Prepared>
SettlementImporter::prepare(const QString &channel, const QString &fileName, const QByteArray &data)
{
    const StatementFormat *format = StatementFormat::forChannel(channel);
    if (!format)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("no statement format for channel '%1' (known: %2)")
                             .arg(channel, StatementFormat::channels().join(QStringLiteral(", "))));
    Prepared out;
    out.channel = channel;
    out.fileName = fileName;
    out.sha256 = sha256Hex(data);
    out.parsed = format->parse(data);
    return out;
}

Result<StatementImport> SettlementImporter::importFile(const QString &channel, const QString &path,
                                                       const Actor &actor) const
{
    auto p = prepareFile(channel, path);
    if (!p)
        return p.error();
    return commit(*p, actor);
}

Result<StatementImport> SettlementImporter::importData(const QString &channel,
                                                       const QString &fileName,
                                                       const QByteArray &data,
                                                       const Actor &actor) const
{
    auto p = prepare(channel, fileName, data);
    if (!p)
        return p.error();
    return commit(*p, actor);
}

std::vector<Result<StatementImport>>
SettlementImporter::importFiles(const QList<std::pair<QString, QString>> &files,
                                const Actor &actor) const
{
    if (files.size() > 1 && SqliteNative::handle(m_c.db()))
        return importFilesSqlite(files, actor);
    std::vector<Result<StatementImport>> out;
    out.reserve(size_t(files.size()));
    auto start = [&](qsizetype i) {
        return std::async(std::launch::async, [channel = files[i].first, path = files[i].second] {
            return prepareFile(channel, path);
        });
    };
    std::future<Result<Prepared>> next;
    if (!files.isEmpty())
        next = start(0);
    for (qsizetype i = 0; i < files.size(); ++i) {
        Result<Prepared> p = next.get();
        if (i + 1 < files.size())
            next = start(i + 1); // parsed while this one is stored
        out.push_back(p ? commit(*p, actor) : Result<StatementImport>(p.error()));
    }
    return out;
}

// SQLite: this thread reads, hashes and parses the files — as it would one by one — while a
// helper thread inserts the previous file's lines and commits its transaction through SQLite's
// C API on the same handle. Each file is still its own all-or-nothing transaction: this thread
// checks for a duplicate, begins it and writes the statement row and its audit record, then
// hands the open transaction over and touches the connection again only after the helper has
// committed or rolled it back. The helper gets the lines already encoded in one buffer, and the
// parsed statement is freed by this thread before it parses the next file — the same pattern of
// allocations as parsing the files one after the other (freeing a million small allocations on
// another thread made both fight over one malloc arena; keeping the previous statement alive
// while parsing the next one made the parse ~2x slower).
std::vector<Result<StatementImport>>
SettlementImporter::importFilesSqlite(const QList<std::pair<QString, QString>> &files,
                                      const Actor &actor) const
{
    sqlite3 *h = SqliteNative::handle(m_c.db());
    std::vector<Result<StatementImport>> out;
    out.reserve(size_t(files.size()));
    // Every commit is durable in the WAL (synchronous=FULL) before it returns; copying the WAL
    // into the database file (the checkpoint) is done once after the batch instead of after
    // every statement, so pages that several statements touch are written back once.
    auto v = Sql::scalar(m_c.db(), QStringLiteral("PRAGMA wal_autocheckpoint"));
    const qint64 autoCheckpoint = v ? v->toLongLong() : 1000;
    (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA wal_autocheckpoint = 0"));

    struct InFlight {
        std::unique_ptr<SettlementEncodedLines> lines;
        StatementImport result;
        // lines inserted and committed (or rolled back): every line new, or not
        std::future<Result<bool>> stored;
    };
    std::optional<InFlight> flight;
    auto finish = [&] { // wait for the helper, then record the outcome of that file
        if (!flight)
            return;
        Result<bool> r = flight->stored.get();
        if (r && !*r) {
            // Some lines were known already: the helper rolled the file back, and it is stored
            // again here the careful way, its statement row and audit record saying so.
            StatementImport again = flight->result;
            again.statementId = 0;
            out.push_back(store(again, *flight->lines, actor));
            return;
        }
        out.push_back(r ? Result<StatementImport>(flight->result)
                        : Result<StatementImport>(r.error()));
    };
    for (qsizetype i = 0; i < files.size(); ++i) {
        std::optional<Result<Prepared>> p = prepareFile(files[i].first, files[i].second);
        std::unique_ptr<SettlementEncodedLines> lines;
        if (*p && (*p)->parsed)
            lines = std::make_unique<SettlementEncodedLines>(*(*p)->parsed);
        // freed here, after the next store has started
        std::unique_ptr<SettlementEncodedLines> done;
        if (flight) {
            finish();
            done = std::move(flight->lines);
            flight.reset();
        }
        if (!*p) {
            out.push_back((*p).error());
            continue;
        }
        auto begun = lines ? begin(**p, *lines, actor) : opening(**p);
        if (!begun) {
            out.push_back(begun.error());
            continue;
        }
        if (begun->alreadyImported || !lines) {
            out.push_back(*begun);
            continue;
        }
        p.reset(); // the parsed statement, freed before the next file is parsed
        flight.emplace();
        flight->lines = std::move(lines);
        flight->result = *begun;
        flight->stored =
            std::async(std::launch::async, [h, id = begun->statementId, e = flight->lines.get()] {
                auto outcome = insertSettlementLinesNative(h, id, *e);
                Result<bool> r = outcome ? Result<bool>(outcome->inserted == int(e->rows.size()))
                                         : Result<bool>(outcome.error());
                if (r && *r) {
                    if (char *err = nullptr;
                        sqlite3_exec(h, "COMMIT", nullptr, nullptr, &err) != SQLITE_OK) {
                        r = makeError(ErrorCode::Unavailable,
                                      QStringLiteral("commit statement %1: %2")
                                          .arg(id)
                                          .arg(QString::fromUtf8(err ? err : "?")));
                        sqlite3_free(err);
                    }
                }
                if ((!r || !*r) && !sqlite3_get_autocommit(h))
                    sqlite3_exec(h, "ROLLBACK", nullptr, nullptr, nullptr);
                return r;
            });
        done.reset(); // the previous file's lines, freed while this one is stored
    }
    // The last file is being stored and this thread has nothing left to parse: it copies what
    // the files before committed into the database file meanwhile, so the checkpoint after the
    // last commit has little more than that file's pages left to copy.
    if (flight && files.size() > 1)
        checkpointAside(m_c.db().databaseName());
    finish();
    flight.reset();
    (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA wal_autocheckpoint = %1").arg(autoCheckpoint));
    (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)"));
    return out;
}

Result<StatementImport> SettlementImporter::commit(const Prepared &p, const Actor &actor) const
{
    auto out = opening(p);
    if (!out || out->alreadyImported)
        return out;
    return store(*out, SettlementEncodedLines(*p.parsed), actor);
}

Result<StatementImport> SettlementImporter::begin(const Prepared &p,
                                                  const SettlementEncodedLines &e,
                                                  const Actor &actor) const
{
    auto out = opening(p);
    if (!out || out->alreadyImported)
        return out;
    makeRoomForIndexPages(qsizetype(e.rows.size()));
    if (auto b = Sql::exec(m_c.db(), QStringLiteral("BEGIN IMMEDIATE")); !b)
        return b.error();
    if (auto known = storedMeanwhile(*out, QString::fromUtf8(e.channel)); !known || *known) {
        (void)Sql::exec(m_c.db(), QStringLiteral("ROLLBACK"));
        return known ? out : Result<StatementImport>(known.error());
    }
    out->lines = out->linesInFile; // what the audit record says: every line new (checked after)
    auto id = storeHeader(e, *out, actor);
    if (!id)
        (void)Sql::exec(m_c.db(), QStringLiteral("ROLLBACK"));
    return stored(*out, id);
}

Result<StatementImport> SettlementImporter::opening(const Prepared &p) const
{
    StatementImport out;
    out.fileName = p.fileName;
    out.sha256 = p.sha256;
    auto q = Sql::exec(
        m_c.db(),
        QStringLiteral("SELECT id, line_count FROM settlement_statements WHERE channel = ? AND"
                       " file_sha256 = ?"),
        {p.channel, p.sha256});
    if (!q)
        return q.error();
    if (q->next()) {
        out.statementId = q->value(0).toLongLong();
        out.lines = q->value(1).toInt();
        out.alreadyImported = true;
        return out;
    }
    if (!p.parsed) {
        Error e = p.parsed.error();
        e.message = p.fileName + QStringLiteral(": ") + e.message;
        return e;
    }
    out.linesInFile = int(p.parsed->lines.size());
    out.lines = out.linesInFile;
    out.skippedRecords = p.parsed->skippedRecords;
    return out;
}

Result<StatementImport> SettlementImporter::stored(StatementImport out, const Result<qint64> &id)
{
    if (!id) {
        if (id.error().code != ErrorCode::Conflict)
            return id.error();
        out.alreadyImported = true; // the same file, stored meanwhile by someone else
        return out;
    }
    out.statementId = *id;
    return out;
}

// The same file, stored by someone else while this one waited for its turn (the caller's
// transaction is open, the import lock held): already imported, with that statement's id and
// line count, as it would have been found had it come after.
Result<bool> SettlementImporter::storedMeanwhile(StatementImport &out, const QString &channel) const
{
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT id, line_count FROM settlement_statements WHERE"
                                      " channel = ? AND file_sha256 = ?"),
                       {channel, out.sha256});
    if (!q)
        return q.error();
    if (!q->next())
        return false;
    out.statementId = q->value(0).toLongLong();
    out.lines = q->value(1).toInt();
    out.alreadyImported = true;
    return true;
}

// 32 MB holds the pages of settlement_lines_time a statement touches across its period (17 MB
// per million lines); the table and its (statement, line) key only grow at their ends. A larger
// cache only costs fresh memory for every page written: 256 MB made storing a 62,000-line
// statement 252 ms (insert and commit) against 220 ms.
void SettlementImporter::makeRoomForIndexPages(qsizetype lines) const
{
    if (m_c.dialect() == Dialect::Sqlite && lines > 10000)
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA cache_size = -32768"));
}

Result<StatementImport> SettlementImporter::store(StatementImport out,
                                                  const SettlementEncodedLines &e,
                                                  const Actor &actor) const
{
    makeRoomForIndexPages(qsizetype(e.rows.size()));
    const QString channel = QString::fromUtf8(e.channel);
    ImportLock lock(m_c, m_lockWait); // released after tx has ended
    if (m_c.dialect() == Dialect::MySql)
        if (auto l = lock.take(channel); !l)
            return l.error();
    Transaction tx(m_c.db(), Transaction::Mode::Immediate);
    if (auto b = tx.begin(); !b)
        return b.error();
    if (m_c.dialect() == Dialect::Postgres)
        if (auto l = lock.take(channel); !l)
            return l.error();
    if (auto known = storedMeanwhile(out, channel); !known || *known)
        return known ? Result<StatementImport>(out) : Result<StatementImport>(known.error());
    // The statement row first (its lines refer to it), counting every line; corrected below
    // when some were known already.
    out.lines = out.linesInFile;
    auto id = insertStatementRow(e, out, actor);
    if (!id)
        return stored(out, id.error());
    sqlite3 *h = SqliteNative::handle(m_c.db());
    auto lines = h ? insertSettlementLinesNative(h, *id, e) : insertSettlementLines(m_c, *id, e);
    if (!lines)
        return lines.error();
    out.lines = lines->inserted;
    out.alreadyPresent = lines->present;
    out.conflicts = lines->conflicts;
    for (const SettlementLineConflict &c : out.conflicts)
        spdlog::warn("settlement import {}: line {} ({} {}) is stored as statement {} line {} with"
                     " {} gross {} fee {} {}; the file says {} gross {} fee {} {}: not imported",
                     out.fileName.toStdString(), c.lineNo, channel.toStdString(),
                     c.lineKey.toStdString(), c.storedStatementId, c.storedLineNo,
                     c.storedKind.toStdString(), c.storedGrossMinor, c.storedFeeMinor,
                     c.storedCurrency.toStdString(), c.kind.toStdString(), c.grossMinor, c.feeMinor,
                     c.currency.toStdString());
    if (out.lines == 0 && !e.rows.empty()) {
        // Every line is stored already (or conflicts): nothing of this file is kept.
        tx.rollback();
        spdlog::info("settlement import {}: all {} lines already imported, {} in conflict;"
                     " nothing stored",
                     out.fileName.toStdString(), out.alreadyPresent + out.conflicts.size(),
                     out.conflicts.size());
        if (!out.conflicts.isEmpty())
            recordConflictsOnly(out, channel, actor);
        return out;
    }
    if (out.lines != out.linesInFile)
        if (auto u = Sql::exec(m_c.db(),
                               QStringLiteral("UPDATE settlement_statements SET line_count = ?"
                                              " WHERE id = ?"),
                               {qint64(out.lines), *id});
            !u)
            return u.error();
    auto audited = recordImported(*id, channel, out, actor);
    if (!audited)
        return audited.error();
    if (auto c = tx.commit(); !c)
        return stored(out, c.error());
    out.statementId = *id;
    return out;
}

// The statement row, counting out.lines, inside the caller's transaction.
Result<qint64> SettlementImporter::insertStatementRow(const SettlementEncodedLines &e,
                                                      const StatementImport &out,
                                                      const Actor &actor) const
{
    return Sql::insert(
        m_c.db(), m_c.dialect(),
        QStringLiteral("INSERT INTO settlement_statements (channel, file_sha256, file_name,"
                       " line_count, period_from, period_to, imported_by, imported_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
        {QString::fromUtf8(e.channel), out.sha256, out.fileName, qint64(out.lines),
         e.rows.empty() ? QVariant() : e.periodFromMs, e.rows.empty() ? QVariant() : e.periodToMs,
         actor.id, m_clock.nowMs()});
}

namespace {

QJsonArray conflictLines(const StatementImport &out)
{
    QJsonArray lines;
    for (const SettlementLineConflict &c : out.conflicts)
        if (lines.size() < 100)
            lines << QJsonObject{{QStringLiteral("line"), c.lineNo},
                                 {QStringLiteral("line_key"), c.lineKey},
                                 {QStringLiteral("stored_statement"), c.storedStatementId},
                                 {QStringLiteral("stored_line_no"), c.storedLineNo}};
    return lines;
}

} // namespace

// The statement's audit record, inside the caller's transaction: what was stored, and the
// lines skipped as known or set aside as conflicts.
Result<void> SettlementImporter::recordImported(qint64 id, const QString &channel,
                                                const StatementImport &out,
                                                const Actor &actor) const
{
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = QStringLiteral("settlement.imported");
    e.entityKind = QStringLiteral("settlement_statement");
    e.entityId = QString::number(id);
    e.after = {{QStringLiteral("channel"), channel},
               {QStringLiteral("file_name"), out.fileName},
               {QStringLiteral("file_sha256"), out.sha256},
               {QStringLiteral("lines"), qint64(out.lines)}};
    if (out.lines != out.linesInFile) {
        e.after.insert(QStringLiteral("lines_in_file"), qint64(out.linesInFile));
        e.after.insert(QStringLiteral("already_imported"), qint64(out.alreadyPresent));
        e.after.insert(QStringLiteral("conflicts"), qint64(out.conflicts.size()));
        if (!out.conflicts.isEmpty())
            e.after.insert(QStringLiteral("conflict_lines"), conflictLines(out));
    }
    if (auto a = AuditOutbox::record(m_c.db(), e, m_clock); !a)
        return a.error();
    return {};
}

// A file that stored nothing because its only new-looking lines conflict with stored ones:
// the refusal is audited on its own.
void SettlementImporter::recordConflictsOnly(const StatementImport &out, const QString &channel,
                                             const Actor &actor) const
{
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = QStringLiteral("settlement.import_conflicts");
    e.entityKind = QStringLiteral("settlement_statement");
    e.entityId = out.sha256;
    e.after = {{QStringLiteral("channel"), channel},
               {QStringLiteral("file_name"), out.fileName},
               {QStringLiteral("file_sha256"), out.sha256},
               {QStringLiteral("lines_in_file"), qint64(out.linesInFile)},
               {QStringLiteral("already_imported"), qint64(out.alreadyPresent)},
               {QStringLiteral("conflicts"), qint64(out.conflicts.size())},
               {QStringLiteral("conflict_lines"), conflictLines(out)}};
    if (auto a = AuditOutbox::record(m_c, e, m_clock); !a)
        spdlog::error("settlement import {}: audit of its conflicts: {}",
                      out.fileName.toStdString(), a.error().message.toStdString());
}

// The statement row and its audit record (every line counted as new), inside the caller's
// transaction.
Result<qint64> SettlementImporter::storeHeader(const SettlementEncodedLines &e,
                                               const StatementImport &out, const Actor &actor) const
{
    auto id = insertStatementRow(e, out, actor);
    if (!id)
        return id.error();
    if (auto a = recordImported(*id, QString::fromUtf8(e.channel), out, actor); !a)
        return a.error();
    return *id;
}

} // namespace OncePay
