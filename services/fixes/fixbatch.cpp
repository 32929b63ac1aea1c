// FixService::proposeEach (fixservice.h): a selection's proposals, one at a time.

#include "fixservice.h"

#include <spdlog/spdlog.h>

namespace OncePay {

ProposeOutcome FixService::proposeEach(const QList<FixProposal> &proposals, const Actor &actor,
                                       const BatchProgress &progress) const
{
    ProposeOutcome out;
    const int total = int(proposals.size());
    for (int i = 0; i < total; ++i) {
        const FixProposal &p = proposals.at(i);
        auto r = propose(p, actor);
        if (r) {
            out.proposed << r->id;
        } else if (r.error().code == ErrorCode::Unavailable) {
            // Each proposal so far was committed on its own: they stand; this one and the rest
            // were not written.
            out.stoppedBy = r.error();
            out.notSent = total - i;
            spdlog::warn("proposing stopped after {} of {} ({} proposed): {}", i, total,
                         out.proposed.size(), r.error().message.toStdString());
            return out;
        } else {
            out.refused << p.targetId + QStringLiteral(": ") + r.error().message;
        }
        if (progress && !progress(i + 1, total) && i + 1 < total) {
            out.cancelled = true;
            out.notSent = total - i - 1;
            spdlog::info("proposing stopped by {} after {} of {} ({} proposed)",
                         actor.id.toStdString(), i + 1, total, out.proposed.size());
            return out;
        }
    }
    return out;
}

} // namespace OncePay
