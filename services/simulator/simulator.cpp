#include "simulator.h"

#include "audit/auditshipper.h"
#include "auth/staffservice.h"
#include "channels/channelregistry.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "ingest/ingestservice.h"
#include "orders/orderservice.h"
#include "settlement/settlementfacts.h"
#include "settlement/statementplanter.h"
#include "simulationworld.h"
#include "worker/worker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <tuple>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

using namespace Sim;

constexpr qint64 kSecond = 1000;
constexpr qint64 kMinute = 60 * kSecond;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

// An audit database that cannot be reached, for the outage window: the shipper meets a
// real connection failure, exactly as when the audit server is down.
ConnectionProfile unreachable(const ConnectionProfile &audit)
{
    ConnectionProfile down = audit;
    if (down.dialect == Dialect::Sqlite)
        down.path = QStringLiteral("/proc/oncepay-audit-outage/audit.db");
    else
        down.port = 1;
    return down;
}

class Run {
public:
    Run(AppConfig config, SimulationOptions options, Simulator::Progress progress)
        : m_config(std::move(config))
        , m_o(std::move(options))
        , m_progress(std::move(progress))
        , m_rng(m_o.seed)
        , m_clock(m_o.startMs)
    {}

    Result<SimulationSummary> execute();

private:
    Result<void> setUp();
    void handle(qint64 now, const Event &e);
    void deliver(qint64 now, const Event &e);
    void pay(qint64 now, const Event &e);
    void rollbackAfterFailure(qint64 now, const Event &e);
    void runWorker();
    void crashWorker();
    void shipAudit();
    bool inOutage() const;
    void settle();
    Result<void> createDemoAccounts();

    AppConfig m_config;
    SimulationOptions m_o;
    Simulator::Progress m_progress;
    Rng m_rng;
    ManualClock m_clock;
    QTemporaryDir m_tmp;
    std::unique_ptr<ChannelEmitter> m_emitter;
    std::unique_ptr<Connection> m_orders;
    std::unique_ptr<Connection> m_audit;
    std::unique_ptr<ChannelRegistry> m_channels;
    std::unique_ptr<IngestService> m_ingest;
    std::unique_ptr<OrderService> m_service;
    std::unique_ptr<Worker> m_worker;
    RetryPolicy m_policy;
    QList<SimOrder> m_world;
    Timeline m_timeline;
    SimulationSummary m_s;
    quint64 m_serial = 0;
    qint64 m_lastWorker = 0;
    qint64 m_lastShip = 0;
    int m_crashes = 0;
    // What the channels really captured and refunded, for their settlement statements.
    QList<ChannelCapture> m_captures;
    QHash<QString, qsizetype> m_captureIndex; // channel:txn -> m_captures
};

Result<void> Run::setUp()
{
    const QString certDir = m_o.outDir.isEmpty() ? m_tmp.path() : m_o.outDir;
    m_emitter = std::make_unique<ChannelEmitter>(m_o.seed, certDir);
    if (auto r = m_emitter->prepare(); !r)
        return r;
    m_config.channels = m_emitter->channelSettings();
    // Generated data: durability relaxed on SQLite so a month simulates in seconds.
    m_config.orders.relaxedDurability = m_config.audit.relaxedDurability = true;

    auto orders = openMigrated(m_config.orders, QStringLiteral("simulate"));
    if (!orders)
        return orders.error();
    m_orders = std::make_unique<Connection>(std::move(orders).value());
    auto audit = openMigrated(m_config.audit, QStringLiteral("simulate-audit"));
    if (!audit)
        return audit.error();
    m_audit = std::make_unique<Connection>(std::move(audit).value());
    auto existing = Sql::scalar(m_orders->db(),
                                QStringLiteral("SELECT COUNT(*) FROM orders WHERE order_id LIKE ?"),
                                {QStringLiteral("ord-%1-%").arg(m_o.seed)});
    if (!existing)
        return existing.error();
    if (existing->toLongLong() > 0)
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("the orders database already holds a simulation with seed %1")
                .arg(m_o.seed));

    m_channels = std::make_unique<ChannelRegistry>(m_config);
    m_ingest = std::make_unique<IngestService>(*m_orders, *m_channels, m_clock);
    m_service = std::make_unique<OrderService>(*m_orders, m_clock);
    auto policy = Worker::policyFrom(*m_orders, m_config.worker);
    if (!policy)
        return policy.error();
    m_policy = *policy;
    m_worker =
        std::make_unique<Worker>(*m_orders, m_clock, QStringLiteral("worker:sim/1"), m_policy);
    m_world = planOrders(m_o, *m_emitter, m_rng, m_timeline);
    return {};
}

