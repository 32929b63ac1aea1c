#pragma once

// How the matcher's files make a finding's key and name a moment: shared by
// reconciliationmatcher.cpp and reconciliationmatcherlines.cpp. Internal to
// services/reconciliation.
// Thread contract: plain functions.

#include "reconciliationtypes.h"

#include <QDateTime>

namespace OncePay::Internal {

inline Finding finding(const QString &kind, const QString &channel, const QString &txn,
                       const QString &suffix = {})
{
    Finding f;
    f.kind = kind;
    f.channel = channel;
    f.channelTxnId = txn;
    f.key = kind + u':' + channel + u':' + txn + (suffix.isEmpty() ? QString() : u':' + suffix);
    return f;
}

// The key of a refund_not_settled finding: the ":refund" suffix as every refund finding has.
inline QString refundKey(const QString &channel, const QString &txn)
{
    return finding(DiscrepancyKind::RefundNotSettled, channel, txn, QStringLiteral("refund")).key;
}

// A moment as the detail text names it: a date, not an age that is wrong the next day.
inline QString minute(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace OncePay::Internal
