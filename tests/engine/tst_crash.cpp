// A worker killed with SIGKILL at each fault point; a fresh worker then finishes the job.
// Afterwards every message is completed, skipped or dead, no credit is missing or doubled,
// and each paid order's history matches its ledger. Every channel's callbacks (as the
// channel really signs and lays them out) go through every fault point (issue 4).

#include "cliprocess.h"
#include "enginefixture.h"
#include "simulator/channelemitter.h"

#include <QFile>
#include <QTest>
#include <QThread>

using namespace OncePay;
using namespace OncePay::Test;

class TstCrash : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void killedWorkerLosesNothing_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("point");
        QTest::addColumn<int>("after");
        QTest::addColumn<QString>("channel");
        for (auto [name, d] : {std::pair{"sqlite", Dialect::Sqlite},
                               {"postgresql", Dialect::Postgres},
                               {"mariadb", Dialect::MySql}}) {
            for (const QString &ch : ChannelEmitter::channels()) {
                const QString row = QStringLiteral("%1/%2/").arg(QLatin1String(name), ch);
                QTest::newRow(qPrintable(row + "after claim"))
                    << int(d) << "worker.after_claim" << 0 << ch;
                QTest::newRow(qPrintable(row + "before commit"))
                    << int(d) << "worker.before_commit" << 2 << ch;
                QTest::newRow(qPrintable(row + "after commit"))
                    << int(d) << "worker.after_commit" << 3 << ch;
            }
        }
    }
    void killedWorkerLosesNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        QFETCH(QString, point);
        QFETCH(int, after);
        QFETCH(QString, channel);
        EngineFixture f(*dbs);
        // The channel's own layout and signature, verified by its real adapter.
        ChannelEmitter emitter(7, dbs->tempPath());
        QVERIFY(emitter.prepare().ok());
        AppConfig withChannels = f.config;
        withChannels.channels = emitter.channelSettings();
        const ChannelRegistry channels(withChannels);
        IngestService ingest(*f.orders, channels, f.clock);
        const QString currency = ChannelEmitter::currencies(channel).first();
        constexpr int kOrders = 6;
        for (int i = 0; i < kOrders; ++i) {
            const QString id = QStringLiteral("o-%1").arg(i);
            const QString attempt = QStringLiteral("a-%1").arg(i);
            f.createOrder(id, 700 + i, currency);
            QVERIFY(f.service->startPayment(id, channel, 1, attempt, Actor::platform()).ok());
            const EmittedPayment payment{
                channel, id,      attempt, emitter.newTxnId(channel, quint64(i + 1)),
                {},      700 + i, currency};
            auto stored = ingest.ingest(channel, emitter.request(EmittedKind::Succeeded, payment,
                                                                 quint64(i + 1), f.clock.nowMs()));
            QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().message));
            QCOMPARE(stored->status, IngestStatus::Stored);
        }
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        QFile file(config);
        QVERIFY(file.open(QIODevice::Append));
        file.write("\n[worker]\nlease_seconds = 1\nmax_attempts = 5\n");
        file.close();

        QProcessEnvironment crashing = env;
        crashing.insert("ONCEPAY_FAULT", point);
        crashing.insert("ONCEPAY_FAULT_AFTER", QString::number(after));
        CliRun killed =
            runOncepay({"--config", config, "work", "--once", "--batch", "50"}, crashing);
        QCOMPARE(killed.exitCode, -1); // died by signal, mid-flight
        const qint64 doneBefore =
            f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        QVERIFY(doneBefore < kOrders);

        QThread::msleep(1300); // let the dead worker's lease expire
        CliRun fresh = runOncepay({"--config", config, "work", "--once"}, env);
        QVERIFY2(fresh.exitCode == 0,
                 qPrintable(QStringLiteral("exit code %1 (-1: killed by a signal or "
                                           "timed out); stdout: %2; stderr: %3")
                                .arg(fresh.exitCode)
                                .arg(fresh.out, fresh.err)));

        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status NOT IN "
                         "('completed','skipped','dead')"),
                 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), kOrders);
        // History consistent with the ledger: every order that reached paid has one credit of
        // its amount, and exactly one transition into paid.
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM orders o JOIN ledger_entries l ON l.order_id = o.order_id"
                    " WHERE o.state = 'paid' AND l.amount_minor = o.amount_minor"),
            kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE to_state = 'paid'"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM orders WHERE version = 4"), kOrders);
    }
};

QTEST_GUILESS_MAIN(TstCrash)
#include "tst_crash.moc"
