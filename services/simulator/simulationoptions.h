#pragma once

// What `oncepay simulate` is asked to do, and how hostile the world is while it does it.
// Every rate is a probability per order (stories) or per delivery (transport faults).
// Thread contract: plain values.

#include "core/clock.h"
#include "core/result.h"

#include <QMap>
#include <QString>

namespace OncePay {

struct FaultProfile {
    QString name = QStringLiteral("realistic");
    // Stories (per order).
    double abandoned = 0.04;        // created, never paid
    double cancelled = 0.01;        // cancelled before paying
    double declineThenRetry = 0.08; // first attempt declined, rolled back, second succeeds
    double lateStale = 0.25;        // of those: the old attempt's success arrives after rollback
    double refunded = 0.05;         // paid, then refunded days later
    double refundFirst = 0.2;       // of refunds: delivered before the capture (out of order)
    double failureAfterSuccess = 0.01;
    double mismatch = 0.005; // the channel captured another amount: stays paid_unconfirmed
    double poison = 0.003;   // callbacks for orders that do not exist: dead letters
    // Transport (per delivery).
    double duplicateBurst = 0.15;  // 1–4 extra copies within seconds
    double channelRetry = 0.05;    // the channel thinks we did not answer: retries on its schedule
    double forgedSignature = 0.01; // an extra request with a wrong signature
    // Infrastructure.
    double workerCrash = 0.01; // per stored message: a worker claims it and dies; the lease expires
    bool auditOutage = true;   // the audit database is down for six hours on day 2

    static Result<FaultProfile> named(const QString &name); // realistic, calm, hostile
    // "rate=value,…" overrides, e.g. "duplicateBurst=0.5,poison=0"
    Result<void> applyOverrides(const QString &assignments);
};

struct SimulationOptions {
    // Without --start and --demo the world starts on a fixed date, so that the same options
    // always give the same digest (tests and benchmarks rely on it).
    static constexpr qint64 kFixedStartMs = 1761955200000; // 2025-11-01T00:00:00Z
    // The earliest start allowed (the simulated PayPal certificate is valid from then).
    static constexpr qint64 kEarliestStartMs = 946684800000; // 2000-01-01T00:00:00Z
    // How long the world goes on after its last day: the channels' last retries and the
    // worker's back-offs (up to four days) and the settlements of the last captures (up to
    // D+3, and the statement that carries them).
    static constexpr int kTailDays = 5;
    // The days after a period of `days` until everything it writes has passed: the tail above,
    // and the end of the weekly statement that carries the last settlements (statements cover
    // whole weeks from the start: 5 for 30 days, 6 for one day, 7 for a week).
    static int tailDays(int days) { return qMax(kTailDays, (days + 3) / 7 * 7 + 7 - days); }

    int orders = 1000;
    int days = 30;
    quint64 seed = 1;
    qint64 startMs = kFixedStartMs;
    FaultProfile faults;
    QString outDir; // statements, fee schedule, PayPal certificate; empty = no files
    bool force = false;
    // The console's demo (`simulate --demo`): one staff account per role (and a second
    // finance reviewer for approvals that need two), passwords "<user>-demo", made through
    // services/auth like `oncepay staff add`. Existing accounts are left as they are.
    bool demoAccounts = false;

    // The latest start of a period of `days` whose tail (tailDays) ends by today's UTC
    // midnight — the demo's default: what a console opened today shows as the month just past,
    // with every settlement of it already in.
    static qint64 latestStart(int days, const Clock &now);
    // The UTC midnight of an ISO date YYYY-MM-DD; an error for anything else (2026-02-30).
    static Result<qint64> startOfDate(const QString &date);
    // Which starts are allowed: a UTC midnight (the fee schedule it writes holds dates) from
    // 2000-01-01 on, no later than latestStart — a simulation tells what happened, not what
    // will: its retries and settlements included, nothing it writes lies after today.
    Result<void> checkStart(const Clock &now) const;
};

} // namespace OncePay
