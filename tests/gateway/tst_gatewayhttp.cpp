// The gateway over real HTTP on loopback: every status it answers, each channel's valid and
// invalid signatures, keep-alive and pipelining, the probes, and a drain on shutdown.

#include "gatewaytestsupport.h"

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

qint64 count(const AppConfig &config, const QString &sql)
{
    auto c = Connection::open(config.orders, QStringLiteral("test"));
    if (!c)
        return -1;
    auto v = Sql::scalar(c->db(), sql);
    return v ? v->toLongLong() : -1;
}

QJsonObject json(const HttpResult &r)
{
    return QJsonDocument::fromJson(r.body).object();
}

HttpResult post(quint16 port, const QByteArray &path, const InboundRequest &signed_)
{
    return offThread(
        [&] { return TestHttpClient(port).request("POST", path, signed_.body, signed_.headers); });
}

} // namespace

class TstGatewayHttp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs.ok());
        m_dbs = std::move(dbs).value();
        m_config = gatewayConfig(*m_dbs);
#ifdef ONCEPAY_HAVE_PAYPAL
        QVERIFY(m_paypal.writeCertificate(m_dbs->tempPath() + QStringLiteral("/paypal.pem")).ok());
        m_config.channels[QStringLiteral("paypal")][QStringLiteral("webhook_id")] =
            QStringLiteral("8PT597110X687430LKGECATA");
        m_config.channels[QStringLiteral("paypal")][QStringLiteral("cert_file")] =
            m_dbs->tempPath() + QStringLiteral("/paypal.pem");
