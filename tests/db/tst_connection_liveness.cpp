// A statement on a link that stopped answering ends instead of holding its thread for ever
// (review of the connections, finding 2): Connection::open gives PostgreSQL TCP keep-alives and
// tcp_user_timeout and MariaDB a write time-out, plus a read time-out on the console's and the
// checks' connections (OpenMode::ExistingOnly) only — the engine's may wait for long on
// purpose (the settlement import's lock, 600 s). Each default only where the profile's options
// set none.
//
// What is observed, on the real servers: PostgreSQL — the options on the connection's own TCP
// socket (getsockopt on the file descriptor whose peer is the server), as libpq set them.
// MariaDB — the options the driver got (QSqlDatabase::connectOptions), and that the driver
// honours the read time-out by its name: a SELECT SLEEP(6) under MYSQL_OPT_READ_TIMEOUT=2 ends
// with an error in about 2 s, and the same statement on an engine connection is not cut.
// Not tested here: a PostgreSQL link going silent without acknowledgements (no local way to
// make a peer stop acknowledging without touching the network set-up); the socket options are
// what the kernel acts on. A peer that acknowledges but never answers: tst_server_silence.

#include "db/connection.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

using namespace OncePay;

namespace {

// This process's TCP socket connected to 127.0.0.1/::1 `port` (the database server), or -1.
int socketTo(int port)
{
    const QStringList fds = QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::NoDotAndDotDot);
    for (const QString &name : fds) {
        const int fd = name.toInt();
        sockaddr_storage peer{};
        socklen_t len = sizeof peer;
        if (::getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &len) != 0)
            continue;
        int peerPort = 0;
        if (peer.ss_family == AF_INET)
            peerPort = ntohs(reinterpret_cast<sockaddr_in *>(&peer)->sin_port);
        else if (peer.ss_family == AF_INET6)
            peerPort = ntohs(reinterpret_cast<sockaddr_in6 *>(&peer)->sin6_port);
        if (peerPort == port)
            return fd;
    }
    return -1;
}

int intOption(int fd, int level, int option)
{
    int value = -1;
    socklen_t len = sizeof value;
    if (::getsockopt(fd, level, option, &value, &len) != 0)
        return -2;
    return value;
}

} // namespace

class TstConnectionLiveness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void postgresSocketGetsKeepalivesAndUserTimeout_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<int>("idle");
        QTest::addColumn<int>("userTimeout");
        QTest::newRow("defaults") << QString() << 10 << 30000;
        // The profile's own values win; the rest stay the defaults.
        QTest::newRow("the profile's own")
            << QStringLiteral("keepalives_idle=42;tcp_user_timeout=7000") << 42 << 7000;
    }
    void postgresSocketGetsKeepalivesAndUserTimeout()
    {
        QFETCH(QString, options);
        QFETCH(int, idle);
        QFETCH(int, userTimeout);
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        ConnectionProfile p = Test::serverProfile(Dialect::Postgres, DbRole::Orders);
        if (p.host.startsWith(u'/'))
            QSKIP("the test server is reached over a Unix socket: no TCP options to see");
        p.database = QStringLiteral("postgres");
        p.options = options;
        for (const auto mode :
             {Connection::OpenMode::CreateIfMissing, Connection::OpenMode::ExistingOnly}) {
            QVERIFY(socketTo(p.port) < 0);
            auto c = Connection::open(p, QStringLiteral("liveness"), mode);
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            QVERIFY(c->ping());
            const int fd = socketTo(p.port);
            QVERIFY2(fd >= 0, "no TCP socket to the PostgreSQL server found");
            QCOMPARE(intOption(fd, SOL_SOCKET, SO_KEEPALIVE), 1);
            QCOMPARE(intOption(fd, IPPROTO_TCP, TCP_KEEPIDLE), idle);
            QCOMPARE(intOption(fd, IPPROTO_TCP, TCP_KEEPINTVL), 5);
            QCOMPARE(intOption(fd, IPPROTO_TCP, TCP_KEEPCNT), 3);
            QCOMPARE(intOption(fd, IPPROTO_TCP, TCP_USER_TIMEOUT), userTimeout);
        }
    }

    void mariadbReadTimeoutOnlyWhereNoLongStatementRuns()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::MySql)
        ConnectionProfile p = Test::serverProfile(Dialect::MySql, DbRole::Orders);
        p.database = QString(); // no database selected: SELECT SLEEP needs none

        // What the driver gets: the console's and checks' connections a read time-out of
        // 60 s, the engine's none; both a write time-out; the profile's own value alone.
        {
            auto console =
                Connection::open(p, QStringLiteral("liveness"), Connection::OpenMode::ExistingOnly);
            QVERIFY2(console.ok(), qPrintable(console.ok() ? QString() : console.error().message));
            const QString opts = console->db().connectOptions();
            QVERIFY2(opts.contains(QStringLiteral("MYSQL_OPT_READ_TIMEOUT=60")), qPrintable(opts));
            QVERIFY2(opts.contains(QStringLiteral("MYSQL_OPT_WRITE_TIMEOUT=60")), qPrintable(opts));
            auto engine = Connection::open(p, QStringLiteral("liveness"));
            QVERIFY2(engine.ok(), qPrintable(engine.ok() ? QString() : engine.error().message));
            const QString engineOpts = engine->db().connectOptions();
            QVERIFY2(!engineOpts.contains(QStringLiteral("MYSQL_OPT_READ_TIMEOUT")),
                     qPrintable(engineOpts));
            QVERIFY2(engineOpts.contains(QStringLiteral("MYSQL_OPT_WRITE_TIMEOUT=60")),
                     qPrintable(engineOpts));
        }

        // The driver acts on the name: a statement the server answers only after 6 s ends
        // with an error after the profile's 2 s.
        ConnectionProfile quick = p;
        quick.options = QStringLiteral("MYSQL_OPT_READ_TIMEOUT=2");
        {
            auto c = Connection::open(quick, QStringLiteral("liveness"),
                                      Connection::OpenMode::ExistingOnly);
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            QCOMPARE(c->db().connectOptions().count(QStringLiteral("MYSQL_OPT_READ_TIMEOUT")), 1);
            QElapsedTimer t;
            t.start();
            auto r = Sql::scalar(c->db(), QStringLiteral("SELECT SLEEP(6)"));
            const qint64 ms = t.elapsed();
            QVERIFY2(!r.ok(), "a statement past the read time-out was not ended");
            QCOMPARE(r.error().code, ErrorCode::Unavailable);
            QVERIFY2(ms >= 1500 && ms < 5000, qPrintable(QString::number(ms)));
        }
        // An engine connection waits as long as its statement takes.
        {
            auto c = Connection::open(p, QStringLiteral("liveness"));
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            auto r = Sql::scalar(c->db(), QStringLiteral("SELECT SLEEP(3)"));
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        }
    }
};

QTEST_GUILESS_MAIN(TstConnectionLiveness)
#include "tst_connection_liveness.moc"
