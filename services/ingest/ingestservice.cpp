#include "ingestservice.h"

#include "audit/auditoutbox.h"
#include "core/money.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "ingest/headerredaction.h"

#include <QCryptographicHash>
#include <QSqlError>

#include <algorithm>
#include <iterator>
#include <tuple>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

// Appends `text` as a JSON string; runs of characters that need no escape are copied whole.
void appendJsonString(QString &out, QStringView text)
{
    out += u'"';
    qsizetype run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c >= 0x20 && c != u'"' && c != u'\\')
            continue;
        out += text.sliced(run, i - run);
        run = i + 1;
        switch (c) {
        case u'"': out += QLatin1String("\\\""); break;
        case u'\\': out += QLatin1String("\\\\"); break;
        case u'\b': out += QLatin1String("\\b"); break;
        case u'\f': out += QLatin1String("\\f"); break;
        case u'\n': out += QLatin1String("\\n"); break;
        case u'\r': out += QLatin1String("\\r"); break;
        case u'\t': out += QLatin1String("\\t"); break;
        default: out += QStringLiteral("\\u%1").arg(int(c), 4, 16, QLatin1Char('0'));
        }
    }
    out += text.sliced(run);
    out += u'"';
}

} // namespace

// Signatures and ids are kept for the investigation (the signature is an HMAC output or a
// public-key signature, not a key); a credential some proxy or sender added (Authorization,
// Cookie, X-Api-Key, …) is stored as "[redacted, N bytes]" and never logged — the rule is
// HeaderRedaction's. The signature was verified on the request before this runs. Written by
// hand rather than through QJsonDocument: this runs for every callback stored, and a JSON
// array of string pairs needs nothing but escaping.
QString IngestService::headersJson(const InboundRequest &request)
{
    qsizetype size = 2;
    for (const auto &h : request.headers)
        size += h.first.size() + h.second.size() + 8;
    QString out;
    out.reserve(size);
    out += u'[';
    bool first = true;
    for (const auto &h : request.headers) {
        if (!first)
            out += u',';
        first = false;
        out += u'[';
        appendJsonString(out, QString::fromLatin1(h.first));
        out += u',';
        appendJsonString(out, HeaderRedaction::isCredential(h.first, h.second)
                                  ? HeaderRedaction::marker(h.second.size())
                                  : QString::fromUtf8(h.second));
        out += u']';
    }
    out += u']';
    return out;
}

namespace {

// MySQL counts VARCHAR lengths in characters (code points in utf8mb4); QString counts UTF-16
// units, two for a character beyond the BMP.
qsizetype codePoints(const QString &s)
{
    qsizetype n = s.size();
    for (qsizetype i = 0; i + 1 < s.size(); ++i)
        if (s[i].isHighSurrogate() && s[i + 1].isLowSurrogate()) {
            --n;
            ++i;
        }
    return n;
}

QString insertSql(Dialect dialect)
{
    const QString base =
        QStringLiteral("INSERT INTO callback_messages (callback_id, channel, event_kind, "
                       "channel_event_type, order_ref,"
                       " attempt_ref, channel_txn_id, refund_id, amount_minor, currency, raw_body, "
                       "headers, status, attempts,"
                       " next_attempt_at, result_reason, received_at, updated_at, finished_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)");
    // A duplicate must not raise an error: on PostgreSQL that would abort the whole group
    // commit transaction. Zero rows affected means "already received".
    switch (dialect) {
    case Dialect::Sqlite:
    case Dialect::Postgres: return base + QStringLiteral(" ON CONFLICT (callback_id) DO NOTHING");
    case Dialect::MySql: return base + QStringLiteral(" ON DUPLICATE KEY UPDATE id = id");
    }
    return base;
}

QString doorCountSql(Dialect dialect)
{
    const QString base = QStringLiteral(
        "INSERT INTO callback_door_counts (channel, bucket_start_ms, duplicates, updated_at)"
        " VALUES (?, ?, ?, ?)");
    switch (dialect) {
    case Dialect::Sqlite:
    case Dialect::Postgres:
        return base +
               QStringLiteral(" ON CONFLICT (channel, bucket_start_ms) DO UPDATE SET"
                              " duplicates = callback_door_counts.duplicates + excluded.duplicates,"
                              " updated_at = excluded.updated_at");
    case Dialect::MySql:
        return base + QStringLiteral(" ON DUPLICATE KEY UPDATE duplicates = duplicates +"
                                     " VALUES(duplicates), updated_at = VALUES(updated_at)");
    }
    return base;
}

} // namespace

