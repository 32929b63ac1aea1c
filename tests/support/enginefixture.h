#pragma once

// One engine over scratch databases, for pipeline tests: a manual clock, the Stripe adapter
// with a test secret, ingest and a worker — the same services the CLI and gateway use.
// Thread contract: test main thread (open extra connections per thread yourself).

#include "channels/channelregistry.h"
#include "channels/stripe/stripeevents.h"
#include "channels/stripe/stripesigner.h"
#include "core/clock.h"
#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "ingest/ingestservice.h"
#include "orders/orderservice.h"
#include "testdatabases.h"
#include "worker/worker.h"

#include <memory>

namespace OncePay::Test {

inline const QByteArray kStripeSecret = QByteArrayLiteral("whsec_test_oncepay_0123456789");

class EngineFixture {
public:
    explicit EngineFixture(const ScratchDatabases &dbs)
        : clock(1767225600000) // 2026-01-01T00:00:00Z
    {
        config = dbs.config();
        config.channels[QStringLiteral("stripe")][QStringLiteral("webhook_secret")] =
            QString::fromLatin1(kStripeSecret);
        auto c = openMigrated(config.orders, QStringLiteral("fixture"));
        if (!c)
            qFatal("fixture: %s", qPrintable(c.error().message));
        orders = std::make_unique<Connection>(std::move(c).value());
        channels = std::make_unique<ChannelRegistry>(config);
        ingest = std::make_unique<IngestService>(*orders, *channels, clock);
        service = std::make_unique<OrderService>(*orders, clock);
        RetryPolicy policy;
        policy.maxAttempts = 4;
        policy.backoffBaseMs = 1000;
        policy.leaseMs = 30000;
        worker = std::make_unique<Worker>(*orders, clock, QStringLiteral("worker:test/1"), policy);
    }

    // Signed Stripe request as the channel would send it now.
    InboundRequest stripe(const QByteArray &body) const
    {
        return StripeSigner::sign(body, kStripeSecret, clock.nowMs() / 1000);
    }

    StripeEvents::Params params(const QString &orderId, const QString &attempt, qint64 amount,
                                const QString &currency, const QString &eventId,
                                const QString &pi) const
    {
        StripeEvents::Params p;
        p.orderId = orderId;
        p.attemptId = attempt;
        p.amountMinor = amount;
        p.currency = currency.toLower();
        p.eventId = eventId;
        p.paymentIntentId = pi;
        p.chargeId = QStringLiteral("ch_") + pi.mid(3);
        p.refundId = QStringLiteral("re_") + pi.mid(3);
        p.createdSeconds = clock.nowMs() / 1000;
        return p;
    }

    Order createOrder(const QString &id, qint64 amount,
                      const QString &currency = QStringLiteral("USD"))
    {
        auto o = service->create({id, QStringLiteral("cust-") + id, amount, currency},
                                 Actor::platform());
        if (!o)
            qFatal("create: %s", qPrintable(o.error().message));
        return *o;
    }

    Order pay(const QString &id, qint64 version, const QString &requestId)
    {
        auto r = service->startPayment(id, QStringLiteral("stripe"), version, requestId,
                                       Actor::platform());
        if (!r)
            qFatal("pay: %s", qPrintable(r.error().message));
        return r->order;
    }

    IngestStatus deliver(const QByteArray &body)
    {
        auto r = ingest->ingest(QStringLiteral("stripe"), stripe(body));
        if (!r)
            qFatal("ingest: %s", qPrintable(r.error().message));
        return r->status;
    }

    WorkerStats drain()
    {
        WorkerStats total;
        for (int i = 0; i < 100; ++i) {
            auto r = worker->runOnce(50);
            if (!r)
                qFatal("worker: %s", qPrintable(r.error().message));
            total += *r;
            if (r->claimed == 0)
                break;
        }
        return total;
    }

    // A Stripe success for an order nobody created, retried (an hour apart) until the worker
    // gives it up as a dead letter.
    void makeDeadLetter(const QString &orderId, const QString &event)
    {
        deliver(StripeEvents::paymentIntentSucceeded(
            params(orderId, "a1", 2100, "USD", event, "pi_" + event)));
        for (int i = 0; i < 10; ++i) {
            drain();
            clock.advance(3600 * 1000);
        }
    }

    qint64 count(const QString &sql, const QVariantList &binds = {}) const
    {
        auto v = Sql::scalar(orders->db(), sql, binds);
        if (!v)
            qFatal("count: %s", qPrintable(v.error().message));
        return v->toLongLong();
    }

    Order order(const QString &id) const { return *service->get(id); }

    ManualClock clock;
    AppConfig config;
    std::unique_ptr<Connection> orders;
    std::unique_ptr<ChannelRegistry> channels;
    std::unique_ptr<IngestService> ingest;
    std::unique_ptr<OrderService> service;
    std::unique_ptr<Worker> worker;
};

} // namespace OncePay::Test
