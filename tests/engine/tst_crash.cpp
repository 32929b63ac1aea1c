// A worker killed with SIGKILL at each fault point; a fresh worker then finishes the job.
// Afterwards every message is completed, skipped or dead, no credit is missing or doubled,
// and each paid order's history matches its ledger.

#include "cliprocess.h"
#include "enginefixture.h"

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
        for (auto [name, d] : {std::pair{"sqlite", Dialect::Sqlite}, {"postgresql", Dialect::Postgres},
                               {"mariadb", Dialect::MySql}}) {
            QTest::newRow(qPrintable(QString("%1/after claim").arg(name))) << int(d) << "worker.after_claim" << 0;
            QTest::newRow(qPrintable(QString("%1/before commit").arg(name))) << int(d) << "worker.before_commit" << 2;
            QTest::newRow(qPrintable(QString("%1/after commit").arg(name))) << int(d) << "worker.after_commit" << 3;
        }
    }
    void killedWorkerLosesNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        QFETCH(QString, point);
        QFETCH(int, after);
        EngineFixture f(*dbs);
        constexpr int kOrders = 6;
        for (int i = 0; i < kOrders; ++i) {
            const QString id = QStringLiteral("o-%1").arg(i);
            f.createOrder(id, 700 + i, "JPY");
            f.pay(id, 1, QStringLiteral("a-%1").arg(i));
            f.deliver(StripeEvents::paymentIntentSucceeded(f.params(id, QStringLiteral("a-%1").arg(i), 700 + i, "JPY",
                                                                    QStringLiteral("evt_%1").arg(i),
                                                                    QStringLiteral("pi_%1").arg(i))));
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
        CliRun killed = runOncepay({"--config", config, "work", "--once", "--batch", "50"}, crashing);
        QCOMPARE(killed.exitCode, -1); // died by signal, mid-flight
        const qint64 doneBefore = f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        QVERIFY(doneBefore < kOrders);

        QThread::msleep(1300); // let the dead worker's lease expire
        CliRun fresh = runOncepay({"--config", config, "work", "--once"}, env);
        QVERIFY2(fresh.exitCode == 0, qPrintable(fresh.err));

        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status NOT IN ('completed','skipped','dead')"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), kOrders);
        // History consistent with the ledger: every order that reached paid has one credit of
        // its amount, and exactly one transition into paid.
        QCOMPARE(f.count("SELECT COUNT(*) FROM orders o JOIN ledger_entries l ON l.order_id = o.order_id"
                         " WHERE o.state = 'paid' AND l.amount_minor = o.amount_minor"),
                 kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE to_state = 'paid'"), kOrders);
        QCOMPARE(f.count("SELECT COUNT(*) FROM orders WHERE version = 4"), kOrders);
    }
};

QTEST_GUILESS_MAIN(TstCrash)
#include "tst_crash.moc"