IngestService::IngestService(const Connection &connection, const ChannelRegistry &channels,
                             const Clock &clock, IngestLimits limits)
    : m_c(connection)
    , m_channels(channels)
    , m_clock(clock)
    , m_limits(limits)
{}

Result<NormalizedCallback> IngestService::verifyAndParse(const QString &channel,
                                                         const InboundRequest &request) const
{
    const ChannelAdapter *adapter = m_channels.adapter(channel);
    if (!adapter)
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("unknown channel '%1'").arg(channel.left(32)),
                         QStringLiteral("unknown_channel"));
    if (request.body.size() > m_limits.maxBodyBytes)
        return makeError(ErrorCode::TooLarge,
                         QStringLiteral("body of %1 bytes exceeds the %2-byte limit")
                             .arg(request.body.size())
                             .arg(m_limits.maxBodyBytes),
                         QStringLiteral("too_large"));
    if (auto v = adapter->verify(request, m_clock.nowMs()); !v)
        return v.error();
    auto parsed = adapter->parse(request);
    if (!parsed)
        return parsed.error();
    const NormalizedCallback &cb = *parsed;
    // Defence in depth: whatever an adapter lets through, money must be sane.
    if (cb.kind != CallbackKind::Other && cb.hasAmount) {
        if (cb.amountMinor < 0)
            return makeError(ErrorCode::Invalid, QStringLiteral("negative amount"),
                             QStringLiteral("bad_amount"));
        if (!Currency::isKnown(cb.currency))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("unknown currency '%1'").arg(cb.currency.left(8)),
                             QStringLiteral("unknown_currency"));
    }
    if (cb.callbackId.isEmpty() || cb.callbackId.size() > 190)
        return makeError(ErrorCode::Invalid, QStringLiteral("callback id missing or too long"),
                         QStringLiteral("malformed"));
    if (auto fits = checkStorable(cb, request.body); !fits)
        return fits.error();
    return parsed;
}

Result<void> IngestService::checkStorable(const NormalizedCallback &cb, const QByteArray &body)
{
    const auto notStorable = [](QLatin1String column) {
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1 contains a NUL character, which the message table "
                                        "cannot store")
                             .arg(column),
                         QStringLiteral("field_not_storable"));
    };
    // raw_body: JSON has no raw NUL, but the adapter's parser is not the judge of what the
    // database takes.
    if (body.contains('\0'))
        return notStorable(QLatin1String("raw_body"));
    // Every value messageRow() stores from the callback, against the shortest column that
    // holds it in the three dialects (resources/migrations/orders/*/0001_initial.sql):
    // MySQL's VARCHAR(191) and CHAR(3); SQLite and PostgreSQL store TEXT of any length. The
    // raw body and the headers go to LONGTEXT (4 GiB), far above any body or header the
    // gateway reads; callback_id is checked above, event_kind and status are our own words.
    struct Field {
        const char *column;
        const QString &value;
        qsizetype maxChars;
    };
    const Field fields[] = {
        {"channel", cb.channel, kStoredVarcharChars},
        {"channel_event_type", cb.channelEventType, kStoredVarcharChars},
        {"order_ref", cb.orderRef, kStoredVarcharChars},
        {"attempt_ref", cb.attemptRef, kStoredVarcharChars},
        {"channel_txn_id", cb.channelTxnId, kStoredVarcharChars},
        {"refund_id", cb.refundId, kStoredVarcharChars},
        {"currency", cb.currency, 3},
    };
    for (const Field &f : fields) {
        // PostgreSQL refuses U+0000 in text (the commit would fail for ever), SQLite's text
        // functions stop at it.
        if (f.value.contains(QChar(0)))
            return notStorable(QLatin1String(f.column));
        if (f.value.size() <= f.maxChars)
            continue; // fast path: no code point count needed
        if (const qsizetype n = codePoints(f.value); n > f.maxChars)
            return makeError(
                ErrorCode::Invalid,
                QStringLiteral("%1 is %2 characters long; the message table stores at most %3")
                    .arg(QLatin1String(f.column))
                    .arg(n)
                    .arg(f.maxChars),
                QStringLiteral("field_too_long"));
    }
    // result_reason is MySQL TEXT: 65,535 bytes.
    if (cb.kind == CallbackKind::Other) {
        if (cb.skipReason.contains(QChar(0)))
            return notStorable(QLatin1String("result_reason"));
        if (const qsizetype bytes = cb.skipReason.toUtf8().size(); bytes > kStoredTextBytes)
            return makeError(
                ErrorCode::Invalid,
                QStringLiteral("%1 is %2 bytes long; the message table stores at most %3")
                    .arg(QLatin1String("result_reason"))
                    .arg(bytes)
                    .arg(kStoredTextBytes),
                QStringLiteral("field_too_long"));
    }
    return {};
}

