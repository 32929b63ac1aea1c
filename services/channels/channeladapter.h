#pragma once

// What every payment channel implements (seed 002: "每个支付渠道只需实现回调解析接口"): verify
// the signature the way that channel documents it, and parse its JSON into a
// NormalizedCallback. Adding a channel is one subclass plus one line in ChannelRegistry.
//
// Errors carry a machine reason in Error::reason:
//   missing_signature, bad_signature, stale_timestamp, malformed, bad_amount,
//   unknown_currency, not_configured
// Thread contract: adapters are immutable after construction and safe to share between
// threads (the gateway verifies on several threads at once).

#include "core/result.h"
#include "normalizedcallback.h"

#include <QMap>
#include <QString>

namespace OncePay {

struct ChannelSettings {
    QStringList secrets;             // signing secrets; several during rotation
    qint64 toleranceMs = 300 * 1000; // timestamp tolerance, both directions
    QMap<QString, QString> extra;    // channel-specific (PayPal webhook_id, cert_file, ...)
};

class ChannelAdapter {
public:
    virtual ~ChannelAdapter() = default;

    virtual QString name() const = 0;

    // Checks the signature and the timestamp window against `nowMs`. Never logs secrets.
    virtual Result<void> verify(const InboundRequest &request, qint64 nowMs) const = 0;

    // Parses an already verified body. Authentic events OncePay does not act on come back
    // as CallbackKind::Other with skipReason set, not as an error.
    virtual Result<NormalizedCallback> parse(const InboundRequest &request) const = 0;
};

} // namespace OncePay
