#include "channelemitter.h"

#include "channels/fedapay/fedapayevents.h"
#include "channels/fedapay/fedapaysigner.h"
#include "channels/kakaopay/kakaopayevents.h"
#include "channels/kakaopay/kakaopaysigner.h"
#include "channels/paypal/paypalevents.h"
#include "channels/stripe/stripeevents.h"
#include "channels/stripe/stripesigner.h"
#include "core/money.h"

#include <QDir>

namespace OncePay {

namespace {

QString hex(quint64 v, int width)
{
    return QStringLiteral("%1").arg(v, width, 16, QLatin1Char('0')).toUpper();
}

} // namespace

ChannelEmitter::ChannelEmitter(quint64 seed, const QString &certDir)
    : m_seed(seed)
    , m_certDir(certDir)
{
    m_webhookId = QStringLiteral("WH-SIM%1").arg(hex(seed, 12)).toUtf8();
    for (const QString &c : channels())
        m_secrets[c] = QStringLiteral("whsec_sim_%1_%2").arg(c).arg(seed).toUtf8();
    // Standard Webhooks secrets are base64 after the whsec_ prefix.
    m_secrets[QStringLiteral("kakaopay")] =
        "whsec_" + QByteArray("oncepay-simulation-" + QByteArray::number(seed)).toBase64();
}

QStringList ChannelEmitter::channels()
{
    return {QStringLiteral("stripe"), QStringLiteral("paypal"), QStringLiteral("kakaopay"),
            QStringLiteral("fedapay")};
}

QStringList ChannelEmitter::currencies(const QString &channel)
{
    if (channel == u"stripe")
        return {QStringLiteral("USD"), QStringLiteral("EUR"), QStringLiteral("CNY"),
                QStringLiteral("JPY")};
    if (channel == u"paypal")
        return {QStringLiteral("USD"), QStringLiteral("EUR"), QStringLiteral("JPY")};
    if (channel == u"kakaopay")
        return {QStringLiteral("KRW")};
    return {QStringLiteral("XOF")};
}

Result<void> ChannelEmitter::prepare()
{
    if (!m_paypal.isValid())
        return makeError(ErrorCode::Internal,
                         QStringLiteral("could not create the simulated PayPal key"));
    QDir().mkpath(m_certDir);
    m_certFile = QDir(m_certDir).filePath(QStringLiteral("paypal-sim-cert.pem"));
    return m_paypal.writeCertificate(m_certFile);
}

QMap<QString, QMap<QString, QString>> ChannelEmitter::channelSettings() const
{
    QMap<QString, QMap<QString, QString>> s;
    for (const QString &c : channels())
        s[c][QStringLiteral("webhook_secret")] = QString::fromUtf8(m_secrets.value(c));
    s[QStringLiteral("paypal")][QStringLiteral("webhook_id")] = QString::fromUtf8(m_webhookId);
    s[QStringLiteral("paypal")][QStringLiteral("cert_file")] = m_certFile;
    return s;
}

QString ChannelEmitter::newTxnId(const QString &channel, quint64 n) const
{
    const quint64 mix = (m_seed * 0x9E3779B97F4A7C15ull) ^ (n * 0xBF58476D1CE4E5B9ull);
    if (channel == u"stripe")
        return QStringLiteral("pi_3Sim") + hex(mix, 16);
    if (channel == u"paypal")
        return hex(mix, 16).left(17);
    if (channel == u"kakaopay")
        return QStringLiteral("T") + hex(mix, 16).toLower() + QStringLiteral("sim");
    return QString::number(100000 + (mix % 900000000ull)); // FedaPay's numeric transaction ids
}

InboundRequest ChannelEmitter::request(EmittedKind kind, const EmittedPayment &p, quint64 serial,
                                       qint64 nowMs, bool forge) const
{
    const QByteArray secret =
        forge ? QByteArrayLiteral("whsec_forged") : m_secrets.value(p.channel);
    const QString eventHex = hex((m_seed << 20) ^ serial, 16);
    const int exp = Currency::exponent(p.currency).value_or(2);

    if (p.channel == u"stripe") {
        StripeEvents::Params s;
        s.eventId = QStringLiteral("evt_sim") + eventHex;
        s.paymentIntentId = p.channelTxnId;
        s.chargeId = QStringLiteral("ch_") + p.channelTxnId.mid(3);
        s.refundId = QStringLiteral("re_") + p.channelTxnId.mid(3);
        s.orderId = p.orderId;
        s.attemptId = p.attemptId;
        s.amountMinor = p.amountMinor;
        s.currency = p.currency.toLower();
        s.createdSeconds = nowMs / 1000;
        const QByteArray body =
            kind == EmittedKind::Succeeded ? StripeEvents::paymentIntentSucceeded(s)
            : kind == EmittedKind::Failed  ? StripeEvents::paymentIntentFailed(s)
            : kind == EmittedKind::Refunded
                ? StripeEvents::chargeRefunded(s)
                : StripeEvents::eventOfType(QStringLiteral("payment_intent.created"), s);
        return StripeSigner::sign(body, secret, nowMs / 1000);
    }
    if (p.channel == u"paypal") {
        PayPalEvents::Params s;
        s.eventId = QStringLiteral("WH-SIM") + eventHex;
        s.captureId = p.channelTxnId;
        s.refundId = QStringLiteral("R") + p.channelTxnId.mid(1);
        s.paypalOrderId = QStringLiteral("O") + p.channelTxnId.mid(1);
        s.orderId = p.orderId;
        s.attemptId = p.attemptId;
        s.value = Currency::formatAmount(p.amountMinor, exp);
        s.currency = p.currency;
        s.fee = Currency::formatAmount(p.amountMinor * 349 / 10000, exp);
        s.createTimeMs = nowMs;
        const QByteArray body =
            kind == EmittedKind::Succeeded ? PayPalEvents::captureCompleted(s)
            : kind == EmittedKind::Failed
                ? PayPalEvents::captureEvent(QStringLiteral("PAYMENT.CAPTURE.DENIED"), s)
            : kind == EmittedKind::Refunded
                ? PayPalEvents::refundEvent(QStringLiteral("PAYMENT.CAPTURE.REFUNDED"), s)
                : PayPalEvents::captureEvent(QStringLiteral("CHECKOUT.ORDER.APPROVED"), s);
        InboundRequest r =
            m_paypal.sign(body, m_webhookId, nowMs, (QStringLiteral("sim-") + eventHex).toUtf8());
        if (forge) {
            for (auto &h : r.headers)
                if (h.first == "paypal-transmission-sig")
                    h.second = QByteArrayLiteral("Zm9yZ2VkIHNpZ25hdHVyZQ==");
        }
        return r;
    }
    if (p.channel == u"kakaopay") {
        KakaoPayEvents::Params s;
        s.tid = p.channelTxnId;
        s.aid = QStringLiteral("A") + eventHex.toLower();
        s.orderId = p.orderId;
        s.userId = QStringLiteral("cust-") + p.orderId.right(6);
        s.attemptId = p.attemptId;
        s.amountTotal = p.amountMinor;
        s.approvedAtMs = nowMs;
        const QByteArray body =
            kind == EmittedKind::Succeeded ? KakaoPayEvents::approveResult(s)
            : kind == EmittedKind::Failed
                ? KakaoPayEvents::statusResult(s, QStringLiteral("FAIL_PAYMENT"))
            : kind == EmittedKind::Refunded
                ? KakaoPayEvents::cancelResult(s, p.amountMinor, s.aid, nowMs)
                : KakaoPayEvents::statusResult(s, QStringLiteral("READY"));
        return KakaoPaySigner::sign(body, secret, (QStringLiteral("msg_sim") + eventHex).toUtf8(),
                                    nowMs / 1000);
    }
    FedaPayEvents::Params s;
    s.transactionId = p.channelTxnId.toLongLong();
    s.reference = QStringLiteral("trx_sim_") + p.channelTxnId;
    s.orderId = p.orderId;
    s.attemptId = p.attemptId;
    s.amount = p.amountMinor;
    s.fees = p.amountMinor * 2 / 100;
    s.timestampMs = nowMs;
    const QByteArray body = kind == EmittedKind::Succeeded ? FedaPayEvents::approved(s)
                            : kind == EmittedKind::Failed  ? FedaPayEvents::declined(s)
                            : kind == EmittedKind::Refunded
                                ? FedaPayEvents::refunded(s)
                                : FedaPayEvents::transactionEvent(QStringLiteral("pending"), s);
    return FedaPaySigner::sign(body, secret, nowMs / 1000);
}

} // namespace OncePay
