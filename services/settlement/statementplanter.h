#pragma once

// Writes, from what the channels really captured in a simulation, each channel's settlement
// statements in that channel's own layout (one file per channel and week), the fee schedule
// they were computed with (including a rate change on a known date), and a manifest of the
// defects deliberately planted in them, so reconciliation can be scored for precision and
// recall (issue 5 and 6). Deterministic: the same plan gives byte-identical files.
// Thread contract: a pure function of the plan plus file writes into plan.outDir.

#include "settlementfacts.h"

#include "core/result.h"

namespace OncePay {

class StatementPlanter {
public:
    static Result<PlantedStatements> plant(const StatementPlan &plan);

    // Change of every fee rule: +0.05 percentage points (500 ppm) — within the default
    // 0.1 % tolerance, so the differences it explains are auto-fixed.
    static constexpr qint64 kFeeChangePpm = 500;
    static qint64 feeChangeAtMs(const StatementPlan &plan);
};

} // namespace OncePay
