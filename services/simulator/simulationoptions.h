#pragma once

// What `oncepay simulate` is asked to do, and how hostile the world is while it does it.
// Every rate is a probability per order (stories) or per delivery (transport faults).
// Thread contract: plain values.

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
    int orders = 1000;
    int days = 30;
    quint64 seed = 1;
    qint64 startMs = 1761955200000; // 2025-11-01T00:00:00Z
    FaultProfile faults;
    QString outDir; // statements, fee schedule, PayPal certificate; empty = no files
    bool force = false;
    // The console's demo (`simulate --demo`): one staff account per role (and a second
    // finance reviewer for approvals that need two), passwords "<user>-demo", made through
    // services/auth like `oncepay staff add`. Existing accounts are left as they are.
    bool demoAccounts = false;
};

} // namespace OncePay
