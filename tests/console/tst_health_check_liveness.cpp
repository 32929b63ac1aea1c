// The console's health check still says "unreachable" when the check is slow or the page tasks
// are stuck, and the console still exits (review of the connections, findings 1 and 2).
//
// - A server that accepts connections and never answers (a QTcpServer here that says nothing),
//   checked more often than its connect time-out: the answer of the check that was running is
//   shown (it used to be dropped whenever a newer check had started, so the status bar stayed
//   green for ever), and the three roles are checked at once (3 s, not 3 × 3 s). PostgreSQL
//   and MariaDB drivers; no server needed.
// - The four page threads all busy on a server that stopped answering: the health check runs
//   on its own pool and still answers.
// - At exit, a task that never ends is abandoned after kConsoleDrainSeconds: the process ends
//   (status 1, an error logged) instead of waiting for ever.

#include "common/taskpool.h"
#include "connections/connectionspage.h"
#include "connections/connectionstatusmodel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QProcess>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QtConcurrent>

#include <spdlog/spdlog.h>

using namespace OncePay;
using namespace std::chrono_literals;

namespace {

const char kStuckChild[] = "ONCEPAY_TST_HEALTH_STUCK_CHILD";

// Accepts every connection and never sends a byte: a server behind a link that went silent.
class SilentServer : public QTcpServer {
public:
    SilentServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection())
                s->setParent(this); // kept open, never answered
        });
        listen(QHostAddress::LocalHost);
    }
};

ConnectionProfile silentProfile(Dialect dialect, DbRole role, quint16 port)
{
    ConnectionProfile p;
    p.role = role;
    p.dialect = dialect;
    p.host = QStringLiteral("127.0.0.1");
    p.port = port;
    p.database = QStringLiteral("oncepay");
    p.user = QStringLiteral("nobody");
    p.password = QStringLiteral("x");
    p.options = dialect == Dialect::Postgres ? QStringLiteral("connect_timeout=3")
                                             : QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT=3");
    return p;
}

// The console's exit with a task that never ends (run as a child process).
int stuckChild(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    auto *never = new QSemaphore; // never released, never freed: the task waits for ever
    (void)QtConcurrent::run(consoleTaskPool(), [never] { never->acquire(); });
    spdlog::info("stuck child: quitting with a task that never ends");
    return 0; // the application object goes: the pools are drained at most 10 s
}

} // namespace

