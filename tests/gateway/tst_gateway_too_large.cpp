// A callback too large for the gateway, over real HTTP on every engine: the HTTP server answers
// 413 before the body is read (with or without Expect: 100-continue), and the refusal is
// recorded as the webhook path records any other — an ingest_rejections row, reason too_large,
// with the channel, the declared size in its detail and the sender's address, no body — so the
// dashboard counts it "refused at the door". A path that is no known channel's records nothing.

#include "gatewaytestsupport.h"

#include "db/connection.h"
#include "db/migrator.h"
#include "investigation/dashboardquery.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

qint64 tooLargeRows(const AppConfig &config)
{
    auto c = Connection::open(config.orders, QStringLiteral("test"));
    if (!c)
        return -1;
    auto v = Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM ingest_rejections"
                                                 " WHERE reason_code = 'too_large'"));
    return v ? v->toLongLong() : -1;
}

} // namespace

class TstGatewayTooLarge : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aTooLargeCallbackIsRefusedAtTheDoor_data() { addEngineRows(); }
    void aTooLargeCallbackIsRefusedAtTheDoor()
    {
        ONCEPAY_SCRATCH(dbs);
        const AppConfig config = gatewayConfig(*dbs);
        QVERIFY(openMigrated(config.orders, QStringLiteral("test")).ok());
        GatewayOptions options;
        options.maxBodyBytes = 4096;
        GatewayHarness gw(config, options);
        const quint16 port = gw.port;
        const qint64 from = QDateTime::currentMSecsSinceEpoch();

        // The body sent in full: read to its end and dropped, then 413.
        const InboundRequest big =
            StripeSigner::sign(QByteArray(4097, 'x'), kGwStripeSecret, nowSeconds());
        HttpResult sent = offThread([&] {
            return TestHttpClient(port).request("POST", "/webhooks/stripe", big.body, big.headers);
        });
        QCOMPARE(sent.status, 413);
        // Expect: 100-continue: refused before the body is sent.
        HttpResult early = offThread([port] {
            TestHttpClient c(port);
            c.send("POST /webhooks/stripe HTTP/1.1\r\nHost: x\r\nContent-Length: 9000000\r\n"
                   "Expect: 100-continue\r\n\r\n");
            return c.readResponse();
        });
        QCOMPARE(early.status, 413);
        // No channel, or not a POST: no callback, nothing recorded (the answer is still 413).
        HttpResult nowhere = offThread([&] {
            return TestHttpClient(port).request("POST", "/webhooks/nosuch", big.body, big.headers);
        });
        QCOMPARE(nowhere.status, 413);
        HttpResult put = offThread([&] {
            return TestHttpClient(port).request("PUT", "/webhooks/stripe", big.body, big.headers);
        });
        QCOMPARE(put.status, 413);

        QTRY_COMPARE_WITH_TIMEOUT(tooLargeRows(config), 2, 20000);
        QTest::qWait(300); // nothing more on its way
        QCOMPARE(tooLargeRows(config), 2);

        auto c = Connection::open(config.orders, QStringLiteral("test"));
        QVERIFY(c.ok());
        // The declared size is the row's size; no body was read, so none is hashed.
        auto q = Sql::exec(c->db(), "SELECT channel, detail, remote, body_size, body_sha256 IS NULL"
                                    " FROM ingest_rejections ORDER BY id");
        QVERIFY(q.ok());
        QStringList rows;
        while (q->next())
            rows << QStringLiteral("%1|%2|%3|%4|%5")
                        .arg(q->value(0).toString(), q->value(1).toString(), q->value(2).toString())
                        .arg(q->value(3).toLongLong())
                        .arg(q->value(4).toInt());
        QCOMPARE(rows, QStringList({"stripe|body of 4097 bytes exceeds the 4096-byte limit|"
                                    "127.0.0.1|4097|1",
                                    "stripe|body of 9000000 bytes exceeds the 4096-byte limit|"
                                    "127.0.0.1|9000000|1"}));

        // The dashboard counts them refused at the door.
        const qint64 to = QDateTime::currentMSecsSinceEpoch() + 1;
        auto d = DashboardQuery(*c, Clock::system())
                     .load({from - 60 * 1000, to},
                           Actor{QStringLiteral("agent"), QStringLiteral("agent")});
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
        QCOMPARE(d->callbackTotals().rejected, 2);
        QCOMPARE(d->callbackTotals().received, 0);
        QCOMPARE(gw.gateway->metrics().total(QStringLiteral("rejected")), quint64(2));
    }
};

QTEST_GUILESS_MAIN(TstGatewayTooLarge)
#include "tst_gateway_too_large.moc"
