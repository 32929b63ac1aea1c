#pragma once

// Storing a statement's lines into settlement_lines, for SettlementImporter: the lines encoded
// once for the INSERT, and the INSERT itself on SQLite's own handle or through QtSql. A line
// whose key (SettlementLine::lineKey; UNIQUE (channel, line_key), migration 0011) is stored
// already is not inserted again: it counts as present when the stored line has the same kind
// and money, as a conflict otherwise.
// Thread contract: SettlementEncodedLines is a plain value (made on any thread); the insert
// functions run on the thread that owns the handle or connection.

#include "settlementline.h"

#include "core/result.h"
#include "db/connection.h"

#include <vector>

struct sqlite3;

namespace OncePay {

// A line whose key is stored already with other money or another kind: not imported.
struct SettlementLineConflict {
    int lineNo = 0; // the file's physical line
    QString lineKey;
    QString kind, currency;
    qint64 grossMinor = 0, feeMinor = 0, netMinor = 0;
    // the line as stored
    qint64 storedStatementId = 0;
    int storedLineNo = 0; // its line_no in that statement
    QString storedKind, storedCurrency;
    qint64 storedGrossMinor = 0, storedFeeMinor = 0, storedNetMinor = 0;
};

// A statement's lines as the INSERT binds them: every text already UTF-8, back to back in one
// buffer, so the parsed statement (a million small QStrings) can be freed at once by the thread
// that parsed it, and the storing thread only binds pointers. A key the file repeats gets
// "#2", "#3", ... (in file order), so a statement that lists a settlement twice keeps both; a
// line without a key is known by its raw record ("raw:" + SHA-1 of raw): never NULL.
struct SettlementEncodedLines {
    struct Text {
        qsizetype offset = 0;
        int size = -1; // -1: NULL
    };
    struct Row {
        int lineNo = 0;
        qint64 grossMinor = 0, feeMinor = 0, netMinor = 0, settledAtMs = 0;
        qint64 transactedAtMs = 0; // 0: the layout has none, stored as NULL
        Text channelTxnId, kind, currency, raw, lineKey;
    };
    QByteArray channel;
    std::vector<char> text;
    std::vector<Row> rows;
    qint64 periodFromMs = 0, periodToMs = 0; // the lines' settled_at, 0 without lines

    explicit SettlementEncodedLines(const ParsedStatement &s);
    QString string(const Text &t) const
    {
        return t.size < 0 ? QString() : QString::fromUtf8(text.data() + t.offset, t.size);
    }
};

struct SettlementLineOutcome {
    int inserted = 0;
    int present = 0; // the same line stored before (same key, kind and money): skipped
    QList<SettlementLineConflict> conflicts;
};

// Inside the open transaction on `h` (SQLite's C API, one prepared INSERT, text bound in
// place).
Result<SettlementLineOutcome> insertSettlementLinesNative(sqlite3 *h, qint64 statementId,
                                                          const SettlementEncodedLines &e);
// Inside the caller's transaction on `c` (QtSql: PostgreSQL, MariaDB).
Result<SettlementLineOutcome> insertSettlementLines(const Connection &c, qint64 statementId,
                                                    const SettlementEncodedLines &e);

} // namespace OncePay
