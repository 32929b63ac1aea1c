#pragma once

// The operational setting the fix rule (fixrules.h) judges leases with, read, validated and
// defaulted in one place for the service, the stuck page and the order page.
//
// fixes.lease_skew_ms: a worker on another host wrote a message's lease end with its own
// clock; the console and the approving service read "now" with theirs. A lease counts as
// expired for a fix only once it is past its end by more than this allowance, so a clock
// running ahead by up to that much cannot propose or apply a requeue (or a resolve) of a
// message a live worker still holds. 0 = trust the clocks to agree.
// Thread contract: the connection's thread.

#include "core/result.h"
#include "db/connection.h"

#include <QString>

namespace OncePay::FixSettings {

inline const QString LeaseSkewKey = QStringLiteral("fixes.lease_skew_ms");
inline constexpr qint64 kLeaseSkewDefaultMs = 30000;
inline constexpr qint64 kLeaseSkewMaxMs = 3600000;

// The allowance as stored; its default when there is no row. Refuses (Invalid, reason
// "bad_setting") a value that is not a whole number from 0 to kLeaseSkewMaxMs: a fix is not
// judged with a number nobody meant.
Result<qint64> leaseSkewMs(const Connection &connection);

} // namespace OncePay::FixSettings