bool Run::inOutage() const
{
    // Six hours on the second day: the outbox keeps every event until the audit DB is back.
    const qint64 begin = m_o.startMs + kDay + 9 * kHour;
    return m_o.faults.auditOutage && m_o.days >= 2 && m_clock.nowMs() >= begin &&
           m_clock.nowMs() < begin + 6 * kHour;
}

void Run::shipAudit()
{
    if (inOutage()) {
        auto r = AuditShipper::ship(m_config.orders, unreachable(m_config.audit), m_clock, {});
        if (!r)
            ++m_s.auditShipRefused;
        return;
    }
    AuditShipper shipper(*m_orders, *m_audit, m_clock);
    if (auto r = shipper.shipAll(); !r)
        spdlog::warn("simulate: audit shipping failed: {}", r.error().message.toStdString());
}

void Run::runWorker()
{
    for (int round = 0; round < 1000; ++round) {
        auto r = m_worker->runOnce(100);
        if (!r) {
            spdlog::warn("simulate: worker round failed: {}", r.error().message.toStdString());
            return;
        }
        if (r->claimed == 0)
            return;
    }
}

void Run::handle(qint64 now, const Event &e)
{
    SimOrder *o = e.order >= 0 ? &m_world[e.order] : nullptr;
    switch (e.type) {
    case EventType::Create: {
        auto r = m_service->create(
            {o->id, QStringLiteral("cust-%1").arg(m_rng.range(1, 5000), 5, 10, QLatin1Char('0')),
             o->amountMinor, o->currency},
            Actor::platform());
        if (!r)
            spdlog::error("simulate: create {}: {}", o->id.toStdString(),
                          r.error().message.toStdString());
        break;
    }
    case EventType::Cancel: {
        auto current = m_service->get(o->id);
        if (current)
            (void)m_service->cancel(o->id, current->version, CauseKind::Request,
                                    QStringLiteral("cancel-") + o->id, Actor::platform(),
                                    QStringLiteral("customer cancelled"));
        break;
    }
    case EventType::Pay: pay(now, e); break;
    case EventType::Deliver: deliver(now, e); break;
    case EventType::RollbackAfterFailure: rollbackAfterFailure(now, e); break;
    case EventType::WorkerCrash: crashWorker(); break;
    case EventType::Poison: {
        EmittedPayment p{o->channel,
                         QStringLiteral("ghost-") + o->id,
                         QStringLiteral("att-ghost"),
                         m_emitter->newTxnId(o->channel, 1000000000ull + quint64(e.order)),
                         {},
                         o->amountMinor,
                         o->currency};
        ++m_s.callbacksSent;
        ++m_s.poisonSent;
        m_captures << ChannelCapture{
            o->channel, p.channelTxnId, p.orderId, p.amountMinor, p.currency, now, false, {}, 0};
        auto r = m_ingest->ingest(o->channel,
                                  m_emitter->request(EmittedKind::Succeeded, p, ++m_serial, now));
        ++(r ? m_s.storedNew : m_s.rejectedAtDoor);
        break;
    }
    }
}

