#include "workerauditshipping.h"

#include "audit/auditshipper.h"
#include "db/migrator.h"
#include "db/sql.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

namespace OncePay {

WorkerAuditShipping::WorkerAuditShipping(ConnectionProfile audit, const Clock &clock)
    : WorkerAuditShipping(std::move(audit), clock, Options{})
{}

WorkerAuditShipping::WorkerAuditShipping(ConnectionProfile audit, const Clock &clock,
                                         Options options)
    : m_profile(std::move(audit))
    , m_clock(clock)
    , m_options(options)
    , m_reopenDelayMs(options.firstReopenDelayMs)
{}

void WorkerAuditShipping::backOff(std::chrono::steady_clock::time_point now)
{
    m_audit.reset(); // closed on this thread, which opened it
    m_reopenAt = now + std::chrono::milliseconds(m_reopenDelayMs);
    m_reopenDelayMs = std::min(m_options.maxReopenDelayMs, m_reopenDelayMs * 2);
}

bool WorkerAuditShipping::ship(const Connection &orders)
{
    // The cheap check, on the orders database only (index audit_outbox_unshipped): an idle
    // worker with nothing to ship does not touch the audit database.
    auto waiting = Sql::scalar(orders.db(), QStringLiteral("SELECT id FROM audit_outbox WHERE"
                                                           " shipped_at IS NULL LIMIT 1"));
    if (!waiting || waiting->isNull())
        return false; // nothing waits, or the orders database is away (the claim says so)

    const auto now = std::chrono::steady_clock::now();
    if (!m_audit) {
        if (now < m_reopenAt)
            return false;
        auto opened = openMigrated(m_profile, QStringLiteral("audit-ship"));
        if (!opened) {
            backOff(now);
            if (!std::exchange(m_saidFailing, true))
                spdlog::warn("audit shipping: cannot reach the audit database: {}; the events"
                             " stay in the outbox, retrying",
                             opened.error().message.toStdString());
            return false;
        }
        m_audit.emplace(std::move(opened).value());
    }

    AuditShipper::Options bounded;
    bounded.batchSize = m_options.batchSize;
    bounded.maxBatches = std::max(1, m_options.maxBatchesPerCall);
    auto shipped = AuditShipper(orders, *m_audit, m_clock, bounded).shipAll();
    if (!shipped) {
        const Error &e = shipped.error();
        ++m_failures;
        if (!std::exchange(m_saidFailing, true))
            spdlog::warn("audit shipping failed: {}; the events stay in the outbox, retrying",
                         e.message.toStdString());
        else
            spdlog::debug("audit shipping failed again: {}", e.message.toStdString());
        // A lost link or a read-only server (a failover): a new connection may reach the new
        // primary. Anything else a few times in a row: reopened too, whatever ping would say.
        if (e.code == ErrorCode::Unavailable || m_failures >= m_options.resetAfterFailures) {
            backOff(now);
            m_failures = 0;
        }
        return false;
    }
    m_failures = 0;
    m_reopenDelayMs = m_options.firstReopenDelayMs;
    if (std::exchange(m_saidFailing, false))
        spdlog::warn("audit shipping works again: {} event(s) shipped", shipped->shipped);
    return shipped->batches >= bounded.maxBatches;
}

std::function<bool(const Connection &)> workerAuditShippingHook(const ConnectionProfile &audit)
{
    return [audit](const Connection &orders) {
        thread_local WorkerAuditShipping shipping(audit, Clock::system());
        return shipping.ship(orders);
    };
}

} // namespace OncePay