MessageRow IngestService::messageRow(const NormalizedCallback &cb,
                                     const InboundRequest &request) const
{
    const qint64 now = m_clock.nowMs();
    MessageRow row;
    row.callbackId = cb.callbackId;
    row.channel = cb.channel;
    row.skipped = cb.kind == CallbackKind::Other;
    row.paymentResult = cb.kind == CallbackKind::PaymentSucceeded ||
                        cb.kind == CallbackKind::PaymentFailed || cb.kind == CallbackKind::Refunded;
    row.receivedAtMs = now;
    row.values = {cb.callbackId,
                  cb.channel,
                  callbackKindName(cb.kind),
                  Sql::nullIfEmpty(cb.channelEventType),
                  Sql::nullIfEmpty(cb.orderRef),
                  Sql::nullIfEmpty(cb.attemptRef),
                  Sql::nullIfEmpty(cb.channelTxnId),
                  Sql::nullIfEmpty(cb.refundId),
                  cb.hasAmount ? QVariant(cb.amountMinor) : QVariant(),
                  Sql::nullIfEmpty(cb.currency),
                  QString::fromUtf8(request.body),
                  headersJson(request),
                  row.skipped ? QStringLiteral("skipped") : QStringLiteral("pending"),
                  now,
                  row.skipped ? QVariant(cb.skipReason) : QVariant(),
                  now,
                  now,
                  row.skipped ? QVariant(now) : QVariant()};
    return row;
}

Result<IngestOutcome> IngestService::storeRow(const QSqlDatabase &db, const MessageRow &row) const
{
    if (!db.isOpen())
        return makeError(ErrorCode::Unavailable, QStringLiteral("database connection is closed"));
    if (!m_insert || m_insertConnection != db.connectionName()) {
        m_insert = std::make_unique<QSqlQuery>(db);
        m_insert->setForwardOnly(true);
        if (!m_insert->prepare(insertSql(m_c.dialect()))) {
            const Error e =
                Sql::classify(m_insert->lastError(), QStringLiteral("prepare message insert"));
            m_insert.reset();
            return e;
        }
        m_insertConnection = db.connectionName();
    }
    QSqlQuery &q = *m_insert;
    for (int i = 0; i < MessageRow::kColumns; ++i)
        q.bindValue(i, row.values[size_t(i)]);
    if (!q.exec()) {
        const Error e =
            Sql::classify(q.lastError(), QStringLiteral("INSERT INTO callback_messages"));
        m_insert.reset(); // a broken connection or statement: prepare afresh next time
        return e;
    }
    const int affected = q.numRowsAffected();
    q.finish();
    if (affected == 0)
        return IngestOutcome{IngestStatus::Duplicate, row.callbackId};
    return IngestOutcome{row.skipped ? IngestStatus::Skipped : IngestStatus::Stored,
                         row.callbackId};
}

Result<IngestOutcome> IngestService::ingest(const QString &channel,
                                            const InboundRequest &request) const
{
    auto cb = verifyAndParse(channel, request);
    if (!cb) {
        if (auto rec = recordRejection(channel, request, cb.error()); !rec)
            spdlog::error("could not record rejection: {}", rec.error().message.toStdString());
        return cb.error();
    }
    const MessageRow row = messageRow(*cb, request);
    auto stored = storeRow(m_c.db(), row);
    if (stored && spdlog::should_log(spdlog::level::debug))
        spdlog::debug("ingest {}: {}", cb->callbackId.toStdString(),
                      stored->status == IngestStatus::Duplicate ? "already received" : "stored");
    // The message's statement has committed (autocommit): the answer is decided before the
    // count is tried, and countAtDoor() cannot change it.
    if (stored && stored->status == IngestStatus::Duplicate && row.paymentResult)
        countAtDoor({{row.channel, doorBucketOf(row.receivedAtMs), 1}});
    return stored;
}

