// A PostgreSQL server that stops answering while a connection waits on it — a stopped server
// process, a proxy whose server went away but which keeps the link open — no longer holds a
// console read for ever (ServerSilenceWatch). Observed through a proxy in this process that can
// stop forwarding and keep the links open (tcpoutageproxy.h, freeze()): the client's kernel sees
// every byte acknowledged, so keep-alives and tcp_user_timeout see a healthy peer, as with a
// real proxy. The limit is shortened to 1.5 s for the test (60 s in the program).

#include "db/connection.h"
#include "db/serversilence.h"
#include "db/sql.h"
#include "logcapture.h"
#include "tcpoutageproxy.h"
#include "testdatabases.h"

#include <QElapsedTimer>
#include <QTest>

using namespace OncePay;
using namespace std::chrono_literals;

namespace {

constexpr auto kLimit = 1500ms;

} // namespace

class TstServerSilence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { ServerSilenceWatch::setLimit(kLimit); }
    void cleanupTestCase() { ServerSilenceWatch::setLimit(ServerSilenceWatch::kDefaultLimit); }

    // The rule alone: a statement is given up once it has waited the limit and nothing came
    // in for as long — not earlier, and not while data keeps coming.
    void ruleNeedsTheWaitAndTheSilenceToLastTheLimit_data()
    {
        QTest::addColumn<int>("waitedMs");
        QTest::addColumn<int>("msSinceReceived");
        QTest::addColumn<bool>("cut");
        QTest::newRow("waited, nothing back, past the limit") << 1500 << 1500 << true;
        QTest::newRow("a link idle for an hour, the statement just sent") << 10 << 3600000 << false;
        QTest::newRow("a long statement still receiving") << 90000 << 200 << false;
        QTest::newRow("waited one ms short") << 1499 << 5000 << false;
        QTest::newRow("silent one ms short") << 9000 << 1499 << false;
    }
    void ruleNeedsTheWaitAndTheSilenceToLastTheLimit()
    {
        QFETCH(int, waitedMs);
        QFETCH(int, msSinceReceived);
        QFETCH(bool, cut);
        QCOMPARE(ServerSilenceWatch::silentTooLong(std::chrono::milliseconds(waitedMs),
                                                   std::uint32_t(msSinceReceived), kLimit),
                 cut);
    }

    // What is not PostgreSQL over TCP is not watched.
    void sqliteIsNotWatched()
    {
        QTemporaryDir dir;
        ConnectionProfile p;
        p.role = DbRole::Orders;
        p.dialect = Dialect::Sqlite;
        p.path = dir.filePath(QStringLiteral("orders.db"));
        auto c = Connection::open(p, QStringLiteral("silence"));
        QVERIFY(c.ok());
        ServerSilenceWatch::Scope scope(*c, QStringLiteral("test"));
        QVERIFY(!scope.watching());
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);
    }

    void aFrozenProxyEndsTheReadAndALaterOneWorks()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        ConnectionProfile p = Test::serverProfile(Dialect::Postgres, DbRole::Orders);
        p.database = QStringLiteral("postgres");
        ONCEPAY_PROXY_IN_FRONT(proxy, p)

        auto c = Connection::open(p, QStringLiteral("silence"), Connection::OpenMode::ExistingOnly);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        {
            ServerSilenceWatch::Scope scope(*c, QStringLiteral("console read: orders"));
            QVERIFY(scope.watching());
            QCOMPARE(ServerSilenceWatch::watchedCount(), 1);
            QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT 1")).value().toInt(), 1);
        }
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);

        // A link idle between statements is never cut, however long — inside a scope too (a
        // job's own work: hashing an export, parsing a file): a read after a quick exchange
        // and twice the limit of nothing works, and so does one the server answers late.
        {
            ServerSilenceWatch::Scope scope(*c, QStringLiteral("console read: orders"));
            QVERIFY(Sql::scalar(c->db(), QStringLiteral("SELECT 2")).ok());
            QTest::qWait(int(2 * kLimit.count()));
            auto r = Sql::scalar(c->db(), QStringLiteral("SELECT 3"));
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
            QTest::qWait(int(kLimit.count()));
            auto late = Sql::scalar(c->db(), QStringLiteral("SELECT pg_sleep(0.5)::text"));
            QVERIFY2(late.ok(), qPrintable(late.ok() ? QString() : late.error().message));
        }

        // A long job that keeps receiving is not cut: rows of 9,000 bytes (past the server's
        // 8 kB output buffer, so each is sent as it is made), one every 0.4 s, for 3.2 s.
        {
            ServerSilenceWatch::Scope scope(*c, QStringLiteral("console read: orders"));
            auto q = Sql::exec(c->db(), QStringLiteral("SELECT repeat('x', 9000), pg_sleep(0.4)"
                                                       " FROM generate_series(1, 8)"));
            QVERIFY2(q.ok(), qPrintable(q.ok() ? QString() : q.error().message));
            int rows = 0;
            while (q->next())
                ++rows;
            QVERIFY2(!q->lastError().isValid(), qPrintable(q->lastError().text()));
            QCOMPARE(rows, 8);
        }

        // The server stops in the middle of a result read row by row (the first row came with
        // the statement; the rest never does): the read ends as a lost connection.
        {
            ServerSilenceWatch::Scope scope(*c, QStringLiteral("console read: orders"));
            auto q = Sql::exec(c->db(), QStringLiteral("SELECT repeat('x', 9000), pg_sleep(0.2)"
                                                       " FROM generate_series(1, 5)"));
            QVERIFY2(q.ok(), qPrintable(q.ok() ? QString() : q.error().message));
            QVERIFY(q->next());
            proxy.freeze(10s);
            QElapsedTimer rows;
            rows.start();
            while (q->next()) {
            }
            QVERIFY2(q->lastError().isValid(), "the rows of a silent server came");
            QCOMPARE(Sql::classify(q->lastError(), QStringLiteral("rows")).code,
                     ErrorCode::Unavailable);
            QVERIFY2(rows.elapsed() < kLimit.count() + 3000,
                     qPrintable(QString::number(rows.elapsed())));
        }
        proxy.thaw();
        QVERIFY(c->reconnect().ok());

        // The proxy goes silent: the read ends as a lost connection after about the limit,
        // logged, instead of never.
        Test::LogCapture log;
        proxy.freeze(10s); // forwards again after 10 s: a read not ended by then answers
        QElapsedTimer t;
        t.start();
        {
            ServerSilenceWatch::Scope scope(*c, QStringLiteral("console read: orders"));
            auto r = Sql::scalar(c->db(), QStringLiteral("SELECT 5"));
            QVERIFY2(!r.ok(), "a read through a silent proxy answered");
            QCOMPARE(r.error().code, ErrorCode::Unavailable);
        }
        const qint64 waited = t.elapsed();
        QVERIFY2(waited >= kLimit.count() && waited < kLimit.count() + 3000,
                 qPrintable(QString::number(waited)));
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);
        // Logged by the watch's thread just after it closed the link.
        QTRY_VERIFY(!log.lines(QStringLiteral("error")).isEmpty());
        const QStringList errors = log.lines(QStringLiteral("error"));
        QVERIFY2(errors.size() == 1 &&
                     errors.first().contains(QStringLiteral("console read: "
                                                            "orders")) &&
                     errors.first().contains(QStringLiteral("has sent nothing for")),
                 qPrintable(errors.join(u'\n')));
        QVERIFY2(!log.text().contains(p.password), "the log holds the password");

        // The server back (the proxy forwards again): reconnecting works without a restart.
        proxy.thaw();
        QVERIFY2(c->reconnect().ok(), "no reconnection after the proxy answered again");
        ServerSilenceWatch::Scope scope(*c, QStringLiteral("console read: orders"));
        QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT 6")).value().toInt(), 6);
    }

    // A server that accepts the link and the login and then goes silent: the opening's session
    // set-up statements end within the limit, and Connection::open says Unavailable instead of
    // holding its thread (a console pool thread, a worker starting) until the server answers
    // — for a connection of the engine's kind too, which no one else scopes.
    void aServerSilentAfterTheLoginEndsTheOpening()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        ConnectionProfile p = Test::serverProfile(Dialect::Postgres, DbRole::Orders);
        p.database = QStringLiteral("postgres");
        ONCEPAY_PROXY_IN_FRONT(proxy, p)

        Test::LogCapture log;
        proxy.freezeWhenClientSends("SET TIME ZONE", 10s); // the first set-up statement
        QElapsedTimer t;
        t.start();
        auto c = Connection::open(p, QStringLiteral("silence"));
        const qint64 ms = t.elapsed();
        // Unwatched, the opening waits for the proxy to thaw by itself after 10 s, and succeeds.
        QVERIFY2(!c.ok(), "an opening through a proxy gone silent after the login succeeded");
        QCOMPARE(c.error().code, ErrorCode::Unavailable);
        QVERIFY2(ms >= kLimit.count() && ms < kLimit.count() + 3000,
                 qPrintable(QString::number(ms)));
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);
        QTRY_VERIFY(log.text().contains(QStringLiteral("session set-up of the orders database")));

        proxy.thaw();
        auto again = Connection::open(p, QStringLiteral("silence"));
        QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().message));
    }

    // A statement the server works on silently for longer than the limit: ended inside a scope
    // (like MariaDB's read time-out on the console's connections), waited for outside one (the
    // engine's statements, which may wait for long on purpose, are never in a scope).
    void aSilentLongStatementIsEndedOnlyInsideAScope()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        ConnectionProfile p = Test::serverProfile(Dialect::Postgres, DbRole::Orders);
        if (p.host.startsWith(u'/'))
            QSKIP("the test server is reached over a Unix socket, which is not watched");
        p.database = QStringLiteral("postgres");
        auto console =
            Connection::open(p, QStringLiteral("silence"), Connection::OpenMode::ExistingOnly);
        QVERIFY(console.ok());
        Test::LogCapture log;
        ServerSilenceWatch::Scope scope(*console, QStringLiteral("health check: orders"));
        // An engine connection on the same thread, in no scope of its own: its long statement
        // runs to its end, and is not taken for a wait of the scoped connection (whose idle
        // link would then have been cut).
        {
            auto engine = Connection::open(p, QStringLiteral("silence"));
            QVERIFY(engine.ok());
            auto r = Sql::scalar(engine->db(), QStringLiteral("SELECT pg_sleep(2.5)::text"));
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
            QVERIFY(Sql::scalar(console->db(), QStringLiteral("SELECT 1")).ok());
        }
        QVERIFY(log.lines(QStringLiteral("error")).isEmpty());
        auto r = Sql::scalar(console->db(), QStringLiteral("SELECT pg_sleep(6)::text"));
        QVERIFY2(!r.ok(), "a silent statement past the limit was not ended");
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
        QTRY_VERIFY(log.text().contains(QStringLiteral("health check: orders")));
    }
};

QTEST_GUILESS_MAIN(TstServerSilence)
#include "tst_server_silence.moc"
