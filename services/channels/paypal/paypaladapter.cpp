#include "paypaladapter.h"

#include "channels/channeljson.h"
#include "channels/signature.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QUrl>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace OncePay {

namespace {

Error invalid(const QString &message, const char *reason)
{
    return makeError(ErrorCode::Invalid, QStringLiteral("paypal: ") + message,
                     QString::fromLatin1(reason));
}

// The leaf certificate of a PEM file (PayPal's cert URL serves the chain, leaf first).
std::shared_ptr<evp_pkey_st> publicKeyFromPem(const QByteArray &pem)
{
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())),
                                                  &BIO_free);
    if (!bio)
        return {};
    std::unique_ptr<X509, decltype(&X509_free)> cert(
        PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), &X509_free);
    if (!cert)
        return {};
    EVP_PKEY *key = X509_get_pubkey(cert.get());
    if (!key)
        return {};
    return std::shared_ptr<evp_pkey_st>(key, &EVP_PKEY_free);
}

bool rsaSha256Verify(evp_pkey_st *key, const QByteArray &message, const QByteArray &signature)
{
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1)
        return false;
    return EVP_DigestVerify(ctx.get(),
                            reinterpret_cast<const unsigned char *>(signature.constData()),
                            size_t(signature.size()),
                            reinterpret_cast<const unsigned char *>(message.constData()),
                            size_t(message.size())) == 1;
}

// The capture a refund belongs to: its "up" link ends in /v2/payments/captures/{id}.
QString captureIdFromLinks(const QJsonArray &links)
{
    for (const QJsonValue &link : links) {
        const QJsonObject o = link.toObject();
        if (o.value(QLatin1String("rel")).toString() != QLatin1String("up"))
            continue;
        const QString href = o.value(QLatin1String("href")).toString();
        const qsizetype at = href.lastIndexOf(QLatin1String("/captures/"));
        if (at >= 0)
            return href.mid(at + 10).section(u'/', 0, 0).section(u'?', 0, 0);
    }
    return {};
}

// PayPal events that are no payment result of their own: an order's approval or completion,
// an authorization (OncePay captures at once). Stored as skipped, with that reason.
bool isNotAPaymentResult(const QString &type)
{
    static const QStringList kTypes = {
        QStringLiteral("CHECKOUT.ORDER.APPROVED"), QStringLiteral("CHECKOUT.ORDER.COMPLETED"),
        QStringLiteral("CHECKOUT.ORDER.SAVED"), QStringLiteral("PAYMENT.AUTHORIZATION.CREATED"),
        QStringLiteral("PAYMENT.AUTHORIZATION.VOIDED")};
    return kTypes.contains(type);
}

} // namespace

PayPalAdapter::PayPalAdapter(ChannelSettings settings)
    : m_settings(std::move(settings))
{
    m_webhookId = m_settings.extra.value(QStringLiteral("webhook_id")).trimmed().toUtf8();
    const QStringList files =
        m_settings.extra.value(QStringLiteral("cert_file")).split(u',', Qt::SkipEmptyParts);
    for (const QString &raw : files) {
        const QString path = raw.trimmed();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly) || file.size() > 1024 * 1024) {
            m_configError = QStringLiteral("cannot read certificate file %1").arg(path);
            continue;
        }
        if (auto key = publicKeyFromPem(file.readAll()))
            m_keys.push_back(std::move(key));
        else
            m_configError = QStringLiteral("no PEM certificate in %1").arg(path);
    }
    if (m_webhookId.isEmpty())
        m_configError = QStringLiteral("no webhook_id configured");
    else if (m_keys.empty() && m_configError.isEmpty())
        m_configError = QStringLiteral("no cert_file configured");
    else if (!m_keys.empty())
        m_configError.clear(); // one readable certificate is enough to verify
}

PayPalAdapter::~PayPalAdapter() = default;

bool PayPalAdapter::isPayPalCertUrl(const QByteArray &text)
{
    const QUrl url(QString::fromUtf8(text), QUrl::StrictMode);
    if (!url.isValid() || url.scheme() != QLatin1String("https") || !url.userInfo().isEmpty() ||
        (url.port() != -1 && url.port() != 443))
        return false;
    const QString host = url.host().toLower();
    return host == QLatin1String("paypal.com") || host.endsWith(QLatin1String(".paypal.com"));
}