void Run::crashWorker()
{
    // A worker claims a batch and dies without a word: its leases must expire and the
    // messages be claimed again, never lost.
    auto claimed =
        MessageStore(*m_orders, m_clock)
            .claim(QStringLiteral("worker:sim-crashed/%1").arg(++m_crashes), 5, m_policy.leaseMs);
    if (claimed && !claimed->isEmpty())
        ++m_s.workerCrashes;
}

void Run::pay(qint64 now, const Event &e)
{
    SimOrder &o = m_world[e.order];
    auto current = m_service->get(o.id);
    if (!current || current->state != OrderState::PendingPayment) {
        if (o.payRetries++ < 60) // the platform polls until the order can take a new attempt
            m_timeline.at(now + kMinute, e);
        return;
    }
    const Attempt &a = o.attempts[e.attempt];
    auto r =
        m_service->startPayment(o.id, o.channel, current->version, a.requestId, Actor::platform());
    if (!r) {
        spdlog::warn("simulate: pay {}: {}", o.id.toStdString(), r.error().message.toStdString());
        return;
    }
    if (o.story == Story::Abandoned)
        return;
    const qint64 outcome = now + m_rng.range(30 * kSecond, 5 * kMinute);
    Event d;
    d.type = EventType::Deliver;
    d.order = e.order;
    d.attempt = e.attempt;
    if (a.declines) {
        d.kind = EmittedKind::Failed;
        d.serial = ++m_serial;
        m_timeline.at(outcome, d);
        Event rb;
        rb.type = EventType::RollbackAfterFailure;
        rb.order = e.order;
        rb.attempt = e.attempt;
        m_timeline.at(outcome + m_rng.range(kMinute, 10 * kMinute), rb);
        return;
    }
    const qint64 endOfWorld = m_o.startMs + qint64(m_o.days) * kDay;
    qint64 captureAt = outcome;
    if (o.story == Story::Refunded) {
        Event refund = d;
        refund.kind = EmittedKind::Refunded;
        refund.serial = ++m_serial;
        if (o.refundFirst) {
            m_timeline.at(outcome, refund); // the capture's first delivery was lost
            captureAt = outcome + m_rng.range(5 * kMinute, 30 * kMinute);
        } else {
            m_timeline.at(std::min(endOfWorld - kHour, outcome + m_rng.range(kHour, 5 * kDay)),
                          refund);
        }
    }
    d.kind = EmittedKind::Succeeded;
    d.serial = ++m_serial;
    if (o.story == Story::Mismatch)
        d.amountOverride = o.amountMinor - std::max<qint64>(1, o.amountMinor / 10);
    m_timeline.at(captureAt, d);
    if (o.story == Story::FailureAfterSuccess) {
        Event late = d;
        late.kind = EmittedKind::Failed;
        late.serial = ++m_serial;
        m_timeline.at(captureAt + m_rng.range(kMinute, 10 * kMinute), late);
    }
}

void Run::rollbackAfterFailure(qint64 now, const Event &e)
{
    SimOrder &o = m_world[e.order];
    auto current = m_service->get(o.id);
    if (!current)
        return;
    if (current->state != OrderState::PaymentFailed) {
        if (o.payRetries++ < 60)
            m_timeline.at(now + kMinute, e);
        return;
    }
    auto r = m_service->rollback(o.id, current->version, CauseKind::Request,
                                 QStringLiteral("rb-") + o.id, Actor::platform(),
                                 QStringLiteral("declined; ready for a new attempt"));
    if (!r)
        return;
    Event next;
    next.type = EventType::Pay;
    next.order = e.order;
    next.attempt = e.attempt + 1;
    m_timeline.at(now + m_rng.range(2 * kMinute, 20 * kMinute), next);
    if (o.attempts[e.attempt].lateStale) {
        Event late;
        late.type = EventType::Deliver;
        late.order = e.order;
        late.attempt = e.attempt;
        late.kind = EmittedKind::Succeeded;
        late.serial = ++m_serial;
        late.stale = true;
        m_timeline.at(now + m_rng.range(5 * kMinute, 90 * kMinute), late);
    }
}

