#include "settlementimporter.h"

#include "formats/statementformat.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/sqlitenative.h"
#include "db/transaction.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QStringEncoder>

#include <algorithm>
#include <future>
#include <memory>
#include <optional>

#include <sqlite3.h>

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

constexpr auto kInsertLine =
    "INSERT INTO settlement_lines (statement_id, line_no, channel, channel_txn_id, kind,"
    " gross_minor, fee_minor, net_minor, currency, settled_at, raw, transacted_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

// A statement's lines as the INSERT binds them: every text already UTF-8, back to back in one
// buffer, so the parsed statement (a million small QStrings) can be freed at once by the thread
// that parsed it, and the storing thread only binds pointers.
struct EncodedLines {
    struct Text {
        qsizetype offset = 0;
        int size = -1; // -1: NULL
    };
    struct Row {
        int lineNo = 0;
        qint64 grossMinor = 0, feeMinor = 0, netMinor = 0, settledAtMs = 0;
        qint64 transactedAtMs = 0; // 0: the layout has none, stored as NULL
        Text channelTxnId, kind, currency, raw;
    };
    QByteArray channel;
    std::vector<char> text;
    std::vector<Row> rows;

    explicit EncodedLines(const ParsedStatement &s)
        : channel(s.channel.toUtf8())
    {
        rows.reserve(size_t(s.lines.size()));
        qsizetype bytes = 0;
        for (const SettlementLine &l : s.lines)
            bytes += l.channelTxnId.size() + l.kind.size() + l.currency.size() + l.raw.size();
        text.reserve(size_t(bytes + bytes / 4 + 64));
        QStringEncoder encoder(QStringConverter::Utf8, QStringConverter::Flag::Stateless);
        auto put = [&](const QString &v) {
            if (v.isNull())
                return Text{};
            const qsizetype at = qsizetype(text.size());
            text.resize(size_t(at + v.size() * 3)); // the most UTF-8 one UTF-16 unit can need
            char *end = encoder.appendToBuffer(text.data() + at, v);
            text.resize(size_t(end - text.data()));
            return Text{at, int(end - (text.data() + at))};
        };
        for (const SettlementLine &l : s.lines) {
            Row r;
            r.lineNo = l.lineNo;
            r.grossMinor = l.grossMinor;
            r.feeMinor = l.feeMinor;
            r.netMinor = l.netMinor;
            r.settledAtMs = l.settledAtMs;
            r.transactedAtMs = l.transactedAtMs;
            r.channelTxnId = put(l.channelTxnId);
            r.kind = put(l.kind);
            r.currency = put(l.currency);
            r.raw = put(l.raw);
            rows.push_back(r);
        }
    }
};

// The encoded lines through one prepared INSERT (text bound in place, SQLITE_STATIC), inside
// the open transaction on `h`.
Result<void> insertEncodedNative(sqlite3 *h, qint64 statementId, const EncodedLines &e)
{
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(h, kInsertLine, -1, &st, nullptr) != SQLITE_OK)
        return makeError(ErrorCode::Internal, QStringLiteral("prepare settlement line insert: ") +
                                                  QString::fromUtf8(sqlite3_errmsg(h)));
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> guard(st, sqlite3_finalize);
    auto text = [&](int index, const EncodedLines::Text &t) {
        if (t.size < 0)
            sqlite3_bind_null(st, index);
        else
            sqlite3_bind_text(st, index, e.text.data() + t.offset, t.size, SQLITE_STATIC);
    };
    int seq = 0;
    for (const EncodedLines::Row &l : e.rows) {
        sqlite3_bind_int64(st, 1, statementId);
        sqlite3_bind_int64(st, 2, ++seq); // a record may settle twice (FedaPay refunded rows)
        sqlite3_bind_text(st, 3, e.channel.constData(), int(e.channel.size()), SQLITE_STATIC);
        text(4, l.channelTxnId);
        text(5, l.kind);
        sqlite3_bind_int64(st, 6, l.grossMinor);
        sqlite3_bind_int64(st, 7, l.feeMinor);
        sqlite3_bind_int64(st, 8, l.netMinor);
        text(9, l.currency);
        sqlite3_bind_int64(st, 10, l.settledAtMs);
        text(11, l.raw);
        if (l.transactedAtMs > 0)
            sqlite3_bind_int64(st, 12, l.transactedAtMs);
        else
            sqlite3_bind_null(st, 12);
        if (const int rc = sqlite3_step(st); rc != SQLITE_DONE) {
            const int base = rc & 0xff;
            return makeError(base == SQLITE_BUSY || base == SQLITE_LOCKED ? ErrorCode::Unavailable
                                                                          : ErrorCode::Internal,
                             QStringLiteral("insert settlement line %1: %2")
                                 .arg(l.lineNo)
                                 .arg(QString::fromUtf8(sqlite3_errmsg(h))));
        }
        sqlite3_reset(st);
    }
    return {};
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

} // namespace

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
        std::unique_ptr<EncodedLines> lines;
        StatementImport result;
        std::future<Result<void>> stored; // lines inserted and committed (or rolled back)
    };
    std::optional<InFlight> flight;
    auto finish = [&] { // wait for the helper, then record the outcome of that file
        if (!flight)
            return;
        Result<void> r = flight->stored.get();
        out.push_back(r ? Result<StatementImport>(flight->result)
                        : Result<StatementImport>(r.error()));
    };
    for (qsizetype i = 0; i < files.size(); ++i) {
        std::optional<Result<Prepared>> p = prepareFile(files[i].first, files[i].second);
        std::unique_ptr<EncodedLines> lines;
        if (*p && (*p)->parsed)
            lines = std::make_unique<EncodedLines>(*(*p)->parsed);
        std::unique_ptr<EncodedLines> done; // freed here, after the next store has started
        if (flight) {
            finish();
            done = std::move(flight->lines);
            flight.reset();
        }
        if (!*p) {
            out.push_back((*p).error());
            continue;
        }
        auto begun = begin(**p, actor);
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
                Result<void> r = insertEncodedNative(h, id, *e);
                if (r) {
                    if (char *err = nullptr;
                        sqlite3_exec(h, "COMMIT", nullptr, nullptr, &err) != SQLITE_OK) {
                        r = makeError(ErrorCode::Unavailable,
                                      QStringLiteral("commit statement %1: %2")
                                          .arg(id)
                                          .arg(QString::fromUtf8(err ? err : "?")));
                        sqlite3_free(err);
                    }
                }
                if (!r && !sqlite3_get_autocommit(h))
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
    return stored(*out, store(*p.parsed, p.fileName, p.sha256, actor));
}

