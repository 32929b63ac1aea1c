#include "normalizedcallback.h"

namespace OncePay {

QString callbackKindName(CallbackKind kind)
{
    switch (kind) {
    case CallbackKind::PaymentSucceeded: return QStringLiteral("payment_succeeded");
    case CallbackKind::PaymentFailed: return QStringLiteral("payment_failed");
    case CallbackKind::PaymentPending: return QStringLiteral("payment_pending");
    case CallbackKind::Refunded: return QStringLiteral("refunded");
    case CallbackKind::Other: return QStringLiteral("other");
    }
    return QStringLiteral("other");
}

bool parseCallbackKind(const QString &name, CallbackKind *out)
{
    for (CallbackKind k :
         {CallbackKind::PaymentSucceeded, CallbackKind::PaymentFailed, CallbackKind::PaymentPending,
          CallbackKind::Refunded, CallbackKind::Other}) {
        if (callbackKindName(k) == name) {
            *out = k;
            return true;
        }
    }
    return false;
}

QString cumulativeRefundId(const QString &basis, qint64 totalMinor)
{
    return QStringLiteral("cumulative:%1:%2").arg(basis).arg(totalMinor);
}

bool isCumulativeRefundId(const QString &refundId)
{
    return refundId.startsWith(QLatin1String("cumulative:"));
}

} // namespace OncePay
