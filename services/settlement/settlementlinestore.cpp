#include "settlementlinestore.h"

#include "db/sql.h"

#include <QCryptographicHash>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringEncoder>

#include <memory>

#include <sqlite3.h>

namespace OncePay {

namespace {

constexpr auto kInsertLine =
    "INSERT INTO settlement_lines (statement_id, line_no, channel, channel_txn_id, kind,"
    " gross_minor, fee_minor, net_minor, currency, settled_at, raw, transacted_at, line_key)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
// SQLite and PostgreSQL skip a known key in the INSERT itself, a key another import is storing
// at the same moment included (the INSERT waits for it to commit); MariaDB asks first, and an
// INSERT that meets a key stored meanwhile (the other import committed after the question) is
// refused as a duplicate, the statement alone undone: the line is known, judged as asked.
constexpr auto kSkipKnownKey = " ON CONFLICT (channel, line_key) DO NOTHING";
constexpr auto kStoredLine =
    "SELECT statement_id, line_no, kind, gross_minor, fee_minor, net_minor, currency FROM"
    " settlement_lines WHERE channel = ? AND line_key = ?";

// The stored line under the row's key (read by kStoredLine's columns): present when it says
// the same, a conflict otherwise.
void judge(SettlementLineOutcome &out, const SettlementEncodedLines &e,
           const SettlementEncodedLines::Row &l, qint64 statementId, int lineNo,
           const QString &kind, qint64 gross, qint64 fee, qint64 net, const QString &currency)
{
    SettlementLineConflict c;
    c.lineNo = l.lineNo;
    c.lineKey = e.string(l.lineKey);
    c.kind = e.string(l.kind);
    c.currency = e.string(l.currency);
    c.grossMinor = l.grossMinor;
    c.feeMinor = l.feeMinor;
    c.netMinor = l.netMinor;
    if (kind == c.kind && gross == c.grossMinor && fee == c.feeMinor && net == c.netMinor &&
        currency == c.currency) {
        ++out.present;
        return;
    }
    c.storedStatementId = statementId;
    c.storedLineNo = lineNo;
    c.storedKind = kind;
    c.storedCurrency = currency;
    c.storedGrossMinor = gross;
    c.storedFeeMinor = fee;
    c.storedNetMinor = net;
    out.conflicts << c;
}

Error sqliteError(sqlite3 *h, int rc, const QString &context)
{
    const int base = rc & 0xff;
    return makeError(base == SQLITE_BUSY || base == SQLITE_LOCKED ? ErrorCode::Unavailable
                                                                  : ErrorCode::Internal,
                     context + QStringLiteral(": ") + QString::fromUtf8(sqlite3_errmsg(h)));
}

} // namespace

SettlementEncodedLines::SettlementEncodedLines(const ParsedStatement &s)
    : channel(s.channel.toUtf8())
{
    rows.reserve(size_t(s.lines.size()));
    qsizetype bytes = 0;
    for (const SettlementLine &l : s.lines)
        bytes += l.channelTxnId.size() + l.kind.size() + l.currency.size() + l.raw.size() +
                 l.lineKey.size();
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
    QHash<QString, int> seen; // key -> times the file listed it so far
    seen.reserve(s.lines.size());
    bool first = true;
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
        // A line a layout gives no id (none of the formats; a caller building lines itself) is
        // known by its record: "raw:" and the SHA-1 of the raw text.
        const QString key =
            !l.lineKey.isEmpty()
                ? l.lineKey
                : QStringLiteral("raw:") +
                      QString::fromLatin1(
                          QCryptographicHash::hash(l.raw.toUtf8(), QCryptographicHash::Sha1)
                              .toHex());
        const int n = ++seen[key];
        r.lineKey = put(n == 1 ? key : key + u'#' + QString::number(n));
        rows.push_back(r);
        periodFromMs = first ? l.settledAtMs : std::min(periodFromMs, l.settledAtMs);
        periodToMs = first ? l.settledAtMs : std::max(periodToMs, l.settledAtMs);
        first = false;
    }
}

