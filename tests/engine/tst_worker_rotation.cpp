// The database password is changed under a running worker pool (credentials rotated on the
// server, the worker's secrets not yet) and its sessions ended: the pool does not stop — a
// rotation is often put right within minutes, and a stopped worker would need a restart — but
// says so once at error level ("refused the login"), keeps trying, never logs the password,
// and is back at work once the password is right again. PostgreSQL and MariaDB (SQLite has no
// login). The account is the test's own, on the scratch orders database; the shared test
// server's other accounts are left alone.

#include "db/sql.h"
#include "enginefixture.h"
#include "logcapture.h"
#include "polluntil.h"
#include "serveraccount.h"

#include <QCoreApplication>
#include <QScopeGuard>
#include <QTest>

#include <atomic>
#include <optional>
#include <thread>

using namespace OncePay;
using namespace OncePay::Test;

class TstWorkerRotation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusedLoginMidRunIsSaidOnceAndRetried_data() { addServerEngineRows(); }
    void refusedLoginMidRunIsSaidOnceAndRetried()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const qint64 pid = QCoreApplication::applicationPid();
        ConnectionProfile rotated = dbs->orders();
        rotated.user = QStringLiteral("op_rot_%1").arg(pid);
        rotated.password = QStringLiteral("rot-pw-first-%1").arg(pid);
        const QString newPassword = QStringLiteral("rot-pw-second-%1").arg(pid);
        ServerAccount account(*f.orders, rotated.user, rotated.password); // dropped at the end
        QVERIFY(account.created());
        QVERIFY(account.grantAll(rotated.database));

        auto deliver = [&](int i) {
            const QString id = QStringLiteral("rot-%1").arg(i);
            f.createOrder(id, 1000 + i, "USD");
            f.pay(id, 1, QStringLiteral("a-%1").arg(i));
            return f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params(id, QStringLiteral("a-%1").arg(i), 1000 + i, "USD",
                         QStringLiteral("evt_rot_%1").arg(i), QStringLiteral("pi_rot_%1").arg(i))));
        };
        auto completed = [&] {
            return f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        };

        LogCapture log;
        WorkerPoolOptions options;
        options.threads = 2; // one error line for the pool, not one per thread
        options.idleSleepMs = 100;
        options.maxReconnectDelayMs = 400;
        std::atomic<bool> stop{false};
        std::atomic<bool> finished{false};
        std::optional<Result<WorkerStats>> outcome;
        std::thread pool([&] {
            outcome.emplace(WorkerPool::run(rotated, Clock::system(), options, stop));
            finished.store(true);
        });
        auto stopPool = qScopeGuard([&] { // before the account is dropped
            stop.store(true);
            if (pool.joinable())
                pool.join();
        });

        // At work under the account: a message done.
        QCOMPARE(deliver(1), IngestStatus::Stored);
        QVERIFY2(pollUntil([&] { return completed() == 1; }, 30000),
                 qPrintable(QStringLiteral("no message done under the account:\n") + log.text()));
        QVERIFY(log.lines(QStringLiteral("error")).isEmpty());

        // The password changes on the server and the pool's sessions are ended.
        QVERIFY(account.setPassword(newPassword));
        QVERIFY(account.endSessions());
        auto refusedLines = [&] {
            return log.lines(QStringLiteral("error")).filter(QStringLiteral("refused the login"));
        };
        // Failed tries, each logged by Connection::open at warn.
        auto refusedTries = [&] {
            return log.lines(QStringLiteral("warning"))
                .filter(QStringLiteral("cannot open orders database"))
                .size();
        };
        QVERIFY2(pollUntil([&] { return !refusedLines().isEmpty(); }, 20000),
                 qPrintable(QStringLiteral("no error line for the refused login:\n") + log.text()));
        // It keeps trying, without saying it again at error level.
        const int triesAtError = refusedTries();
        QVERIFY2(pollUntil([&] { return refusedTries() >= triesAtError + 6; }, 15000),
                 qPrintable(log.text()));
        QVERIFY2(!finished.load(), "the pool stopped on a login refused mid-run");
        QCOMPARE(refusedLines().size(), 1);
        QCOMPARE(log.lines(QStringLiteral("error")).size(), 1);
        const QString said = refusedLines().first();
        qInfo("said: %s", qPrintable(said));
        QVERIFY2(said.contains(rotated.user) &&
                     said.contains(QStringLiteral("check the credentials")) &&
                     said.contains(QStringLiteral("still retrying")),
                 qPrintable(said));

        // The password is put right: the pool reconnects and is at work again.
        QVERIFY(account.setPassword(rotated.password));
        QVERIFY2(pollUntil(
                     [&] {
                         return log.lines(QStringLiteral("warning"))
                                    .filter(QStringLiteral("reconnected to the database"))
                                    .size() >= options.threads;
                     },
                     20000),
                 qPrintable(log.text()));
        QCOMPARE(deliver(2), IngestStatus::Stored);
        QVERIFY2(pollUntil([&] { return completed() == 2; }, 30000),
                 qPrintable(QStringLiteral("no message done after reconnecting:\n") + log.text()));
        QVERIFY(!finished.load());
        stop.store(true);
        pool.join();
        QVERIFY(outcome.has_value());
        QVERIFY2(outcome->ok(), qPrintable(outcome->ok() ? QString() : outcome->error().message));
        QVERIFY2((*outcome)->reconnects >= options.threads, qPrintable((*outcome)->summary()));
        QCOMPARE(log.lines(QStringLiteral("error")).size(), 1); // still the one line

        // Neither password anywhere in what was logged.
        const QString all = log.text();
        QVERIFY(!all.contains(rotated.password));
        QVERIFY(!all.contains(newPassword));
    }
};

QTEST_GUILESS_MAIN(TstWorkerRotation)
#include "tst_worker_rotation.moc"
