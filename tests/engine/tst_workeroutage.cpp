// The database goes away under a running worker pool and comes back (issue 3): the pool logs
// it, backs off, reconnects and carries on; the messages it held when the link broke are
// claimed again once their leases expire; every message ends completed exactly once — one
// credit, one purchase order, one logistics order, one transition into paid each.
// The outage is a TCP proxy between the pool and the test server that resets every link and
// refuses new ones for a few seconds: to the worker that is exactly a server restart, and it
// leaves the shared test server (other tests run against it at the same time) alone.
// On a private server the test can restart the real thing instead: set
// ONCEPAY_TEST_PG_STOP_CMD / ONCEPAY_TEST_PG_START_CMD (and ONCEPAY_TEST_MYSQL_…) to shell
// commands that stop and start it (e.g. pg_ctl -m fast stop / start).

#include "cliprocess.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "logcapture.h"
#include "polluntil.h"
#include "serveraccount.h"
#include "tcpoutageproxy.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <spdlog/spdlog.h>

#include <atomic>
#include <functional>
#include <optional>
#include <thread>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// The real server's stop and start commands for this engine, when the developer gave them.
std::pair<QString, QString> restartCommands(Dialect d)
{
    const char *prefix = d == Dialect::Postgres ? "ONCEPAY_TEST_PG_" : "ONCEPAY_TEST_MYSQL_";
    const QByteArray stop = QByteArray(prefix) + QByteArray("STOP_CMD");
    const QByteArray start = QByteArray(prefix) + QByteArray("START_CMD");
    return {qEnvironmentVariable(stop.constData()), qEnvironmentVariable(start.constData())};
}

bool shell(const QString &command)
{
    return QProcess::execute(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command}) == 0;
}

// A standing pool (not `once`) run on its own thread: whether it ended by itself within
// `ms`, and its outcome (it is stopped if it did not end).
struct WorkerStandingRun {
    bool endedByItself = false;
    std::optional<Result<WorkerStats>> outcome;
};

WorkerStandingRun runStandingPool(const ConnectionProfile &profile,
                                  const WorkerPoolOptions &options, int ms,
                                  const std::function<void()> &meanwhile = {})
{
    std::atomic<bool> stop{false};
    std::atomic<bool> finished{false};
    WorkerStandingRun run;
    std::thread pool([&] {
        run.outcome.emplace(WorkerPool::run(profile, Clock::system(), options, stop));
        finished.store(true);
    });
    run.endedByItself = pollUntil([&] { return finished.load(); }, ms);
    if (meanwhile)
        meanwhile();
    stop.store(true);
    pool.join();
    return run;
}

WorkerPoolOptions standingOptions()
{
    WorkerPoolOptions options;
    options.threads = 3;
    options.idleSleepMs = 100;
    options.maxReconnectDelayMs = 400;
    return options;
}

// `server` reached through `proxy` (on loopback), which a test takes down and up.
ConnectionProfile throughProxy(ConnectionProfile server, const TcpOutageProxy &proxy)
{
    server.host = QStringLiteral("127.0.0.1");
    server.port = proxy.port();
    return server;
}

} // namespace