void Run::deliver(qint64 now, const Event &e)
{
    const SimOrder &o = m_world[e.order];
    const Attempt &a = o.attempts[e.attempt];
    EmittedPayment p{o.channel, o.id, a.requestId,
                     a.txnId,   {},   e.amountOverride ? e.amountOverride : o.amountMinor,
                     o.currency};
    ++m_s.callbacksSent;
    if (e.forged)
        ++m_s.forgedSent;
    if (e.stale && !e.copy && !e.forged)
        ++m_s.staleSent;
    auto r = m_ingest->ingest(o.channel, m_emitter->request(e.kind, p, e.serial, now, e.forged));
    if (!r)
        ++m_s.rejectedAtDoor;
    else if (r->status == IngestStatus::Duplicate)
        ++m_s.duplicatesAbsorbed;
    else
        ++m_s.storedNew;
    if (r && r->status == IngestStatus::Stored && m_rng.chance(m_o.faults.workerCrash))
        crashWorker();
    if (e.copy || e.forged)
        return;
    if (e.kind == EmittedKind::Succeeded || e.kind == EmittedKind::Refunded) {
        const QString key = o.channel + u':' + a.txnId;
        if (!m_captureIndex.contains(key)) {
            m_captureIndex.insert(key, m_captures.size());
            m_captures << ChannelCapture{o.channel, a.txnId, o.id, p.amountMinor, o.currency, now,
                                         false,     {},      0};
        }
        ChannelCapture &capture = m_captures[m_captureIndex.value(key)];
        if (e.kind == EmittedKind::Succeeded) {
            capture.capturedAtMs = now;
            capture.amountMinor = p.amountMinor;
        } else {
            capture.refunded = true;
            capture.refundedAtMs = now;
        }
    }

    const FaultProfile &f = m_o.faults;
    Event copy = e;
    copy.copy = true;
    if (m_rng.chance(f.duplicateBurst)) {
        for (qint64 i = m_rng.range(1, 4); i > 0; --i)
            m_timeline.at(now + m_rng.range(0, 10 * kSecond), copy);
    }
    if (m_rng.chance(f.channelRetry)) {
        const QList<qint64> schedule = retryScheduleMs(o.channel);
        for (qint64 i = 0, n = m_rng.range(1, schedule.size()); i < n; ++i)
            m_timeline.at(now + schedule[i], copy);
    }
    if (m_rng.chance(f.forgedSignature)) {
        Event forged = e;
        forged.forged = true;
        m_timeline.at(now + m_rng.range(kSecond, kMinute), forged);
    }
}

void Run::settle()
{
    // Let retries, back-offs and expired leases play out: up to four simulated days.
    for (int step = 0; step < 4 * 24 * 6; ++step) {
        m_clock.advance(10 * kMinute);
        runWorker();
        auto open = Sql::scalar(m_orders->db(),
                                QStringLiteral("SELECT COUNT(*) FROM callback_messages WHERE"
                                               " status IN ('pending', 'processing', 'failed')"));
        if (open && open->toLongLong() == 0)
            break;
    }
    shipAudit();
}

