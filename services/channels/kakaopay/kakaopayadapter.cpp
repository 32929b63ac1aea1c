#include "kakaopayadapter.h"

#include "channels/channeljson.h"
#include "channels/signature.h"

#include <QDateTime>
#include <QTimeZone>

namespace OncePay {

namespace {

Error invalid(const QString &message, const char *reason)
{
    return makeError(ErrorCode::Invalid, QStringLiteral("kakaopay: ") + message,
                     QString::fromLatin1(reason));
}

// KakaoPay writes "2023-07-15T21:18:22" in Korea Standard Time (UTC+9, no DST).
qint64 kstToMs(const QJsonValue &value)
{
    const QString text = value.toString();
    if (text.isEmpty())
        return 0;
    // The usual form, without a zone, is read as date and time apart and placed at UTC+9
    // directly: going through QDateTime's local time would consult the machine's time-zone
    // database on every callback.
    const QStringView view(text);
    if (text.size() >= 19 && text[10] == u'T') {
        const QStringView timePart = view.sliced(11);
        if (!timePart.contains(u'Z') && !timePart.contains(u'+') && !timePart.contains(u'-')) {
            const QDate date = QDate::fromString(view.first(10), Qt::ISODate);
            const QTime time = QTime::fromString(timePart, Qt::ISODateWithMs);
            if (!date.isValid() || !time.isValid())
                return 0;
            return QDateTime(date, time, Qt::UTC).toMSecsSinceEpoch() - qint64(9) * 3600 * 1000;
        }
    }
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        return 0;
    if (t.timeSpec() == Qt::LocalTime)
        t = QDateTime(t.date(), t.time(), QTimeZone(9 * 3600));
    return t.toMSecsSinceEpoch();
}

struct Classified {
    CallbackKind kind = CallbackKind::Other;
    QString type;
};

Classified classify(const QJsonObject &root)
{
    const QString status = root.value(QLatin1String("status")).toString();
    if (status.isEmpty()) {
        if (root.contains(QLatin1String("approved_at")) && root.contains(QLatin1String("aid")))
            return {CallbackKind::PaymentSucceeded, QStringLiteral("APPROVE")};
        return {CallbackKind::Other, QString()};
    }
    static const QStringList pending = {"READY",         "SEND_TMS",    "OPEN_PAYMENT",
                                        "SELECT_METHOD", "ARS_WAITING", "AUTH_PASSWORD",
                                        "ISSUED_SID"};
    if (status == QLatin1String("SUCCESS_PAYMENT"))
        return {CallbackKind::PaymentSucceeded, status};
    if (status == QLatin1String("CANCEL_PAYMENT") || status == QLatin1String("PART_CANCEL_PAYMENT"))
        return {CallbackKind::Refunded, status};
    if (status == QLatin1String("FAIL_PAYMENT") || status == QLatin1String("FAIL_AUTH_PASSWORD") ||
        status == QLatin1String("QUIT_PAYMENT"))
        return {CallbackKind::PaymentFailed, status};
    if (pending.contains(status))
        return {CallbackKind::PaymentPending, status};
    return {CallbackKind::Other, status};
}

} // namespace

std::optional<QByteArray> KakaoPayAdapter::keyFromSecret(const QString &secret)
{
    // As the Standard Webhooks reference libraries do: the prefix is optional, the rest is
    // always base64.
    const QString encoded = secret.startsWith(QLatin1String("whsec_")) ? secret.mid(6) : secret;
    auto key = Signature::fromBase64(encoded.toLatin1());
    if (!key || key->isEmpty())
        return std::nullopt;
    return key;
}

KakaoPayAdapter::KakaoPayAdapter(ChannelSettings settings)
    : m_settings(std::move(settings))
{
    for (const QString &secret : std::as_const(m_settings.secrets)) {
        if (auto key = keyFromSecret(secret))
            m_keys << *key;
        else
            ++m_badSecrets;
    }
}

QString KakaoPayAdapter::signatureScheme()
{
    return QStringLiteral("%1: v1,<base64 HMAC-SHA256 of \"%2.%3.body\" under the relay's "
                          "secret> (Standard Webhooks); timestamp within the tolerance window")
        .arg(QLatin1String(kSignatureHeader), QLatin1String(kIdHeader),
             QLatin1String(kTimestampHeader));
}

Result<void> KakaoPayAdapter::verify(const InboundRequest &request, qint64 nowMs) const
{
    if (m_keys.isEmpty())
        return makeError(ErrorCode::Unavailable,
                         m_badSecrets
                             ? QStringLiteral("kakaopay: webhook secret is not valid whsec_ base64")
                             : QStringLiteral("kakaopay: no webhook secret configured"),
                         QStringLiteral("not_configured"));
    const QList<QByteArray> ids = request.headerValues(kIdHeader);
    const QList<QByteArray> times = request.headerValues(kTimestampHeader);
    const QList<QByteArray> signatures = request.headerValues(kSignatureHeader);
    if (ids.isEmpty() || times.isEmpty() || signatures.isEmpty())
        return invalid(QStringLiteral("webhook-id, webhook-timestamp or webhook-signature missing"),
                       "missing_signature");
    if (ids.size() > 1 || times.size() > 1 || signatures.size() > 1)
        return invalid(QStringLiteral("a webhook-* header appears more than once"),
                       "bad_signature");
    const QByteArray id = ids.first();
    if (id.isEmpty() || id.size() > 256 || id.contains('.'))
        return invalid(QStringLiteral("webhook-id is empty or malformed"), "bad_signature");
    const auto seconds = Signature::parseUnixSeconds(times.first());
    if (!seconds)
        return invalid(QStringLiteral("webhook-timestamp is not unix seconds"), "bad_signature");

    QList<QByteArray> candidates;
    for (const QByteArray &entry : signatures.first().split(' ')) {
        if (entry.startsWith("v1,") && entry.size() > 3)
            candidates << entry.mid(3);
    }
    if (candidates.isEmpty())
        return invalid(QStringLiteral("no v1 signature in webhook-signature"), "missing_signature");

    const QByteArray payload = id + '.' + times.first() + '.' + request.body;
    bool matched = false;
    for (const QByteArray &key : m_keys)
        matched = Signature::anyEquals(candidates,
                                       Signature::toBase64(Signature::hmacSha256(key, payload))) ||
                  matched;
    if (!matched)
        return invalid(QStringLiteral("no v1 signature matches"), "bad_signature");
    if (auto window =
            Signature::checkTimestampWindow(*seconds * 1000, nowMs, m_settings.toleranceMs);
        !window)
        return Signature::prefixed(name(), window.error());
    return {};
}

Result<NormalizedCallback> KakaoPayAdapter::parse(const InboundRequest &request) const
{
    using namespace ChannelJson;
    const QString webhookId = QString::fromUtf8(request.header(kIdHeader));
    if (webhookId.isEmpty())
        return malformed(QStringLiteral("kakaopay: no webhook-id"));
    auto doc = ChannelJson::parse(request.body);
    if (!doc)
        return Signature::prefixed(name(), doc.error());
    const QJsonObject &root = doc->root;
    const QString tid = root.value(QLatin1String("tid")).toString();
    if (tid.isEmpty())
        return malformed(QStringLiteral("kakaopay: result has no tid"));

    const Classified c = classify(root);
    NormalizedCallback cb;
    cb.channel = name();
    cb.channelEventId = webhookId;
    cb.callbackId = QStringLiteral("kakaopay:") + webhookId;
    cb.kind = c.kind;
    cb.channelEventType = c.type;
    cb.channelTxnId = tid;
    cb.orderRef = root.value(QLatin1String("partner_order_id")).toString();
    cb.attemptRef = root.value(QLatin1String("attempt_id")).toString();

    QString amountPath = QStringLiteral("amount.total");
    bool amountRequired = true;
    bool cumulative = false;
    switch (c.kind) {
    case CallbackKind::PaymentSucceeded:
        cb.occurredAtMs = kstToMs(root.value(QLatin1String("approved_at")));
        break;
    case CallbackKind::Refunded:
        cb.occurredAtMs = kstToMs(root.value(QLatin1String("canceled_at")));
        // canceled_amount is the running total cancelled on the tid so far: a cancel answer
        // (full or PART_CANCEL_PAYMENT) carries it beside its own aid and
        // approved_cancel_amount, an order status carries only it. Both are read as the
        // running total (a cumulative refund of the tid), so the same cancel reported by an
        // order status and by its cancel answer, in either order, is booked once. Only a cancel
        // answer without the total is booked as its own refund (its aid and amount).
        cb.refundId = root.value(QLatin1String("aid")).toString();
        cumulative = root.contains(QLatin1String("canceled_amount")) || cb.refundId.isEmpty() ||
                     !root.contains(QLatin1String("approved_cancel_amount"));
        amountPath = cumulative ? QStringLiteral("canceled_amount.total")
                                : QStringLiteral("approved_cancel_amount.total");
        break;
    case CallbackKind::PaymentFailed:
    case CallbackKind::PaymentPending: amountRequired = false; break;
    case CallbackKind::Other:
        cb.skipReason =
            c.type.isEmpty()
                ? QStringLiteral("unhandled kakaopay result without status or approved_at")
                : QStringLiteral("unhandled kakaopay status ") + c.type.left(60);
        return cb;
    }
    if (!amountRequired && doc->at(amountPath).isUndefined())
        return cb;
    auto amount = doc->nonNegativeInteger(amountPath, QStringLiteral("kakaopay ") + amountPath);
    if (!amount)
        return amount.error();
    cb.currency = QStringLiteral("KRW");
    cb.amountMinor = *amount;
    cb.hasAmount = true;
    if (cumulative)
        cb.refundId = cumulativeRefundId(tid, *amount);
    return cb;
}

} // namespace OncePay