class TstWorkerOutage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void poolSurvivesDatabaseRestart_data() { addEngineRows(); }
    void poolSurvivesDatabaseRestart()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in this process: there is no server to restart");
        EngineFixture f(*dbs);
        constexpr int kBefore = 120, kDuring = 30, kTotal = kBefore + kDuring;
        auto deliver = [&](int i) {
            const QString id = QStringLiteral("o-%1").arg(i);
            f.createOrder(id, 1000 + i, "USD");
            f.pay(id, 1, QStringLiteral("a-%1").arg(i));
            QCOMPARE(f.deliver(StripeEvents::paymentIntentSucceeded(f.params(
                         id, QStringLiteral("a-%1").arg(i), 1000 + i, "USD",
                         QStringLiteral("evt_%1").arg(i), QStringLiteral("pi_%1").arg(i)))),
                     IngestStatus::Stored);
        };
        for (int i = 0; i < kBefore; ++i)
            deliver(i);

        TcpOutageProxy proxy(dbs->orders().host, dbs->orders().port);
        QVERIFY(proxy.start() > 0);
        const ConnectionProfile viaProxy = throughProxy(dbs->orders(), proxy);

        WorkerPoolOptions options;
        options.threads = 2;
        options.batch = 5;
        options.idleSleepMs = 100;
        options.maxReconnectDelayMs = 1000;
        options.config = {{QStringLiteral("lease_seconds"), QStringLiteral("2")},
                          {QStringLiteral("max_attempts"), QStringLiteral("12")}};
        std::atomic<bool> stop{false};
        std::optional<Result<WorkerStats>> outcome;
        std::thread pool(
            [&] { outcome.emplace(WorkerPool::run(viaProxy, Clock::system(), options, stop)); });
        auto completed = [&] {
            return f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        };

        // The outage strikes while the pool is busy.
        const auto [stopCmd, startCmd] = restartCommands(dbs->dialect());
        const bool realRestart = !stopCmd.isEmpty() && !startCmd.isEmpty();
        QVERIFY2(pollUntil([&] { return completed() >= 20; }, 60000), "the pool made no progress");
        const int linksBefore = proxy.accepted();
        if (realRestart) {
            qInfo("restarting the real server: %s", qPrintable(stopCmd));
            QVERIFY(shell(stopCmd));
            QThread::msleep(3000);
            QVERIFY(shell(startCmd));
            QVERIFY(f.orders->reconnect().ok()); // the test's own link died with the server
            QVERIFY2(completed() < kBefore,
                     "the pool finished before the outage; nothing was tested");
            for (int i = kBefore; i < kTotal; ++i)
                deliver(i);
        } else {
            proxy.down();
            const qint64 atOutage = completed();
            QVERIFY2(atOutage < kBefore, "the pool finished before the outage; nothing was tested");
            // New callbacks keep arriving (ingest does not go through the lost link).
            for (int i = kBefore; i < kTotal; ++i)
                deliver(i);
            QThread::msleep(3000);
            const qint64 duringOutage = completed();
            QCOMPARE(duringOutage, atOutage); // nothing can be done without the database
            proxy.up();
        }

        const bool drained = pollUntil([&] { return completed() == kTotal; }, 90000);
        stop.store(true);
        pool.join();
        QVERIFY2(drained, qPrintable(QStringLiteral("only %1 of %2 completed after the database "
                                                    "came back")
                                         .arg(completed())
                                         .arg(kTotal)));
        QVERIFY(outcome.has_value());
        QVERIFY2(outcome->ok(), qPrintable(outcome->ok() ? QString() : outcome->error().message));
        QVERIFY2((*outcome)->reconnects >= 1, qPrintable((*outcome)->summary()));
        QVERIFY(proxy.accepted() > linksBefore); // the pool really opened new links

        // Exactly once, whatever was in flight when the link broke.
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status <> 'completed'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages"), kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"),
                 kTotal);
        QCOMPARE(f.count("SELECT COUNT(DISTINCT order_id) FROM ledger_entries WHERE kind = "
                         "'payment_credit'"),
                 kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE to_state = 'paid'"), kTotal);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM orders o JOIN ledger_entries l ON l.order_id = o.order_id"
                    " WHERE o.state = 'paid' AND l.amount_minor = o.amount_minor"),
            kTotal);
    }

    // With --once an unreachable database is an error, not an endless wait.
    void onceReportsAnUnreachableDatabase_data() { addEngineRows(); }
    void onceReportsAnUnreachableDatabase()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in this process: there is no server to be unreachable");
        EngineFixture f(*dbs);
        TcpOutageProxy proxy(dbs->orders().host, dbs->orders().port);
        QVERIFY(proxy.start() > 0);
        proxy.down();
        const ConnectionProfile viaProxy = throughProxy(dbs->orders(), proxy);
        WorkerPoolOptions options;
        options.once = true;
        std::atomic<bool> stop{false};
        auto r = WorkerPool::run(viaProxy, Clock::system(), options, stop);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
    }

    // A standing worker retries only what waiting can cure. A database migrated by a newer
    // OncePay is not one: every thread ends, the run returns the error, logged once.
    void standingPoolEndsOnANewerSchema_data() { addEngineRows(); }
    void standingPoolEndsOnANewerSchema()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("INSERT INTO schema_version (version, name, checksum,"
                                         " applied_at) VALUES (9999, 'future', 'x', 0)"))
                    .ok());
        LogCapture log;
        const WorkerStandingRun run = runStandingPool(dbs->orders(), standingOptions(), 10000);
        QVERIFY2(run.endedByItself, "the standing worker kept retrying a newer schema");
        QVERIFY(run.outcome && !run.outcome->ok());
        const Error &e = run.outcome->error();
        QCOMPARE(e.code, ErrorCode::Newer);
        QVERIFY2(e.message.startsWith(QStringLiteral("the worker cannot start: orders: database "
                                                     "schema version 9999 is newer than this "
                                                     "program knows")),
                 qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("upgrade OncePay")), qPrintable(e.message));
        const QStringList errors = log.lines(QStringLiteral("error"));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(e.message), qPrintable(errors.first()));
        QVERIFY(log.lines(QStringLiteral("warning")).filter(QStringLiteral("retrying")).isEmpty());
    }

    // Ops settings the settings service would refuse (stored around it) end a standing
    // worker too; a [worker] key in the configuration file takes the setting's place.
    void standingPoolEndsOnRefusedOpsSettings_data() { addEngineRows(); }
    void standingPoolEndsOnRefusedOpsSettings()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto changed = Sql::update(f.orders->db(),
                                   QStringLiteral("UPDATE ops_settings SET setting_value = '0'"
                                                  " WHERE setting_key = 'worker.max_attempts'"));
        QVERIFY(changed.ok());
        QCOMPARE(*changed, 1);
        {
            LogCapture log;
            const WorkerStandingRun run = runStandingPool(dbs->orders(), standingOptions(), 10000);
            QVERIFY2(run.endedByItself, "the standing worker kept retrying refused settings");
            QVERIFY(run.outcome && !run.outcome->ok());
            const Error &e = run.outcome->error();
            QCOMPARE(e.code, ErrorCode::Invalid);
            QCOMPARE(e.reason, QStringLiteral("bad_setting"));
            QCOMPARE(e.message,
                     QStringLiteral("the worker cannot start: ops setting worker.max_attempts is "
                                    "not a whole number from 1 to 100: '0'; change it in the "
                                    "console's Administration page (or set [worker] max_attempts "
                                    "in the configuration file) (waiting will not cure this; the "
                                    "worker stopped)"));
            QCOMPARE(log.lines(QStringLiteral("error")).size(), 1);
        }
        // The configuration file's value is used instead of the stored one: the worker runs.
        WorkerPoolOptions overridden = standingOptions();
        overridden.config = {{QStringLiteral("max_attempts"), QStringLiteral("5")}};
        const WorkerStandingRun run = runStandingPool(dbs->orders(), overridden, 1500);
        QVERIFY2(!run.endedByItself,
                 qPrintable(run.outcome && !run.outcome->ok() ? run.outcome->error().message
                                                              : QStringLiteral("ended")));
        QVERIFY(run.outcome && run.outcome->ok());
    }

    // The command a person starts: `oncepay work` (standing) on refused settings ends with
    // the error and a non-zero exit code instead of running without ever processing.
    void workCommandEndsOnRefusedOpsSettings_data() { addEngineRows(); }
    void workCommandEndsOnRefusedOpsSettings()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE ops_settings SET setting_value = '100000'"
                                         " WHERE setting_key = 'worker.lease_seconds'"))
                    .ok());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString config = dbs->writeConfigFile(&env);
        QElapsedTimer took;
        took.start();
        CliRun r = runOncepay({"--config", config, "work", "--threads", "2"}, env, {}, 30000);
        QVERIFY2(took.elapsed() < 25000, "oncepay work kept running on refused settings");
        QCOMPARE(r.exitCode, 3); // configuration, as reconcile on an ops setting it refuses
        QVERIFY2(r.err.contains(QStringLiteral("oncepay work: the worker cannot start: ops "
                                               "setting worker.lease_seconds is not a whole "
                                               "number from 5 to 3600: '100000'")),
                 qPrintable(r.err));
        QFile log(dbs->tempPath() + QStringLiteral("/cli.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QStringList errors =
            QString::fromUtf8(log.readAll()).split(u'\n').filter(QStringLiteral(" error ["));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(QStringLiteral("the worker cannot start: ops setting "
                                                        "worker.lease_seconds")),
                 qPrintable(errors.first()));
    }

    // A login the server refuses is not cured by waiting: `oncepay work` (standing or --once)
    // and the gateway end at once with exit 6, which the systemd unit does not restart on
    // (tst_worker_unit_file), logged once as an error naming the database; never the password.
    void workCommandEndsOnARefusedLogin_data() { addEngineRows(); }
    void workCommandEndsOnARefusedLogin()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite has no login: the file is opened or it is not");
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        const QString wrong = QStringLiteral("not-the-password-7Qx");
        env.insert(QStringLiteral("ONCEPAY_TEST_DB_PASSWORD"), wrong);
        const QString refused = QStringLiteral("orders: the server refused the login to %1 (check"
                                               " the user, its password and the database name)")
                                    .arg(dbs->orders().describe());
        const QString logPath = dbs->tempPath() + QStringLiteral("/cli.log");
        const QList<std::pair<QStringList, QString>> runs = {
            {{"work", "--threads", "2"}, QStringLiteral("the worker cannot start: ") + refused},
            {{"work", "--once"}, QString()},
            {{"gateway", "--listen", "127.0.0.1:0", "--with-worker"},
             QStringLiteral("gateway cannot start: ") + refused}};
        for (const auto &[args, loggedError] : runs) {
            QFile::remove(logPath);
            QElapsedTimer took;
            took.start();
            const CliRun r = runOncepay(QStringList{"--config", config} + args, env, {}, 30000);
            const QString what = args.join(u' ') + QStringLiteral(": ") + r.err;
            QVERIFY2(took.elapsed() < 20000, qPrintable(what + QStringLiteral(" kept running")));
            QVERIFY2(r.exitCode == 6, qPrintable(QString::number(r.exitCode) + u' ' + what));
            QVERIFY2(r.err.contains(refused), qPrintable(what));
            QVERIFY2(!r.err.contains(wrong) && !r.out.contains(wrong), qPrintable(what));
            QFile log(logPath);
            QVERIFY(log.open(QIODevice::ReadOnly));
            const QString logged = QString::fromUtf8(log.readAll());
            QVERIFY2(!logged.contains(wrong), qPrintable(logged));
            const QStringList errors = logged.split(u'\n').filter(QStringLiteral(" error ["));
            if (loggedError.isEmpty())
                continue; // --once reports on stderr, as for any other failure
            QVERIFY2(errors.size() == 1 && errors.first().contains(loggedError),
                     qPrintable(logged));
        }
    }

    // The gateway ends, too, on what a restart will not cure (its unit does not restart on
    // them, tst_worker_unit_file): a malformed [gateway] setting (3), a schema newer than the
    // program (5) — instead of answering 503 for ever.
    void gatewayEndsOnWhatARestartWillNotCure()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
        const std::unique_ptr<ScratchDatabases> dbs = std::move(made).value();
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::Append));
            f.write("\n[gateway]\nmax_batch = 0\n");
        }
        const QStringList gateway{"--config", config, "gateway", "--listen", "127.0.0.1:0"};
        CliRun r = runOncepay(gateway, env, {}, 30000);
        QVERIFY2(r.exitCode == 3, qPrintable(QString::number(r.exitCode) + u' ' + r.err));
        QVERIFY2(r.err.contains(QStringLiteral("max_batch")), qPrintable(r.err));

        QFile f(config);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray valid = f.readAll().replace("\n[gateway]\nmax_batch = 0\n", "");
        f.close();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(valid);
        f.close();
        {
            EngineFixture engine(*dbs); // the schema made, then moved past this program
            QVERIFY(Sql::exec(engine.orders->db(),
                              QStringLiteral("INSERT INTO schema_version (version, name, checksum,"
                                             " applied_at) VALUES (9999, 'future', 'x', 0)"))
                        .ok());
        }
        r = runOncepay(gateway, env, {}, 30000);
        QVERIFY2(r.exitCode == 5, qPrintable(QString::number(r.exitCode) + u' ' + r.err));
        QVERIFY2(r.err.contains(QStringLiteral("9999")), qPrintable(r.err));
    }

    // A server out of connection slots for the role (PostgreSQL 53300 "too many connections
    // for role", MariaDB 1226 "max_user_connections") refuses too, but that passes: a
    // standing worker waits, as for an outage.
    void standingPoolWaitsForAFullServer_data() { addEngineRows(); }
    void standingPoolWaitsForAFullServer()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite has no login and no connection slots");
        EngineFixture f(*dbs);
        ConnectionProfile full = dbs->orders();
        full.user = QStringLiteral("op_full_%1").arg(QCoreApplication::applicationPid());
        full.password = QStringLiteral("full-pw-1");
        const bool pg = dbs->dialect() == Dialect::Postgres;
        ServerAccount account(*f.orders, full.user, full.password, "CONNECTION LIMIT 0",
                              "WITH MAX_USER_CONNECTIONS 1"); // dropped at the end
        QVERIFY(account.created());
        std::optional<Connection> held; // MariaDB: the account's one connection, taken
        if (!pg) {
            QVERIFY(account.grantAll(full.database));
            auto c = Connection::open(full, QStringLiteral("test-full"));
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            held.emplace(std::move(c).value());
        }
        LogCapture log;
        const WorkerStandingRun run = runStandingPool(full, standingOptions(), 2500);
        held.reset();
        QVERIFY2(!run.endedByItself,
                 qPrintable(run.outcome && !run.outcome->ok() ? run.outcome->error().message
                                                              : QStringLiteral("ended")));
        QVERIFY(run.outcome && run.outcome->ok());
        QVERIFY2(log.lines(QStringLiteral("error")).isEmpty(),
                 qPrintable(log.lines(QStringLiteral("error")).join(u'\n')));
        const QStringList waited = log.lines(QStringLiteral("warning"))
                                       .filter(QStringLiteral("database unavailable at start"));
        QVERIFY(!waited.isEmpty());
        QVERIFY2(waited.first().contains(pg ? QStringLiteral("too many connections for role")
                                            : QStringLiteral("max_user_connections")),
                 qPrintable(waited.first()));
    }

    // `oncepay work` (standing) started while its server cannot be reached waits for it, and
    // ends on SIGTERM as always; no server is needed: nothing listens on the port.
    void workCommandWaitsForAnUnreachableServer()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        int port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            port = probe.serverPort();
        }
        const QString ini = dir.filePath(QStringLiteral("oncepay.ini"));
        QFile f(ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("[general]\ndata_dir = %1\n\n[orders]\ndriver = postgresql\n"
                               "host = 127.0.0.1\nport = %2\ndatabase = oncepay_nowhere\n"
                               "user = nobody\npassword_env = ONCEPAY_TEST_NOWHERE_PASSWORD\n\n"
                               "[log]\nfile = %3\n")
                    .arg(dir.filePath(QStringLiteral("data")))
                    .arg(port)
                    .arg(dir.filePath(QStringLiteral("cli.log")))
                    .toUtf8());
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ONCEPAY_CONFIG"));
        env.insert(QStringLiteral("ONCEPAY_TEST_NOWHERE_PASSWORD"), QStringLiteral("x"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg-config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(qEnvironmentVariable("ONCEPAY_BIN_DIR") + QStringLiteral("/oncepay"),
                {QStringLiteral("--config"), ini, QStringLiteral("work")});
        QVERIFY(p.waitForStarted());
        QVERIFY2(!p.waitForFinished(3000), qPrintable(QString::fromUtf8(p.readAllStandardError())));
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(20000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QFile log(dir.filePath(QStringLiteral("cli.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QString logged = QString::fromUtf8(log.readAll());
        QVERIFY2(logged.contains(QStringLiteral("orders database unavailable at start")),
                 qPrintable(logged));
        QVERIFY2(logged.contains(QStringLiteral("database unavailable at start")) &&
                     logged.contains(QStringLiteral("; retrying in ")),
                 qPrintable(logged));
        QVERIFY2(!logged.contains(QStringLiteral("cannot start")), qPrintable(logged));
    }

    // A SQLite file that is no database will not become one by waiting.
    void standingPoolEndsOnAFileThatIsNoDatabase()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ConnectionProfile profile;
        profile.dialect = Dialect::Sqlite;
        profile.role = DbRole::Orders;
        profile.path = dir.filePath(QStringLiteral("orders.db"));
        QFile file(profile.path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(8192, 'x'));
        file.close();
        LogCapture log;
        const WorkerStandingRun run = runStandingPool(profile, standingOptions(), 10000);
        QVERIFY2(run.endedByItself, "the standing worker kept retrying a file that is no database");
        QVERIFY(run.outcome && !run.outcome->ok());
        QCOMPARE(run.outcome->error().code, ErrorCode::Internal);
        QVERIFY2(run.outcome->error().message.contains(QStringLiteral("not a database")),
                 qPrintable(run.outcome->error().message));
        QCOMPARE(log.lines(QStringLiteral("error")).size(), 1);
    }

    // An unreachable database is waited for at start, with the back-off, until it comes
    // (or the worker is stopped).
    void standingPoolWaitsForAnUnreachableDatabase_data() { addEngineRows(); }
    void standingPoolWaitsForAnUnreachableDatabase()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in this process: there is no server to be unreachable");
        EngineFixture f(*dbs);
        TcpOutageProxy proxy(dbs->orders().host, dbs->orders().port);
        QVERIFY(proxy.start() > 0);
        proxy.down();
        const ConnectionProfile viaProxy = throughProxy(dbs->orders(), proxy);
        LogCapture log;
        int linksWhileDown = 0;
        const WorkerStandingRun run = runStandingPool(viaProxy, standingOptions(), 3000, [&] {
            linksWhileDown = proxy.accepted();
            proxy.up();
            QThread::msleep(2000); // the next tries find it
        });
        QVERIFY2(!run.endedByItself,
                 qPrintable(run.outcome && !run.outcome->ok() ? run.outcome->error().message
                                                              : QStringLiteral("ended")));
        QVERIFY(run.outcome.has_value());
        QVERIFY2(run.outcome->ok(),
                 qPrintable(run.outcome->ok() ? QString() : run.outcome->error().message));
        QVERIFY(log.lines(QStringLiteral("error")).isEmpty());
        QVERIFY(!log.lines(QStringLiteral("warning"))
                     .filter(QStringLiteral("database unavailable at start"))
                     .isEmpty());
        QVERIFY(proxy.accepted() > linksWhileDown); // it connected once the database was back
    }
};

QTEST_GUILESS_MAIN(TstWorkerOutage)
#include "tst_workeroutage.moc"
