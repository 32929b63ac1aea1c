// Many connections at once: a duplicate storm at the door and several workers sharing one
// message table. Exactly one message, one credit, one purchase and one logistics order.

#include "enginefixture.h"
#include "simulator/channelemitter.h"

#include <QTest>
#include <QThread>

#include <atomic>

using namespace OncePay;
using namespace OncePay::Test;

class TstConcurrency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void duplicateStorm_data() { addEngineRows(); }
    void duplicateStorm()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-storm", 9900, "USD");
        f.pay("o-storm", 1, "a1");
        const InboundRequest request = f.stripe(StripeEvents::paymentIntentSucceeded(
            f.params("o-storm", "a1", 9900, "USD", "evt_storm", "pi_storm")));

        constexpr int kThreads = 8;
        constexpr int kDeliveries = 1000;
        std::atomic<int> stored{0}, duplicate{0}, errors{0};
        QList<QThread *> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads << QThread::create([&, t] {
                auto c = Connection::open(f.config.orders, QStringLiteral("storm%1").arg(t));
                if (!c) {
                    errors += kDeliveries / kThreads;
                    return;
                }
                IngestService ingest(*c, *f.channels, f.clock);
                for (int i = 0; i < kDeliveries / kThreads; ++i) {
                    auto r = ingest.ingest(QStringLiteral("stripe"), request);
                    if (!r)
                        ++errors;
                    else if (r->status == IngestStatus::Duplicate)
                        ++duplicate;
                    else
                        ++stored;
                }
            });
            threads.last()->start();
        }
        for (QThread *t : threads) {
            QVERIFY(t->wait(300000));
            delete t;
        }
        QCOMPARE(errors.load(), 0);
        QCOMPARE(stored.load(), 1);
        QCOMPARE(stored.load() + duplicate.load(), kDeliveries); // 1,000 "ok / already received"
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages"), 1);

        f.drain();
        QCOMPARE(f.order("o-storm").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), 1);
    }

    void duplicateStormEveryChannel_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("channel");
        for (auto [name, d] : {std::pair{"sqlite", Dialect::Sqlite},
                               {"postgresql", Dialect::Postgres},
                               {"mariadb", Dialect::MySql}})
            for (const QString &channel : ChannelEmitter::channels())
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(name, channel)))
                    << int(d) << channel;
    }
    void duplicateStormEveryChannel()
    {
        ONCEPAY_SCRATCH(dbs);
        QFETCH(QString, channel);
        EngineFixture f(*dbs);
        ChannelEmitter emitter(9, dbs->tempPath());
        QVERIFY(emitter.prepare().ok());
        AppConfig config = f.config;
        config.channels = emitter.channelSettings();
        const ChannelRegistry channels(config);
        const QString currency = ChannelEmitter::currencies(channel).first();
        f.createOrder("o-" + channel, 45000, currency);
        QVERIFY(f.service->startPayment("o-" + channel, channel, 1, "a1", Actor::platform()).ok());
        const EmittedPayment payment{channel, "o-" + channel, "a1",    emitter.newTxnId(channel, 1),
                                     {},      45000,          currency};
        const InboundRequest request =
            emitter.request(EmittedKind::Succeeded, payment, 1, f.clock.nowMs());

        std::atomic<int> stored{0}, duplicate{0}, errors{0};
        QList<QThread *> threads;
        for (int t = 0; t < 8; ++t) {
            threads << QThread::create([&, t] {
                auto c = Connection::open(config.orders, QStringLiteral("storm%1").arg(t));
                if (!c) {
                    errors += 50;
                    return;
                }
                IngestService ingest(*c, channels, f.clock);
                for (int i = 0; i < 50; ++i) {
                    auto r = ingest.ingest(channel, request);
                    !r ? ++errors : r->status == IngestStatus::Duplicate ? ++duplicate : ++stored;
                }
            });
            threads.last()->start();
        }
        for (QThread *t : threads) {
            QVERIFY(t->wait(300000));
            delete t;
        }
        QCOMPARE(errors.load(), 0);
        QCOMPARE(stored.load(), 1);
        QCOMPARE(duplicate.load(), 399);
        Worker worker(*f.orders, f.clock, QStringLiteral("worker:test/2"), RetryPolicy{});
        QVERIFY(worker.runOnce(50).ok());
        QCOMPARE(f.order("o-" + channel).state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), 1);
    }

    void workersShareTheTable_data() { addEngineRows(); }
    void workersShareTheTable()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        constexpr int kOrders = 120;
        for (int i = 0; i < kOrders; ++i) {
            const QString id = QStringLiteral("o-%1").arg(i);
            f.createOrder(id, 1000 + i);
            f.pay(id, 1, QStringLiteral("a-%1").arg(i));
            const auto p =
                f.params(id, QStringLiteral("a-%1").arg(i), 1000 + i, "USD",
                         QStringLiteral("evt_%1").arg(i), QStringLiteral("pi_%1").arg(i));
            f.deliver(StripeEvents::paymentIntentSucceeded(p));
            // The channel reports the same capture again under another event id.
            auto again = p;
            again.eventId = QStringLiteral("evt_%1_again").arg(i);
            f.deliver(StripeEvents::paymentIntentSucceeded(again));
        }
        WorkerPoolOptions options;
        options.threads = 4;
        options.batch = 10;
        options.once = true;
        options.idleSleepMs = 10;
        std::atomic<bool> stop{false};
        auto stats = WorkerPool::run(f.config.orders, f.clock, options, stop);
        QVERIFY2(stats.ok(), qPrintable(stats.ok() ? QString() : stats.error().message));
        // Contention may leave a few messages for a later round; finish them.
        f.clock.advance(3600 * 1000);
        f.drain();
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'skipped'"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM orders WHERE state = 'paid' AND version = 4"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(DISTINCT order_id) FROM ledger_entries"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), kOrders);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries"),
                 qint64(kOrders) * 1000 + qint64(kOrders) * (kOrders - 1) / 2);
    }
};

QTEST_GUILESS_MAIN(TstConcurrency)
#include "tst_concurrency.moc"
