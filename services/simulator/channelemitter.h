#pragma once

// Produces what each channel really sends — its own JSON layout, headers and signature —
// for the simulator's payment stories. The secrets and PayPal's certificate are the
// simulation's own; `channelSettings()` hands the matching configuration to the adapters.
// Thread contract: one emitter per simulation thread.

#include "channels/inboundrequest.h"
#include "channels/paypal/paypalsigner.h"
#include "core/result.h"

#include <QMap>
#include <QString>

namespace OncePay {

struct EmittedPayment {
    QString channel;
    QString orderId;
    QString attemptId;
    QString channelTxnId; // the channel's payment id (pi_…, capture id, transaction id, tid)
    QString refundId;
    qint64 amountMinor = 0;
    QString currency;
};

enum class EmittedKind { Succeeded, Failed, Refunded, Unhandled };

class ChannelEmitter {
public:
    // `seed` makes every id and secret reproducible; `certDir` receives PayPal's certificate.
    ChannelEmitter(quint64 seed, const QString &certDir);

    Result<void> prepare();

    // Settings for AppConfig::channels so that the real adapters verify what we send.
    QMap<QString, QMap<QString, QString>> channelSettings() const;

    // The channel's payment id for a new attempt (deterministic).
    QString newTxnId(const QString &channel, quint64 n) const;

    // A signed request; `eventSerial` distinguishes events (a channel retry reuses it).
    InboundRequest request(EmittedKind kind, const EmittedPayment &p, quint64 eventSerial,
                           qint64 nowMs, bool forgeSignature = false) const;

    static QStringList channels();
    static QStringList currencies(const QString &channel);

private:
    quint64 m_seed;
    QString m_certDir;
    QString m_certFile;
    PayPalSigner m_paypal;
    QByteArray m_webhookId;
    QMap<QString, QByteArray> m_secrets;
};

} // namespace OncePay