QString PayPalAdapter::signatureScheme()
{
    return QStringLiteral("%1: base64 RSA-SHA256 (%2 SHA256withRSA) of \"%3|%4|webhook id|CRC32 "
                          "of the body\", verified with the configured PayPal certificate "
                          "(cert_file, never fetched; %5 must be on paypal.com); transmission time "
                          "within the tolerance window")
        .arg(QLatin1String(kTransmissionSig), QLatin1String(kAuthAlgo),
             QLatin1String(kTransmissionId), QLatin1String(kTransmissionTime),
             QLatin1String(kCertUrl));
}

Result<void> PayPalAdapter::verify(const InboundRequest &request, qint64 nowMs) const
{
    if (m_keys.empty() || m_webhookId.isEmpty())
        return makeError(ErrorCode::Unavailable, QStringLiteral("paypal: ") + m_configError,
                         QStringLiteral("not_configured"));
    for (const char *h :
         {kTransmissionId, kTransmissionTime, kTransmissionSig, kCertUrl, kAuthAlgo}) {
        const QList<QByteArray> values = request.headerValues(h);
        if (values.isEmpty() || values.first().isEmpty())
            return invalid(QStringLiteral("header %1 missing or empty").arg(QString::fromLatin1(h)),
                           "missing_signature");
        if (values.size() > 1)
            return invalid(
                QStringLiteral("header %1 appears more than once").arg(QString::fromLatin1(h)),
                "bad_signature");
    }
    const QByteArray transmissionId = request.header(kTransmissionId);
    const QByteArray transmissionTime = request.header(kTransmissionTime);
    if (request.header(kAuthAlgo) != "SHA256withRSA")
        return invalid(QStringLiteral("unsupported PAYPAL-AUTH-ALGO"), "bad_signature");
    if (!isPayPalCertUrl(request.header(kCertUrl)))
        return invalid(QStringLiteral("PAYPAL-CERT-URL is not an https URL on paypal.com"),
                       "bad_signature");
    // '|' separates the signed fields; one inside a field could shift them.
    if (transmissionId.contains('|') || transmissionTime.contains('|'))
        return invalid(QStringLiteral("transmission id or time contains '|'"), "bad_signature");
    const QDateTime sent =
        QDateTime::fromString(QString::fromLatin1(transmissionTime), Qt::ISODateWithMs);
    if (!sent.isValid() || sent.timeSpec() == Qt::LocalTime)
        return invalid(
            QStringLiteral("PAYPAL-TRANSMISSION-TIME is not an ISO 8601 time with a zone"),
            "bad_signature");
    const auto signature = Signature::fromBase64(request.header(kTransmissionSig));
    if (!signature || signature->isEmpty())
        return invalid(QStringLiteral("PAYPAL-TRANSMISSION-SIG is not base64"), "bad_signature");

    const QByteArray message = transmissionId + '|' + transmissionTime + '|' + m_webhookId + '|' +
                               QByteArray::number(Signature::crc32(request.body));
    bool matched = false;
    for (const auto &key : m_keys)
        matched = rsaSha256Verify(key.get(), message, *signature) || matched;
    if (!matched)
        return invalid(QStringLiteral("signature does not verify with the configured certificate"),
                       "bad_signature");
    if (auto window = Signature::checkTimestampWindow(sent.toMSecsSinceEpoch(), nowMs,
                                                      m_settings.toleranceMs);
        !window)
        return Signature::prefixed(name(), window.error());
    return {};
}