Result<SettlementLineOutcome> insertSettlementLinesNative(sqlite3 *h, qint64 statementId,
                                                          const SettlementEncodedLines &e)
{
    sqlite3_stmt *st = nullptr, *probe = nullptr;
    const QByteArray insert = QByteArray(kInsertLine) + kSkipKnownKey;
    if (sqlite3_prepare_v2(h, insert.constData(), -1, &st, nullptr) != SQLITE_OK)
        return makeError(ErrorCode::Internal, QStringLiteral("prepare settlement line insert: ") +
                                                  QString::fromUtf8(sqlite3_errmsg(h)));
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> guard(st, sqlite3_finalize);
    if (sqlite3_prepare_v2(h, kStoredLine, -1, &probe, nullptr) != SQLITE_OK)
        return makeError(ErrorCode::Internal, QStringLiteral("prepare settlement line probe: ") +
                                                  QString::fromUtf8(sqlite3_errmsg(h)));
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> probeGuard(probe,
                                                                            sqlite3_finalize);
    auto text = [&](sqlite3_stmt *s, int index, const SettlementEncodedLines::Text &t) {
        if (t.size < 0)
            sqlite3_bind_null(s, index);
        else
            sqlite3_bind_text(s, index, e.text.data() + t.offset, t.size, SQLITE_STATIC);
    };
    auto column = [](sqlite3_stmt *s, int i) {
        return QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, i)),
                                 sqlite3_column_bytes(s, i));
    };
    SettlementLineOutcome out;
    int seq = 0;
    for (const SettlementEncodedLines::Row &l : e.rows) {
        sqlite3_bind_int64(st, 1, statementId);
        sqlite3_bind_int64(st, 2, ++seq); // a record may settle twice (FedaPay refunded rows)
        sqlite3_bind_text(st, 3, e.channel.constData(), int(e.channel.size()), SQLITE_STATIC);
        text(st, 4, l.channelTxnId);
        text(st, 5, l.kind);
        sqlite3_bind_int64(st, 6, l.grossMinor);
        sqlite3_bind_int64(st, 7, l.feeMinor);
        sqlite3_bind_int64(st, 8, l.netMinor);
        text(st, 9, l.currency);
        sqlite3_bind_int64(st, 10, l.settledAtMs);
        text(st, 11, l.raw);
        if (l.transactedAtMs > 0)
            sqlite3_bind_int64(st, 12, l.transactedAtMs);
        else
            sqlite3_bind_null(st, 12);
        text(st, 13, l.lineKey);
        if (const int rc = sqlite3_step(st); rc != SQLITE_DONE)
            return sqliteError(h, rc, QStringLiteral("insert settlement line %1").arg(l.lineNo));
        sqlite3_reset(st);
        if (sqlite3_changes(h) == 1) {
            ++out.inserted;
            continue;
        }
        --seq; // not stored: the next line takes this line_no
        sqlite3_bind_text(probe, 1, e.channel.constData(), int(e.channel.size()), SQLITE_STATIC);
        text(probe, 2, l.lineKey);
        const int rc = sqlite3_step(probe);
        if (rc != SQLITE_ROW) {
            sqlite3_reset(probe);
            return rc == SQLITE_DONE
                       ? makeError(ErrorCode::Internal,
                                   QStringLiteral("settlement line %1 neither stored nor known")
                                       .arg(l.lineNo))
                       : sqliteError(h, rc,
                                     QStringLiteral("read settlement line %1").arg(l.lineNo));
        }
        judge(out, e, l, sqlite3_column_int64(probe, 0), sqlite3_column_int(probe, 1),
              column(probe, 2), sqlite3_column_int64(probe, 3), sqlite3_column_int64(probe, 4),
              sqlite3_column_int64(probe, 5), column(probe, 6));
        sqlite3_reset(probe);
    }
    return out;
}

Result<SettlementLineOutcome> insertSettlementLines(const Connection &c, qint64 statementId,
                                                    const SettlementEncodedLines &e)
{
    const bool askFirst = c.dialect() == Dialect::MySql;
    QSqlQuery q(c.db()), probe(c.db());
    if (!q.prepare(QString::fromLatin1(kInsertLine) +
                   (askFirst ? QString() : QString::fromLatin1(kSkipKnownKey))))
        return Sql::classify(q.lastError(), QStringLiteral("prepare settlement line insert"));
    bool probeReady = false; // prepared when first needed
    const QString channel = QString::fromUtf8(e.channel);
    SettlementLineOutcome out;
    // The stored line under this key, judged; false when there is none.
    auto known = [&](const SettlementEncodedLines::Row &l) -> Result<bool> {
        if (!probeReady && !probe.prepare(QString::fromLatin1(kStoredLine)))
            return Sql::classify(probe.lastError(),
                                 QStringLiteral("prepare settlement line probe"));
        probeReady = true;
        probe.addBindValue(channel);
        probe.addBindValue(e.string(l.lineKey));
        if (!probe.exec())
            return Sql::classify(probe.lastError(),
                                 QStringLiteral("read settlement line %1").arg(l.lineNo));
        if (!probe.next())
            return false;
        judge(out, e, l, probe.value(0).toLongLong(), probe.value(1).toInt(),
              probe.value(2).toString(), probe.value(3).toLongLong(), probe.value(4).toLongLong(),
              probe.value(5).toLongLong(), probe.value(6).toString());
        probe.finish();
        return true;
    };
    int seq = 0;
    for (const SettlementEncodedLines::Row &l : e.rows) {
        if (askFirst) {
            auto k = known(l);
            if (!k)
                return k.error();
            if (*k)
                continue;
        }
        q.addBindValue(statementId);
        q.addBindValue(++seq);
        q.addBindValue(channel);
        q.addBindValue(e.string(l.channelTxnId));
        q.addBindValue(e.string(l.kind));
        q.addBindValue(l.grossMinor);
        q.addBindValue(l.feeMinor);
        q.addBindValue(l.netMinor);
        q.addBindValue(e.string(l.currency));
        q.addBindValue(l.settledAtMs);
        q.addBindValue(e.string(l.raw));
        q.addBindValue(l.transactedAtMs > 0 ? QVariant(l.transactedAtMs)
                                            : QVariant(QMetaType::fromType<qint64>()));
        q.addBindValue(e.string(l.lineKey));
        if (!q.exec()) {
            if (!askFirst || !Sql::isUniqueViolation(q.lastError()))
                return Sql::classify(q.lastError(),
                                     QStringLiteral("insert settlement line %1").arg(l.lineNo));
            // Stored by a concurrent import since the question above (READ COMMITTED: the
            // probe sees it now): known, as in a sequential import.
            --seq;
            auto k = known(l);
            if (!k)
                return k.error();
            if (!*k)
                return Sql::classify(q.lastError(),
                                     QStringLiteral("insert settlement line %1").arg(l.lineNo));
            continue;
        }
        if (q.numRowsAffected() == 1) {
            ++out.inserted;
            continue;
        }
        --seq;
        auto k = known(l);
        if (!k)
            return k.error();
        if (!*k)
            return makeError(
                ErrorCode::Internal,
                QStringLiteral("settlement line %1 neither stored nor known").arg(l.lineNo));
    }
    return out;
}

} // namespace OncePay