#endif
        QVERIFY(openMigrated(m_config.orders, QStringLiteral("test")).ok()); // as the command does
        m_gw = std::make_unique<GatewayHarness>(m_config);
    }
    void cleanup()
    {
        m_gw.reset();
        m_dbs.reset();
    }

    void stripeValidThenDuplicate()
    {
        const InboundRequest req = signedStripe(QStringLiteral("evt_http_1"));
        HttpResult first = post(m_gw->port, "/webhooks/stripe", req);
        QCOMPARE(first.status, 200);
        QCOMPARE(json(first).value("status").toString(), QStringLiteral("stored"));
        QCOMPARE(json(first).value("callback_id").toString(), QStringLiteral("stripe:evt_http_1"));
        HttpResult again = post(m_gw->port, "/webhooks/stripe", req);
        QCOMPARE(again.status, 200);
        QCOMPARE(json(again).value("status").toString(), QStringLiteral("already received"));
        QCOMPARE(count(m_config, "SELECT COUNT(*) FROM callback_messages"), 1);
    }

    void stripeInvalidSignature()
    {
        HttpResult r = post(m_gw->port, "/webhooks/stripe",
                            signedStripe(QStringLiteral("evt_bad"), "whsec_someone_else"));
        QCOMPARE(r.status, 400);
        QCOMPARE(json(r).value("error").toString(), QStringLiteral("bad_signature"));
        QCOMPARE(count(m_config, "SELECT COUNT(*) FROM callback_messages"), 0);
        QTRY_COMPARE(count(m_config,
                           "SELECT COUNT(*) FROM ingest_rejections WHERE channel = 'stripe'"
                           " AND reason_code = 'bad_signature' AND remote = '127.0.0.1'"),
                     1);
    }

    void fedapayValidAndInvalid()
    {
        QCOMPARE(post(m_gw->port, "/webhooks/fedapay", signedFedaPay(777001)).status, 200);
        QCOMPARE(post(m_gw->port, "/webhooks/fedapay", signedFedaPay(777001)).status, 200);
        HttpResult bad = post(m_gw->port, "/webhooks/fedapay", signedFedaPay(777002, "wrong"));
        QCOMPARE(bad.status, 400);
        QCOMPARE(
            count(m_config, "SELECT COUNT(*) FROM callback_messages WHERE channel = 'fedapay'"), 1);
        QTRY_COMPARE(
            count(m_config, "SELECT COUNT(*) FROM ingest_rejections WHERE channel = 'fedapay'"), 1);
    }

    void kakaopayValidAndInvalid()
    {
#ifdef ONCEPAY_HAVE_KAKAOPAY
        KakaoPayEvents::Params p;
        p.orderId = QStringLiteral("o-k");
        p.attemptId = QStringLiteral("a1");
        p.amountTotal = 45000;
        const QByteArray body = KakaoPayEvents::approveResult(p);
        const InboundRequest good =
            KakaoPaySigner::sign(body, kGwKakaoPaySecret, "msg_gw_1", nowSeconds());
        QCOMPARE(post(m_gw->port, "/webhooks/kakaopay", good).status, 200);
        QCOMPARE(json(post(m_gw->port, "/webhooks/kakaopay", good)).value("status").toString(),
                 QStringLiteral("already received"));
        const InboundRequest bad = KakaoPaySigner::sign(
            body, QByteArrayLiteral("whsec_") + QByteArray("another-secret-entirely!").toBase64(),
            "msg_gw_2", nowSeconds());
        QCOMPARE(post(m_gw->port, "/webhooks/kakaopay", bad).status, 400);
        QCOMPARE(
            count(m_config, "SELECT COUNT(*) FROM callback_messages WHERE channel = 'kakaopay'"),
            1);
#else
        QSKIP("no KakaoPay signer in services/channels yet");
#endif
    }

    void paypalValidAndInvalid()
    {
#ifdef ONCEPAY_HAVE_PAYPAL
        PayPalEvents::Params p;
        p.orderId = QStringLiteral("o-p");
        p.attemptId = QStringLiteral("a1");
        const QByteArray body = PayPalEvents::captureCompleted(p);
        const InboundRequest good =
            m_paypal.sign(body, "8PT597110X687430LKGECATA", nowSeconds() * 1000);
        QCOMPARE(post(m_gw->port, "/webhooks/paypal", good).status, 200);
        QCOMPARE(json(post(m_gw->port, "/webhooks/paypal", good)).value("status").toString(),
                 QStringLiteral("already received"));
        const InboundRequest otherSubscription =
            m_paypal.sign(body, "SOMEONE-ELSES-WEBHOOK", nowSeconds() * 1000);
        QCOMPARE(post(m_gw->port, "/webhooks/paypal", otherSubscription).status, 400);
        InboundRequest tampered = good;
        tampered.body.replace("21.12", "99.99");
        QCOMPARE(post(m_gw->port, "/webhooks/paypal", tampered).status, 400);
        QCOMPARE(count(m_config, "SELECT COUNT(*) FROM callback_messages WHERE channel = 'paypal'"),
                 1);
#else
        QSKIP("no PayPal signer in services/channels yet");
#endif
    }

    void unconfiguredChannelIs503()
    {
        // A channel whose secret is missing here is our fault: make the channel retry.
        AppConfig bare = m_config;
        bare.channels.remove(QStringLiteral("fedapay"));
        GatewayHarness gw(bare);
        HttpResult r = post(gw.port, "/webhooks/fedapay", signedFedaPay(1));
        QCOMPARE(r.status, 503);
        QCOMPARE(json(r).value("error").toString(), QStringLiteral("not_configured"));
    }

    void badInputAt400()
    {
        InboundRequest unsigned_ = signedStripe(QStringLiteral("evt_nosig"));
        unsigned_.headers.clear();
        HttpResult missing = post(m_gw->port, "/webhooks/stripe", unsigned_);
        QCOMPARE(missing.status, 400);
        QCOMPARE(json(missing).value("error").toString(), QStringLiteral("missing_signature"));

        const InboundRequest garbage =
            StripeSigner::sign("{not json", kGwStripeSecret, nowSeconds());
        HttpResult malformed = post(m_gw->port, "/webhooks/stripe", garbage);
        QCOMPARE(malformed.status, 400);
        QCOMPARE(json(malformed).value("error").toString(), QStringLiteral("malformed"));

        const InboundRequest old =
            StripeSigner::sign(StripeEvents::paymentIntentSucceeded(stripeParams("evt_old")),
                               kGwStripeSecret, nowSeconds() - 3600);
        QCOMPARE(json(post(m_gw->port, "/webhooks/stripe", old)).value("error").toString(),
                 QStringLiteral("stale_timestamp"));
        QTRY_COMPARE(count(m_config, "SELECT COUNT(*) FROM ingest_rejections"), 3);
        QCOMPARE(count(m_config, "SELECT COUNT(*) FROM callback_messages"), 0);
    }

    void notFoundAndMethods()
    {
        const quint16 port = m_gw->port;
        auto r = offThread([port] {
            TestHttpClient c(port);
            QList<HttpResult> out;
            out << c.request("POST", "/webhooks/nope", "{}");
            out << c.request("GET", "/nothing-here");
            out << c.request("GET", "/webhooks/stripe");
            out << c.request("PUT", "/webhooks/fedapay", "{}");
            out << c.request("POST", "/healthz", "{}");
            out << c.request("DELETE", "/metrics");
            return out;
        });
        QCOMPARE(r[0].status, 404);
        QCOMPARE(r[1].status, 404);
        QCOMPARE(r[2].status, 405);
        QCOMPARE(r[2].header("allow"), QByteArray("POST"));
        QCOMPARE(r[3].status, 405);
        QCOMPARE(r[4].status, 405);
        QCOMPARE(r[4].header("allow"), QByteArray("GET"));
        QCOMPARE(r[5].status, 405);
    }

    void oversizedBodyIs413()
    {
        const QByteArray body(256 * 1024 + 1, 'x');
        const InboundRequest big = StripeSigner::sign(body, kGwStripeSecret, nowSeconds());
        HttpResult r = post(m_gw->port, "/webhooks/stripe", big);
        QCOMPARE(r.status, 413);
        // With Expect: 100-continue the body is refused before it is sent.
        const quint16 port = m_gw->port;
        HttpResult early = offThread([port] {
            TestHttpClient c(port);
            c.send("POST /webhooks/stripe HTTP/1.1\r\nHost: x\r\nContent-Length: 9000000\r\n"
                   "Expect: 100-continue\r\n\r\n");
            return c.readResponse();
        });
        QCOMPARE(early.status, 413);
        // Exactly at the limit is not too large (it is only unsigned garbage).
        const InboundRequest atLimit =
            StripeSigner::sign(QByteArray(256 * 1024, 'x'), kGwStripeSecret, nowSeconds());
        QCOMPARE(post(m_gw->port, "/webhooks/stripe", atLimit).status, 400);
    }

    void protocolErrors()
    {
        const quint16 port = m_gw->port;
        auto r = offThread([port] {
            QList<HttpResult> out;
            out << TestHttpClient(port).raw("GARBAGE\r\n\r\n");
            out << TestHttpClient(port).raw(
                "POST /webhooks/stripe HTTP/1.1\r\n"
                "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
            out << TestHttpClient(port).raw(
                "GET /healthz HTTP/1.1\r\nX-Big: " + QByteArray(17000, 'a') + "\r\n\r\n");
            out << TestHttpClient(port).raw("GET /healthz HTTP/2.0\r\n\r\n");
            return out;
        });
        QCOMPARE(r[0].status, 400);
        QCOMPARE(r[1].status, 411);
        QCOMPARE(r[2].status, 431);
        QCOMPARE(r[3].status, 505);
    }

    void keepAliveAndPipelining()
    {
        const quint16 port = m_gw->port;
        const InboundRequest a = signedStripe(QStringLiteral("evt_pipe_a"));
        const InboundRequest b = signedStripe(QStringLiteral("evt_pipe_b"));
        auto r = offThread([&] {
            auto build = [](const InboundRequest &x) -> QByteArray {
                QByteArray out = "POST /webhooks/stripe HTTP/1.1\r\nHost: x\r\n";
                for (const auto &h : x.headers)
                    out += h.first + ": " + h.second + "\r\n";
                return out + "Content-Length: " + QByteArray::number(x.body.size()) + "\r\n\r\n" +
                       x.body;
            };
            TestHttpClient c(port);
            c.send(build(a) + build(b) + "GET /healthz HTTP/1.1\r\n\r\n");
            QList<HttpResult> out{c.readResponse(), c.readResponse(), c.readResponse()};
            out << c.request("POST", "/webhooks/stripe", a.body, a.headers); // same connection
            return out;
        });
        QCOMPARE(r[0].status, 200);
        QCOMPARE(json(r[0]).value("callback_id").toString(), QStringLiteral("stripe:evt_pipe_a"));
        QCOMPARE(json(r[1]).value("callback_id").toString(), QStringLiteral("stripe:evt_pipe_b"));
        QCOMPARE(r[2].status, 200);
        QCOMPARE(json(r[3]).value("status").toString(), QStringLiteral("already received"));
    }

    void healthAndMetrics()
    {
        post(m_gw->port, "/webhooks/stripe", signedStripe(QStringLiteral("evt_m1")));
        post(m_gw->port, "/webhooks/stripe", signedStripe(QStringLiteral("evt_m1")));
        post(m_gw->port, "/webhooks/stripe", signedStripe(QStringLiteral("evt_m2"), "nope"));
        const quint16 port = m_gw->port;
        HttpResult health =
            offThread([port] { return TestHttpClient(port).request("GET", "/healthz"); });
        QCOMPARE(health.status, 200);
        QCOMPARE(json(health).value("ready").toBool(), true);
        QCOMPARE(json(health)
                     .value("databases")
                     .toObject()
                     .value("orders")
                     .toObject()
                     .value("reachable")
                     .toBool(),
                 true);
        HttpResult m =
            offThread([port] { return TestHttpClient(port).request("GET", "/metrics"); });
        QCOMPARE(m.status, 200);
        QVERIFY(m.header("content-type").startsWith("text/plain; version=0.0.4"));
        for (const char *line :
             {"oncepay_gateway_callbacks_received_total{channel=\"stripe\"} 3",
              "oncepay_gateway_callbacks_stored_total{channel=\"stripe\"} 1",
              "oncepay_gateway_callbacks_duplicate_total{channel=\"stripe\"} 1",
              "oncepay_gateway_callbacks_rejected_total{channel=\"stripe\",reason=\"bad_"
              "signature\"} 1",
              "oncepay_message_table_depth{status=\"pending\"} 1", "oncepay_gateway_database_up 1",
              "oncepay_gateway_commit_batch_size_count 2",
              "oncepay_gateway_commit_seconds_bucket{le=\"+Inf\"} 2",
              "oncepay_gateway_http_responses_total{code=\"200\"}"})
            QVERIFY2(m.body.contains(line), line);
    }

    void shutdownFinishesInFlight()
    {
        const quint16 port = m_gw->port;
        const InboundRequest req = signedStripe(QStringLiteral("evt_drain"));
        QByteArray head = "POST /webhooks/stripe HTTP/1.1\r\nHost: x\r\n";
        for (const auto &h : req.headers)
            head += h.first + ": " + h.second + "\r\n";
        head += "Content-Length: " + QByteArray::number(req.body.size()) + "\r\n\r\n";
        const QByteArray firstHalf = head + req.body.left(100);
        const QByteArray secondHalf = req.body.mid(100);

        QSignalSpy stopped(m_gw->gateway.get(), &Gateway::stopped);
        std::atomic<int> phase{0};
        HttpResult answer;
        bool refusedNew = false;
        std::thread client([&] {
            TestHttpClient c(port);
            c.send(firstHalf);
            phase = 1;
            while (phase.load() != 2)
                QThread::msleep(5);
            QTcpSocket late; // the listener is closed: a new connection is refused
            late.connectToHost(QStringLiteral("127.0.0.1"), port);
            refusedNew = !late.waitForConnected(2000);
            c.send(secondHalf);
            answer = c.readResponse();
            phase = 3;
        });
        QTRY_COMPARE(phase.load(), 1);
        QTest::qWait(100); // the head is in
        m_gw->gateway->shutdown();
        phase = 2;
        QTRY_COMPARE_WITH_TIMEOUT(phase.load(), 3, 20000);
        client.join();
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.header("connection"), QByteArray("close"));
        QVERIFY(refusedNew);
        QTRY_COMPARE(stopped.count(), 1);
        QCOMPARE(count(m_config, "SELECT COUNT(*) FROM callback_messages"), 1);
    }

private:
#ifdef ONCEPAY_HAVE_PAYPAL
    PayPalSigner m_paypal;
#endif
    std::unique_ptr<ScratchDatabases> m_dbs;
    AppConfig m_config;
    std::unique_ptr<GatewayHarness> m_gw;
};

QTEST_GUILESS_MAIN(TstGatewayHttp)
#include "tst_gatewayhttp.moc"