Result<NormalizedCallback> PayPalAdapter::parse(const InboundRequest &request) const
{
    using namespace ChannelJson;
    auto doc = ChannelJson::parse(request.body);
    if (!doc)
        return Signature::prefixed(name(), doc.error());
    const QJsonObject &root = doc->root;
    const QString eventId = root.value(QLatin1String("id")).toString();
    const QString type = root.value(QLatin1String("event_type")).toString();
    const QJsonValue resourceValue = root.value(QLatin1String("resource"));
    if (eventId.isEmpty() || type.isEmpty() || !resourceValue.isObject())
        return malformed(QStringLiteral("paypal: event lacks id, event_type or resource"));
    const QJsonObject resource = resourceValue.toObject();

    NormalizedCallback cb;
    cb.channel = name();
    cb.channelEventId = eventId;
    cb.callbackId = QStringLiteral("paypal:") + eventId;
    cb.channelEventType = type;
    cb.orderRef = resource.value(QLatin1String("custom_id")).toString();
    cb.attemptRef = resource.value(QLatin1String("invoice_id")).toString();
    const QDateTime created = QDateTime::fromString(
        root.value(QLatin1String("create_time")).toString(), Qt::ISODateWithMs);
    cb.occurredAtMs = created.isValid() ? created.toMSecsSinceEpoch() : 0;

    if (type == QLatin1String("CHECKOUT.PAYMENT-APPROVAL.REVERSED"))
        return approvalReversed(std::move(cb), resource);

    const QString resourceId = resource.value(QLatin1String("id")).toString();
    if (type == QLatin1String("PAYMENT.CAPTURE.COMPLETED"))
        cb.kind = CallbackKind::PaymentSucceeded;
    else if (type == QLatin1String("PAYMENT.CAPTURE.DENIED") ||
             type == QLatin1String("PAYMENT.CAPTURE.DECLINED"))
        cb.kind = CallbackKind::PaymentFailed;
    else if (type == QLatin1String("PAYMENT.CAPTURE.PENDING"))
        cb.kind = CallbackKind::PaymentPending;
    else if (type == QLatin1String("PAYMENT.CAPTURE.REFUNDED") ||
             type == QLatin1String("PAYMENT.CAPTURE.REVERSED"))
        cb.kind = CallbackKind::Refunded;
    else {
        cb.kind = CallbackKind::Other;
        cb.skipReason =
            isNotAPaymentResult(type)
                ? QStringLiteral("%1 is not a payment result; the capture's own event decides")
                      .arg(type)
                : QStringLiteral("unhandled event type ") + type.left(100);
        cb.channelTxnId = resourceId;
        return cb;
    }

    if (resourceId.isEmpty())
        return malformed(QStringLiteral("paypal: resource has no id"));
    if (cb.kind == CallbackKind::Refunded) {
        cb.refundId = resourceId;
        cb.channelTxnId = captureIdFromLinks(resource.value(QLatin1String("links")).toArray());
        if (cb.channelTxnId.isEmpty())
            return malformed(QStringLiteral("paypal: refund without a link up to its capture"));
    } else {
        cb.channelTxnId = resourceId;
    }

    const QJsonObject amount = resource.value(QLatin1String("amount")).toObject();
    auto currency = currencyCode(amount.value(QLatin1String("currency_code")));
    if (!currency)
        return Signature::prefixed(name(), currency.error());
    auto minor = decimalString(amount.value(QLatin1String("value")), *currency,
                               QStringLiteral("paypal amount.value"));
    if (!minor)
        return minor.error();
    cb.currency = *currency;
    cb.amountMinor = *minor;
    cb.hasAmount = true;
    return cb;
}

Result<NormalizedCallback> PayPalAdapter::approvalReversed(NormalizedCallback cb,
                                                           const QJsonObject &resource)
{
    // The buyer approved, the capture never happened in time: PayPal cancels the order and
    // gives the buyer the money back. No capture, no amount; our order and attempt are on
    // the purchase unit, the PayPal order id stands for the transaction.
    cb.kind = CallbackKind::PaymentFailed;
    cb.orderRef.clear();
    cb.attemptRef.clear();
    cb.channelTxnId = resource.value(QLatin1String("order_id")).toString();
    if (cb.channelTxnId.isEmpty())
        return ChannelJson::malformed(QStringLiteral("paypal: approval reversal without order_id"));
    for (const QJsonValue &unit : resource.value(QLatin1String("purchase_units")).toArray()) {
        const QJsonObject u = unit.toObject();
        cb.orderRef = u.value(QLatin1String("custom_id")).toString();
        cb.attemptRef = u.value(QLatin1String("invoice_id")).toString();
        if (!cb.orderRef.isEmpty())
            break;
    }
    return cb;
}

} // namespace OncePay