Result<StatementImport> SettlementImporter::begin(const Prepared &p, const Actor &actor) const
{
    auto out = opening(p);
    if (!out || out->alreadyImported)
        return out;
    makeRoomForIndexPages(p.parsed->lines.size());
    if (auto b = Sql::exec(m_c.db(), QStringLiteral("BEGIN IMMEDIATE")); !b)
        return b.error();
    auto id = storeHeader(*p.parsed, p.fileName, p.sha256, actor);
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
    out.lines = int(p.parsed->lines.size());
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

// 32 MB holds the pages of settlement_lines_time a statement touches across its period (17 MB
// per million lines); the table and its (statement, line) key only grow at their ends. A larger
// cache only costs fresh memory for every page written: 256 MB made storing a 62,000-line
// statement 252 ms (insert and commit) against 220 ms.
void SettlementImporter::makeRoomForIndexPages(qsizetype lines) const
{
    if (m_c.dialect() == Dialect::Sqlite && lines > 10000)
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA cache_size = -32768"));
}

Result<qint64> SettlementImporter::store(const ParsedStatement &s, const QString &fileName,
                                         const QString &sha, const Actor &actor) const
{
    makeRoomForIndexPages(s.lines.size());
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<qint64> {
        auto id = storeHeader(s, fileName, sha, actor);
        if (!id)
            return id.error();
        if (auto r = insertLines(*id, s); !r)
            return r.error();
        return *id;
    });
}

// The statement row and its audit record, inside the caller's transaction.
Result<qint64> SettlementImporter::storeHeader(const ParsedStatement &s, const QString &fileName,
                                               const QString &sha, const Actor &actor) const
{
    qint64 from = 0, to = 0;
    if (!s.lines.isEmpty()) {
        const auto [lo, hi] =
            std::minmax_element(s.lines.begin(), s.lines.end(), [](const auto &a, const auto &b) {
                return a.settledAtMs < b.settledAtMs;
            });
        from = lo->settledAtMs;
        to = hi->settledAtMs;
    }
    auto id = Sql::insert(
        m_c.db(), m_c.dialect(),
        QStringLiteral("INSERT INTO settlement_statements (channel, file_sha256, file_name,"
                       " line_count, period_from, period_to, imported_by, imported_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
        {s.channel, sha, fileName, qint64(s.lines.size()), s.lines.isEmpty() ? QVariant() : from,
         s.lines.isEmpty() ? QVariant() : to, actor.id, m_clock.nowMs()});
    if (!id)
        return id.error();
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = QStringLiteral("settlement.imported");
    e.entityKind = QStringLiteral("settlement_statement");
    e.entityId = QString::number(*id);
    e.after = {{QStringLiteral("channel"), s.channel},
               {QStringLiteral("file_name"), fileName},
               {QStringLiteral("file_sha256"), sha},
               {QStringLiteral("lines"), qint64(s.lines.size())}};
    if (auto a = AuditOutbox::record(m_c.db(), e, m_clock); !a)
        return a.error();
    return *id;
}

// The statement's lines, inside the caller's transaction. On SQLite they are encoded once and
// go through one native prepared INSERT on the connection's own handle, as in the batch (no
// QVariant per value); QtSql elsewhere.
Result<void> SettlementImporter::insertLines(qint64 statementId, const ParsedStatement &s) const
{
    if (sqlite3 *h = SqliteNative::handle(m_c.db()))
        return insertEncodedNative(h, statementId, EncodedLines(s));
    QSqlQuery q(m_c.db());
    if (!q.prepare(QString::fromLatin1(kInsertLine)))
        return Sql::classify(q.lastError(), QStringLiteral("prepare settlement line insert"));
    int seq = 0;
    for (const SettlementLine &l : s.lines) {
        q.addBindValue(statementId);
        q.addBindValue(++seq);
        q.addBindValue(s.channel);
        q.addBindValue(l.channelTxnId);
        q.addBindValue(l.kind);
        q.addBindValue(l.grossMinor);
        q.addBindValue(l.feeMinor);
        q.addBindValue(l.netMinor);
        q.addBindValue(l.currency);
        q.addBindValue(l.settledAtMs);
        q.addBindValue(l.raw);
        q.addBindValue(l.transactedAtMs > 0 ? QVariant(l.transactedAtMs)
                                            : QVariant(QMetaType::fromType<qint64>()));
        if (!q.exec())
            return Sql::classify(q.lastError(),
                                 QStringLiteral("insert settlement line %1").arg(l.lineNo));
    }
    return {};
}

} // namespace OncePay