class TstHealthCheckLiveness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aCheckSlowerThanTheIntervalStillShows_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::newRow("postgresql") << int(Dialect::Postgres);
        QTest::newRow("mariadb") << int(Dialect::MySql);
    }
    void aCheckSlowerThanTheIntervalStillShows()
    {
        QFETCH(int, dialect);
        const auto d = Dialect(dialect);
        if (!QSqlDatabase::isDriverAvailable(qtDriverName(d)))
            QSKIP("Qt SQL driver not installed");
        SilentServer server;
        QVERIFY(server.isListening());
        AppConfig config;
        config.orders = silentProfile(d, DbRole::Orders, server.serverPort());
        config.messages.role = DbRole::Messages;
        config.messages.sameAsOrders = true;
        config.audit = silentProfile(d, DbRole::Audit, server.serverPort());

        ConnectionsPage page(config);
        QSignalSpy answers(&page, &ConnectionsPage::statusesChanged);
        auto *summary = page.findChild<QLabel *>(QStringLiteral("summary"));
        QVERIFY(summary);
        // What the page said when the answer came: a tick right after it starts the next check,
        // which says "Checking…" at once.
        QString summaryAtAnswer;
        connect(&page, &ConnectionsPage::statusesChanged, &page, [&summaryAtAnswer, summary] {
            if (summaryAtAnswer.isEmpty())
                summaryAtAnswer = summary->text();
        });
        // The main window's timer, ticking six times per connect time-out.
        QTimer tick;
        tick.setInterval(500);
        connect(&tick, &QTimer::timeout, &page, &ConnectionsPage::refresh);
        QElapsedTimer elapsed;
        elapsed.start();
        page.refresh();
        tick.start();
        QTRY_VERIFY_WITH_TIMEOUT(answers.count() >= 1, 20000);
        // The three roles at once: one connect time-out (3 s), not one per role (9 s).
        QVERIFY2(elapsed.elapsed() < 6500, qPrintable(QString::number(elapsed.elapsed())));
        const auto statuses = answers.first().first().value<QList<RoleStatus>>();
        QCOMPARE(statuses.size(), 3);
        for (const RoleStatus &s : statuses) {
            QCOMPARE(s.health(), Health::Down);
            QVERIFY(!s.loginRefused);
            QVERIFY2(!s.error.isEmpty(), "no reason given");
        }
        QCOMPARE(page.model()->worstHealth(), Health::Down);
        QCOMPARE(summaryAtAnswer,
                 ConnectionsPage::tr("At least one database is unreachable; see the Status "
                                     "column."));
        // The ticks while it ran started no other check: the next one starts after it.
        QVERIFY(answers.count() == 1);
        tick.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isChecking(), 10000);
    }

    void busyPageTasksDoNotHoldTheCheck()
    {
        // All four of the page pool's threads wait (on a server that stopped answering).
        QSemaphore release;
        for (int i = 0; i < kConsoleTaskThreads; ++i)
            (void)QtConcurrent::run(consoleTaskPool(), [&release] { release.acquire(); });
        auto freed = qScopeGuard([&release] {
            release.release(kConsoleTaskThreads);
            consoleTaskPool()->waitForDone();
        });
        QTRY_COMPARE(consoleTaskPool()->activeThreadCount(), kConsoleTaskThreads);

        QTemporaryDir dir;
        AppConfig config;
        config.orders.path = dir.filePath(QStringLiteral("orders.db")); // no such file
        config.messages.role = DbRole::Messages;
        config.messages.sameAsOrders = true;
        config.audit.role = DbRole::Audit;
        config.audit.path = dir.filePath(QStringLiteral("audit.db"));
        ConnectionsPage page(config);
        QSignalSpy answers(&page, &ConnectionsPage::statusesChanged);
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(answers.count() == 1, 5000);
        const auto statuses = answers.first().first().value<QList<RoleStatus>>();
        QCOMPARE(statuses.size(), 3);
        QVERIFY(statuses[0].fileMissing);
        QCOMPARE(statuses[2].health(), Health::Down);
    }

    void theDrainGivesUpOnATaskThatNeverEnds()
    {
        QSemaphore release;
        (void)QtConcurrent::run(consoleTaskPool(), [&release] { release.acquire(); });
        QTRY_COMPARE(consoleTaskPool()->activeThreadCount(), 1);
        QElapsedTimer t;
        t.start();
        QVERIFY(!Internal::drainConsolePools(300ms));
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        // The pool is left as it is: once the task ends, the drain completes.
        release.release();
        QVERIFY(Internal::drainConsolePools(5s));
    }

    void theConsoleExitsDespiteATaskThatNeverEnds()
    {
        QProcess child;
        child.setProcessChannelMode(QProcess::MergedChannels);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QString::fromLatin1(kStuckChild), QStringLiteral("1"));
        child.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted());
        const bool ended = child.waitForFinished((kConsoleDrainSeconds + 20) * 1000);
        const QString out = QString::fromUtf8(child.readAll());
        if (!ended) {
            child.kill();
            child.waitForFinished();
        }
        QVERIFY2(ended, qPrintable(QStringLiteral("the exit waited for ever: ") + out));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode(), 1);
        QVERIFY2(t.elapsed() >= (kConsoleDrainSeconds - 1) * 1000,
                 qPrintable(QString::number(t.elapsed())));
        QVERIFY2(out.contains(QStringLiteral("they are abandoned and the console exits now")),
                 qPrintable(out));
    }
};

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet(kStuckChild))
        return stuckChild(argc, argv);
    QApplication app(argc, argv);
    TstHealthCheckLiveness test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_health_check_liveness.moc"
