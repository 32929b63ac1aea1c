// A connect time-out set in a profile's options is the one the driver uses (review of what a
// newcomer meets, finding 4): README's own example `options = connect_timeout=N` was overridden
// by the default 5 s appended after it (the last setting wins). Against a listener that never
// answers (the kernel accepts the connection, nobody speaks), a 2 s time-out gives up in about
// 2 s, not 5; without one the default still applies. PostgreSQL (libpq connect_timeout) and
// MySQL/MariaDB (MYSQL_OPT_CONNECT_TIMEOUT); no server needed.

#include "db/connection.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace OncePay;

namespace {

// A TCP listener on 127.0.0.1 that never accepts: connections complete in the backlog and
// then hear nothing.
class BlackHole {
public:
    BlackHole()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), len) != 0 ||
            ::listen(m_fd, 16) != 0 ||
            ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return;
        m_port = ntohs(a.sin_port);
    }
    ~BlackHole()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
};

ConnectionProfile blackHoleProfile(Dialect dialect, int port, const QString &options)
{
    ConnectionProfile p;
    p.role = DbRole::Orders;
    p.dialect = dialect;
    p.host = QStringLiteral("127.0.0.1");
    p.port = port;
    p.database = QStringLiteral("oncepay");
    p.user = QStringLiteral("nobody");
    p.password = QStringLiteral("x");
    p.options = options;
    return p;
}

// Milliseconds Connection::open takes to give up.
qint64 timeToGiveUp(const ConnectionProfile &p)
{
    QElapsedTimer t;
    t.start();
    auto c = Connection::open(p, QStringLiteral("timeout"));
    const qint64 ms = t.elapsed();
    return c ? -1 : ms;
}

} // namespace

class TstConnectTimeout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theProfilesTimeoutIsUsed_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("options");
        QTest::newRow("postgresql") << int(Dialect::Postgres) << "connect_timeout=2";
        QTest::newRow("postgresql, after another option")
            << int(Dialect::Postgres) << "sslmode=disable;connect_timeout=2";
        QTest::newRow("mysql") << int(Dialect::MySql) << "MYSQL_OPT_CONNECT_TIMEOUT=2";
    }
    void theProfilesTimeoutIsUsed()
    {
        QFETCH(int, dialect);
        QFETCH(QString, options);
        const auto d = Dialect(dialect);
        if (!QSqlDatabase::isDriverAvailable(qtDriverName(d)))
            QSKIP("Qt SQL driver not installed");
        BlackHole hole;
        QVERIFY(hole.port() > 0);

        const qint64 own = timeToGiveUp(blackHoleProfile(d, hole.port(), options));
        QVERIFY2(own >= 1500 && own < 4500, qPrintable(QString::number(own)));
        // Without a time-out in the options the default (5 s) still applies.
        const qint64 fallback = timeToGiveUp(blackHoleProfile(d, hole.port(), QString()));
        QVERIFY2(fallback >= 4500 && fallback < 30000, qPrintable(QString::number(fallback)));
    }
};

QTEST_GUILESS_MAIN(TstConnectTimeout)
#include "tst_connect_timeout.moc"
