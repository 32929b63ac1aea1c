#pragma once

// `oncepay settlement import`: a channel's statement file into settlement_statements and
// settlement_lines. A statement imports all or nothing (one transaction); the same file
// (same SHA-256) imported again changes nothing; a corrupt file is refused whole, naming
// the line and column (DESIGN.md §4, §8). Each line carries the channel's own line id
// (SettlementLine::lineKey, unique per channel since migration 0011): a line already stored
// from another file — the statement re-saved with other line endings, re-downloaded after a
// refund — is skipped and counted; one stored with other money (or another kind) is a
// conflict: not imported, reported with both versions. A file whose lines are all known
// stores nothing at all (no statement row), and says so.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "settlementlinestore.h"

#include <QString>

#include <chrono>
#include <vector>

namespace OncePay {

struct StatementImport {
    QString fileName;
    QString sha256;
    qint64 statementId = 0; // 0 when nothing was stored (every line known already)
    int lines = 0;          // lines stored (a statement already imported: its stored lines)
    int linesInFile = 0;    // settlement lines the file holds
    int alreadyPresent = 0; // lines stored before from another file: skipped
    QList<SettlementLineConflict> conflicts;
    int skippedRecords = 0;
    bool alreadyImported = false; // the same file (SHA-256) was imported before
};

class SettlementImporter {
public:
    SettlementImporter(const Connection &c, const Clock &clock)
        : m_c(c)
        , m_clock(clock)
    {}

    Result<StatementImport> importFile(const QString &channel, const QString &path,
                                       const Actor &actor) const;
    Result<StatementImport> importData(const QString &channel, const QString &fileName,
                                       const QByteArray &data, const Actor &actor) const;
    // (channel, path) pairs in order, each exactly as importFile() would do it — its own
    // transaction, all or nothing, a failure affects only its own file — but the next file is
    // read, hashed and parsed while this one is being stored (on SQLite the files are parsed on
    // this thread and the lines stored on a helper thread; elsewhere the other way round).
    std::vector<Result<StatementImport>>
    importFiles(const QList<std::pair<QString, QString>> &files, const Actor &actor) const;

    // A file read, hashed and parsed, not stored yet: safe to make on any thread.
    struct Prepared {
        QString channel;
        QString fileName;
        QString sha256;
        Result<ParsedStatement> parsed = ParsedStatement{};
    };
    static Result<Prepared> prepare(const QString &channel, const QString &fileName,
                                    const QByteArray &data);
    static Result<Prepared> prepareFile(const QString &channel, const QString &path);
    // The duplicate check and the store, on the connection's thread.
    Result<StatementImport> commit(const Prepared &p, const Actor &actor) const;

    // On MariaDB, how long this importer waits for another import of the same channel's
    // statements in the same database to be stored before it gives up (Unavailable,
    // "import_busy", nothing stored): 600 s unless set.
    void setLockWait(std::chrono::seconds wait);
    // MariaDB's named lock of one channel's imports in the database, as SQL with the channel
    // bound (GET_LOCK names are server-wide; at most 64 characters: the names hashed). Who
    // holds it: SELECT IS_USED_LOCK(<this>) gives the session's connection id.
    static constexpr QLatin1StringView kLockNameSql{
        "CONCAT('oncepay_settlement_', MD5(CONCAT(DATABASE(), ':', ?)))"};

private:
    // The duplicate check, nothing written: the statement already imported (its id and line
    // count), new (its counts), or its parse error named by file.
    Result<StatementImport> opening(const Prepared &p) const;
    // A new statement's outcome once its row was written: its id, or already imported when
    // the unique key says someone else stored the same file meanwhile.
    static Result<StatementImport> stored(StatementImport out, const Result<qint64> &id);
    // Inside the transaction: whether the same file was stored meanwhile (out then says
    // already imported, with that statement's id and line count).
    Result<bool> storedMeanwhile(StatementImport &out, const QString &channel) const;
    // On SQLite, a page cache big enough for the index pages of a large statement.
    void makeRoomForIndexPages(qsizetype lines) const;
    std::vector<Result<StatementImport>>
    importFilesSqlite(const QList<std::pair<QString, QString>> &files, const Actor &actor) const;
    // SQLite batch: the duplicate check, BEGIN IMMEDIATE, the statement row and its audit
    // record; the transaction is left open for the lines (unless already imported or failed).
    Result<StatementImport> begin(const Prepared &p, const SettlementEncodedLines &e,
                                  const Actor &actor) const;
    Result<qint64> storeHeader(const SettlementEncodedLines &e, const StatementImport &out,
                               const Actor &actor) const;
    // The statement row, its lines (known ones skipped, conflicts set aside) and its audit
    // record in one transaction; nothing at all when no line is new. One channel's imports are
    // stored one at a time (ImportLock in the .cpp; SQLite's BEGIN IMMEDIATE).
    Result<StatementImport> store(StatementImport out, const SettlementEncodedLines &e,
                                  const Actor &actor) const;
    Result<qint64> insertStatementRow(const SettlementEncodedLines &e, const StatementImport &out,
                                      const Actor &actor) const;
    Result<void> recordImported(qint64 id, const QString &channel, const StatementImport &out,
                                const Actor &actor) const;
    void recordConflictsOnly(const StatementImport &out, const QString &channel,
                             const Actor &actor) const;

    const Connection &m_c;
    const Clock &m_clock;
    std::chrono::seconds m_lockWait{600};
};

} // namespace OncePay