Result<void> Run::createDemoAccounts()
{
    // Demo only: these passwords are public (README). Staff are not business content, so the
    // digest does not see them; real time, because sign-in lockouts compare with it.
    const StaffService staff(*m_orders, Clock::system());
    const Actor by = Actor::system(QStringLiteral("simulate --demo"));
    // Each with a name of its own: the two finance reviewers of a maker-checker decision must
    // be told apart in the status bar and in the decisions.
    const std::tuple<const char *, StaffRole, const char *> accounts[] = {
        {"agent", StaffRole::Agent, "Demo agent"},
        {"finance", StaffRole::Finance, "Demo finance"},
        {"finance2", StaffRole::Finance, "Demo finance (second reviewer)"},
        {"auditor", StaffRole::Auditor, "Demo auditor"},
        {"admin", StaffRole::Admin, "Demo admin"}};
    for (const auto &[name, role, displayName] : accounts) {
        const QString user = QString::fromLatin1(name);
        auto existing = staff.find(user);
        if (existing)
            continue;
        if (existing.error().code != ErrorCode::NotFound)
            return existing.error();
        auto added = staff.add({user, QString::fromLatin1(displayName), role},
                               user + QStringLiteral("-demo"), by);
        if (!added)
            return added.error();
        m_s.demoAccountsCreated << user;
    }
    shipAudit(); // their audit rows, like every other, reach the audit database
    return {};
}

Result<SimulationSummary> Run::execute()
{
    QElapsedTimer timer;
    timer.start();
    if (auto r = setUp(); !r)
        return r.error();
    const qint64 total = m_o.orders;
    qint64 created = 0;
    while (!m_timeline.empty()) {
        const qint64 t = m_timeline.nextTime();
        if (t - m_lastWorker >= 30 * kSecond) {
            m_clock.set(t);
            runWorker();
            m_lastWorker = t;
        }
        if (t - m_lastShip >= 15 * kMinute) {
            m_clock.set(t);
            shipAudit();
            m_lastShip = t;
        }
        auto [when, e] = m_timeline.pop();
        m_clock.set(when);
        handle(when, e);
        if (e.type == EventType::Create && m_progress && (++created % 200 == 0 || created == total))
            m_progress(created, total);
    }
    settle();
    if (!m_o.outDir.isEmpty()) {
        StatementPlan plan{m_o.seed, m_o.startMs, m_o.days, m_o.outDir, m_captures};
        auto planted = StatementPlanter::plant(plan);
        if (!planted)
            return planted.error();
        m_s.statementFiles = planted->files;
        m_s.defectsPlanted = planted->defects;
    }
    if (m_o.demoAccounts)
        if (auto r = createDemoAccounts(); !r)
            return r.error();
    m_s.orders = m_o.orders;
    m_s.startMs = m_o.startMs;
    m_s.endMs = m_o.startMs + qint64(m_o.days) * kDay;
    checkInvariants(*m_orders, m_world, m_s);
    if (auto rows = Sql::scalar(m_audit->db(), QStringLiteral("SELECT COUNT(*) FROM audit_log")))
        m_s.auditRows = rows->toLongLong();
    auto digest = Simulator::businessDigest(*m_orders);
    if (!digest)
        return digest.error();
    m_s.businessDigest = *digest;
    m_s.elapsedMs = timer.elapsed();
    return m_s;
}

} // namespace

Simulator::Simulator(AppConfig config, SimulationOptions options, Progress progress)
    : m_config(std::move(config))
    , m_options(std::move(options))
    , m_progress(std::move(progress))
{}

Result<SimulationSummary> Simulator::run()
{
    if (m_options.orders < 1 || m_options.days < 1)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("--orders and --days must be at least 1"));
    // A chosen start is the simulator's rule to check, whoever asks (the fixed default is
    // in the past and gives the reproducible story tests and benchmarks rely on).
    if (m_options.startMs != SimulationOptions::kFixedStartMs)
        if (auto allowed = m_options.checkStart(Clock::system()); !allowed)
            return allowed.error();
    if (!m_options.outDir.isEmpty()) {
        QDir out(m_options.outDir);
        if (out.exists() && !out.isEmpty() && !m_options.force)
            return makeError(ErrorCode::Conflict,
                             QStringLiteral("%1 is not empty; use --force to write into it")
                                 .arg(m_options.outDir));
        if (!QDir().mkpath(m_options.outDir))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("cannot create %1").arg(m_options.outDir));
    }
    Run run(m_config, m_options, m_progress);
    return run.execute();
}

} // namespace OncePay