QList<Result<IngestOutcome>> IngestService::storeBatch(const QList<MessageRow> &rows) const
{
    QList<Result<IngestOutcome>> results;
    results.reserve(rows.size());
    const QSqlDatabase db = m_c.db();
    auto batch = inTransaction(db, Transaction::Mode::Immediate, [&]() -> Result<bool> {
        for (const MessageRow &row : rows) {
            auto one = storeRow(db, row);
            if (!one)
                return one.error();
            results << *one;
        }
        return true;
    });
    if (!batch) {
        results.clear();
        for (qsizetype i = 0; i < rows.size(); ++i)
            results << batch.error();
        return results; // nothing stored, nothing absorbed: the channel will send them again
    }
    // Committed: the answers stand whatever happens to the count.
    QList<IngestDoorCount> duplicates;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const MessageRow &row = rows[i];
        if (results[i]->status != IngestStatus::Duplicate || !row.paymentResult)
            continue;
        const qint64 bucket = doorBucketOf(row.receivedAtMs);
        auto it = std::find_if(duplicates.begin(), duplicates.end(), [&](const IngestDoorCount &d) {
            return d.bucketStartMs == bucket && d.channel == row.channel;
        });
        if (it == duplicates.end())
            duplicates << IngestDoorCount{row.channel, bucket, 1};
        else
            ++it->duplicates;
    }
    if (!duplicates.isEmpty())
        countAtDoor(duplicates);
    return results;
}

bool IngestService::countAtDoor(const QList<IngestDoorCount> &counts) const
{
    QList<IngestDoorCount> sorted = counts;
    std::sort(sorted.begin(), sorted.end(), [](const IngestDoorCount &a, const IngestDoorCount &b) {
        return std::tie(a.bucketStartMs, a.channel) < std::tie(b.bucketStartMs, b.channel);
    });
    const QSqlDatabase db = m_c.db();
    const qint64 now = m_clock.nowMs();
    // Its own transaction: a failed upsert rolls back only the counts (on PostgreSQL it would
    // otherwise poison whatever transaction it ran in).
    auto counted = inTransaction(db, Transaction::Mode::Immediate, [&]() -> Result<bool> {
        for (const IngestDoorCount &d : sorted)
            if (auto r = Sql::exec(db, doorCountSql(m_c.dialect()),
                                   {d.channel, d.bucketStartMs, d.duplicates, now});
                !r)
                return r.error();
        return true;
    });
    if (counted)
        return true;
    qint64 lost = 0;
    for (const IngestDoorCount &d : sorted)
        lost += d.duplicates;
    spdlog::error("ingest: {} duplicate(s) answered \"already received\" but not counted at the "
                  "door (callback_door_counts): {}",
                  lost, counted.error().message.toStdString());
    return false;
}

Result<void> IngestService::recordRejection(const QString &channel, const InboundRequest &request,
                                            const Error &error,
                                            std::optional<qint64> unreadBytes) const
{
    const QString reason = error.reason.isEmpty() ? QStringLiteral("rejected") : error.reason;
    const qint64 size = unreadBytes ? *unreadBytes : qint64(request.body.size());
    spdlog::warn("ingest {} rejected ({}): {} [{} bytes{} from {}]", channel.left(32).toStdString(),
                 reason.toStdString(), error.message.toStdString(), size,
                 unreadBytes ? ", not read" : "",
                 request.remote.isEmpty() ? "cli" : request.remote.toStdString());
    // A body never read has no hash: an empty body's would name a body nobody sent.
    const QString bodyHash =
        unreadBytes
            ? QString()
            : QString::fromLatin1(
                  QCryptographicHash::hash(request.body, QCryptographicHash::Sha256).toHex());
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<void> {
        auto ins = Sql::exec(
            m_c.db(),
            QStringLiteral("INSERT INTO ingest_rejections (channel, reason_code, detail,"
                           " body_sha256, body_size, remote, created_at)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)"),
            {channel.left(32), reason, error.message.left(500), Sql::nullIfEmpty(bodyHash), size,
             Sql::nullIfEmpty(request.remote), m_clock.nowMs()});
        if (!ins)
            return ins.error();
        AuditEvent e;
        e.actor = request.remote.isEmpty() ? QStringLiteral("ingest") : QStringLiteral("gateway");
        e.actorRole = QStringLiteral("channel");
        e.action = QStringLiteral("callback.rejected");
        e.entityKind = QStringLiteral("callback");
        e.entityId = unreadBytes ? QStringLiteral("unread") : bodyHash.left(16);
        e.after = {{QStringLiteral("channel"), channel.left(32)},
                   {QStringLiteral("reason"), reason},
                   {QStringLiteral("body_size"), size}};
        if (unreadBytes)
            e.after.insert(QStringLiteral("body_read"), false);
        else
            e.after.insert(QStringLiteral("body_sha256"), bodyHash);
        e.reason = error.message.left(500);
        auto a = AuditOutbox::record(m_c.db(), e, m_clock);
        if (!a)
            return a.error();
        return {};
    });
}

} // namespace OncePay
