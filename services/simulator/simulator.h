#pragma once

// `oncepay simulate`: a deterministic day-by-day world of customers, channels and failures
// that drives the REAL engine — channel adapters, ingest, worker, state machine, audit
// shipper — through simulated time (a ManualClock; nothing sleeps). It never writes a
// business row itself; it only acts as the platform's checkout, the channels and the
// infrastructure would. At the end it checks the invariants and digests the business
// content, so the same seed must give the same digest.
// Thread contract: run() on one thread; it opens its own connections.

#include "channelemitter.h"
#include "config/appconfig.h"
#include "simulationoptions.h"

#include <QJsonObject>
#include <QMap>

#include <functional>

namespace OncePay {

struct SimulationSummary {
    qint64 orders = 0;
    qint64 startMs = 0; // the simulated period: [startMs, endMs), UTC
    qint64 endMs = 0;
    qint64 callbacksSent = 0; // every HTTP delivery, duplicates and forgeries included
    qint64 storedNew = 0;
    qint64 duplicatesAbsorbed = 0; // answered "already received"
    qint64 forgedSent = 0;
    qint64 rejectedAtDoor = 0;
    qint64 staleSent = 0;     // late callbacks of superseded attempts (distinct events)
    qint64 staleRejected = 0; // messages skipped as stale
    qint64 poisonSent = 0;
    qint64 deadLetters = 0;
    qint64 workerCrashes = 0;
    qint64 leasesReclaimed = 0;
    qint64 auditShipRefused = 0; // shipping attempts during the audit outage
    qint64 auditRows = 0;
    qint64 stuckPaidUnconfirmed = 0;
    qint64 refundFlagsOpen = 0;
    qint64 openMessages = 0; // pending/processing/failed at the end
    QMap<QString, qint64> ordersByState;
    QMap<QString, qint64> defectsPlanted;
    QStringList statementFiles;
    QStringList demoAccountsCreated; // usernames, with --demo
    QStringList invariantFailures;
    QString businessDigest;
    qint64 elapsedMs = 0;

    QJsonObject toJson() const;
    QString toText() const;
};

class Simulator {
public:
    using Progress = std::function<void(qint64 done, qint64 total)>;

    Simulator(AppConfig config, SimulationOptions options, Progress progress = {});

    Result<SimulationSummary> run();

    // SHA-256 over a canonical dump of the business tables (orders, transitions, payments,
    // ledger, purchase/logistics orders, messages' outcomes, dead letters, refund flags),
    // leaving out what is random by nature (UUIDs, lease owners, wall-clock timings).
    static Result<QString> businessDigest(const class Connection &orders);

private:
    AppConfig m_config;
    SimulationOptions m_options;
    Progress m_progress;
};

} // namespace OncePay
