// The database restarts while the gateway is under load (issue 7): while it is down every
// callback gets 503 (the channel retries) and /healthz says not ready; once it is back the
// gateway recovers by itself — within 30 s, no restart of the gateway — and nothing it
// acknowledged is lost or stored twice; the first /healthz after a restart says ready. The restart
// is a TCP proxy between the gateway and the test server that resets every link and refuses new
// ones (to the gateway exactly a server restart), so the shared test server other tests use stays
// up.

#include "db/migrator.h"
#include "db/sql.h"
#include "gatewaytestsupport.h"
#include "tcpoutageproxy.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <mutex>
#include <thread>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

struct Answer {
    QString eventId;
    QString callbackId;
    int status = -1;
    qint64 startNs = 0;
    qint64 endNs = 0;
};

// Serves the in-process gateway (this thread's event loop) for `ms`, or until `done`.
template <typename Fn> bool serveUntil(Fn done, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

} // namespace

class TstGatewayOutage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void databaseRestartDuringLoad_data() { addEngineRows(); }
    void databaseRestartDuringLoad()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in the gateway's process: there is no server to restart");
        AppConfig direct = gatewayConfig(*dbs);
        auto counter = openMigrated(direct.orders, QStringLiteral("test"));
        QVERIFY(counter.ok());
        auto count = [&](const QString &sql) {
            return Sql::scalar(counter->db(), sql)->toLongLong();
        };

        TcpOutageProxy proxy(direct.orders.host, direct.orders.port);
        QVERIFY(proxy.start() > 0);
        AppConfig config = direct;
        for (ConnectionProfile *p : {&config.orders, &config.audit}) {
            p->host = QStringLiteral("127.0.0.1");
            p->port = proxy.port();
        }
        GatewayHarness gw(config);

        QElapsedTimer clock;
        clock.start();
        std::mutex mutex;
        std::vector<Answer> answers;
        std::atomic<bool> stop{false};
        std::atomic<int> finished{0};
        constexpr int kClients = 6;
        std::vector<std::thread> clients;
        for (int t = 0; t < kClients; ++t) {
            clients.emplace_back([&, t] {
                TestHttpClient c(gw.port, 30000);
                for (int k = 0; !stop.load(); ++k) {
                    Answer a;
                    a.eventId = QStringLiteral("evt_outage_%1_%2").arg(t).arg(k);
                    const InboundRequest req = signedStripe(a.eventId);
                    a.startNs = clock.nsecsElapsed();
                    const HttpResult r =
                        c.request("POST", "/webhooks/stripe", req.body, req.headers);
                    a.endNs = clock.nsecsElapsed();
                    a.status = r.status;
                    a.callbackId =
                        QJsonDocument::fromJson(r.body).object().value("callback_id").toString();
                    {
                        std::lock_guard lock(mutex);
                        answers.push_back(a);
                    }
                    if (r.status != 200)
                        QThread::msleep(20); // as a channel would back off, only shorter
                }
                ++finished;
            });
        }
        auto acknowledgedSince = [&](qint64 ns) {
            std::lock_guard lock(mutex);
            return std::count_if(answers.begin(), answers.end(), [&](const Answer &a) {
                return a.status == 200 && a.startNs > ns;
            });
        };
        auto health = [&] {
            return offThread([&] { return TestHttpClient(gw.port).request("GET", "/healthz"); });
        };

        // Up: load is acknowledged.
        QVERIFY2(serveUntil([&] { return acknowledgedSince(0) >= 100; }, 60000),
                 "no load acknowledged");
        // Down: the server "restarts" — links reset, connections refused.
        const int linksBeforeDown = proxy.accepted();
        proxy.down();
        const qint64 downNs = clock.nsecsElapsed();
        serveUntil([] { return false; }, 1500);
        const HttpResult unhealthy = health();
        serveUntil([] { return false; }, 1500);
        const qint64 upNs = clock.nsecsElapsed();
        proxy.up();
        // Back: the gateway recovers by itself.
        const bool recovered = serveUntil([&] { return acknowledgedSince(upNs) >= 50; }, 30000);
        const HttpResult healthy = health();
        stop.store(true);
        QVERIFY(serveUntil([&] { return finished.load() == kClients; }, 60000));
        for (auto &c : clients)
            c.join();

        QCOMPARE(unhealthy.status, 503);
        QCOMPARE(QJsonDocument::fromJson(unhealthy.body).object().value("ready").toBool(), false);
        QVERIFY2(recovered, "the gateway did not acknowledge callbacks again within 30 s of the "
                            "database returning");
        QCOMPARE(healthy.status, 200);

        QSet<QString> acknowledged;
        int during = 0, unavailableDuring = 0, firstRecoveredMs = -1;
        for (const Answer &a : answers) {
            QVERIFY2(a.status == 200 || a.status == 503,
                     qPrintable(QStringLiteral("%1 answered %2").arg(a.eventId).arg(a.status)));
            if (a.status == 200)
                acknowledged.insert(a.callbackId);
            if (a.startNs > downNs && a.endNs < upNs) {
                ++during;
                // Sent and answered while the database was down: never a 200.
                QVERIFY2(a.status == 503,
                         qPrintable(a.eventId + QStringLiteral(" acknowledged while down")));
                ++unavailableDuring;
            }
            if (a.status == 200 && a.startNs > upNs) {
                const int ms = int((a.endNs - upNs) / 1000000);
                firstRecoveredMs = firstRecoveredMs < 0 ? ms : std::min(firstRecoveredMs, ms);
            }
        }
        QVERIFY2(during > 0, "no request was answered during the outage");
        QCOMPARE(unavailableDuring, during);
        QVERIFY2(firstRecoveredMs >= 0 && firstRecoveredMs <= 30000,
                 qPrintable(QString::number(firstRecoveredMs)));
        qInfo("outage: %d requests answered 503 while down; first 200 %d ms after the database "
              "returned",
              unavailableDuring, firstRecoveredMs);

        // Nothing acknowledged is lost, nothing is stored twice.
        const QSet<QString> stored = storedCallbackIds(counter->db());
        int lost = 0;
        for (const QString &id : std::as_const(acknowledged))
            lost += stored.contains(id) ? 0 : 1;
        QCOMPARE(lost, 0);
        QCOMPARE(count("SELECT COUNT(*) FROM callback_messages"),
                 count("SELECT COUNT(DISTINCT callback_id) FROM callback_messages"));
        QVERIFY(proxy.accepted() > linksBeforeDown); // new links after the restart
    }
    // The first /healthz after the database restarted says ready: the probe's kept connection
    // died with the restart, and a database that is back is judged by a new connection, not by
    // the dead one (a readiness check used to take the gateway out of service once after every
    // database restart).
    void firstHealthAfterRestartIsReady_data() { addEngineRows(); }
    void firstHealthAfterRestartIsReady()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in the gateway's process: there is no server to restart");
        AppConfig config = gatewayConfig(*dbs);
        QVERIFY(openMigrated(config.orders, QStringLiteral("test")).ok());
        TcpOutageProxy proxy(config.orders.host, config.orders.port);
        QVERIFY(proxy.start() > 0);
        for (ConnectionProfile *p : {&config.orders, &config.audit}) {
            p->host = QStringLiteral("127.0.0.1");
            p->port = proxy.port();
        }
        GatewayHarness gw(config);
        const quint16 port = gw.port;
        auto health = [port] {
            return offThread([port] { return TestHttpClient(port).request("GET", "/healthz"); });
        };
        QCOMPARE(health().status, 200); // the probe's connections opened and kept
        const int links = proxy.accepted();
        proxy.down(); // the restart: every link reset
        serveUntil([] { return false; }, 200);
        proxy.up();
        const HttpResult first = health();
        const QJsonObject body = QJsonDocument::fromJson(first.body).object();
        QVERIFY2(first.status == 200, first.body.constData());
        QCOMPARE(body.value("ready").toBool(), true);
        QCOMPARE(body.value("databases").toObject().value("orders").toObject().value("reachable"),
                 QJsonValue(true));
        QCOMPARE(body.value("databases").toObject().value("audit").toObject().value("reachable"),
                 QJsonValue(true));
        QVERIFY(proxy.accepted() > links); // judged by new connections
    }
};

QTEST_GUILESS_MAIN(TstGatewayOutage)
#include "tst_gatewayoutage.moc"
