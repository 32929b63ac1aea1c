#pragma once

// Two requeue proposals waiting for a finance reviewer, with long targets and a long reason:
// what the approvals queue's column fitting is tested against (tst_console_layout,
// tst_column_fit). Returns an empty string when both were proposed, else why not.

#include "enginefixture.h"
#include "fixes/fixservice.h"

namespace OncePay::Test {

[[nodiscard]] inline QString proposeLongRequeues(EngineFixture &f)
{
    FixService fixes(*f.orders, f.clock);
    const Actor agent{QStringLiteral("agent"), QStringLiteral("agent")};
    for (const char *event :
         {"evt_sim000000007EA0029D_with_a_long_tail", "evt_sim000000007EA003E7_with_a_long_tail"}) {
        f.makeDeadLetter(QStringLiteral("ghost-ord-2026-000610-") + event, event);
        FixProposal p;
        p.kind = QStringLiteral("requeue_message");
        p.targetId = QStringLiteral("stripe:") + event;
        p.reasonCode = QStringLiteral("channel_outage");
        p.comment = QStringLiteral("the order reached checkout late; replay the callback once "
                                   "the shop has created it, as the channel asked us to");
        p.origin = QStringLiteral("console@test");
        if (auto fix = fixes.propose(p, agent); !fix)
            return fix.error().message;
    }
    return {};
}

} // namespace OncePay::Test
