#pragma once

// Shared by the gateway tests: a blocking HTTP/1.1 client over QTcpSocket (one keep-alive
// connection; for client threads, never the gateway's thread), a way to run such a client
// off the main thread while the main thread's event loop serves the gateway, signed
// requests for each channel, and an in-process gateway on scratch databases.

#include "channels/fedapay/fedapayevents.h"
#include "channels/fedapay/fedapaysigner.h"
#include "channels/stripe/stripeevents.h"
#include "channels/stripe/stripesigner.h"
#include "db/sql.h"
#include "gateway/gateway.h"
#include "testdatabases.h"

#if __has_include("channels/kakaopay/kakaopaysigner.h")
#include "channels/kakaopay/kakaopayevents.h"
#include "channels/kakaopay/kakaopaysigner.h"
#define ONCEPAY_HAVE_KAKAOPAY 1
#endif
#if __has_include("channels/paypal/paypalsigner.h")
#include "channels/paypal/paypalevents.h"
#include "channels/paypal/paypalsigner.h"
#define ONCEPAY_HAVE_PAYPAL 1
#endif

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QTcpSocket>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

namespace OncePay::Test {

inline const QByteArray kGwStripeSecret = QByteArrayLiteral("whsec_gateway_stripe_0123456789");
inline const QByteArray kGwFedaPaySecret = QByteArrayLiteral("wh_sandbox_gateway_fedapay_0123");
inline const QByteArray kGwKakaoPaySecret =
    QByteArrayLiteral("whsec_") + QByteArrayLiteral("kakaopay-gateway-secret!").toBase64();

using Headers = QList<QPair<QByteArray, QByteArray>>;

struct HttpResult {
    int status = -1;
    Headers headers;
    QByteArray body;
    QString error;

    QByteArray header(const QByteArray &lowerName) const
    {
        for (const auto &h : headers)
            if (h.first == lowerName)
                return h.second;
        return {};
    }
};

class TestHttpClient {
public:
    explicit TestHttpClient(quint16 port, int timeoutMs = 30000)
        : m_port(port)
        , m_timeoutMs(timeoutMs)
    {}

    HttpResult request(const QByteArray &method, const QByteArray &path,
                       const QByteArray &body = {}, const Headers &headers = {}, bool close = false)
    {
        QByteArray out = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        for (const auto &h : headers)
            out += h.first + ": " + h.second + "\r\n";
        if (!body.isEmpty() || method == "POST")
            out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
        if (close)
            out += "Connection: close\r\n";
        out += "\r\n" + body;
        return raw(out);
    }

    // Sends bytes as they are and reads one response.
    HttpResult raw(const QByteArray &bytes)
    {
        if (!send(bytes))
            return failed(QStringLiteral("send: ") + m_socket->errorString());
        return readResponse();
    }

    bool send(const QByteArray &bytes)
    {
        if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState) {
            m_socket = std::make_unique<QTcpSocket>();
            m_buf.clear();
            m_socket->connectToHost(QStringLiteral("127.0.0.1"), m_port);
            if (!m_socket->waitForConnected(m_timeoutMs))
                return false;
        }
        m_socket->write(bytes);
        while (m_socket->bytesToWrite() > 0)
            if (!m_socket->waitForBytesWritten(m_timeoutMs))
                return false;
        return true;
    }

    HttpResult readResponse()
    {
        QDeadlineTimer deadline(m_timeoutMs);
        qsizetype end = -1;
        while ((end = m_buf.indexOf("\r\n\r\n")) < 0) {
            if (!fill(deadline))
                return failed(QStringLiteral("no response head: ") + m_socket->errorString());
        }
        HttpResult r;
        const QList<QByteArray> lines = m_buf.left(end).split('\n');
        m_buf.remove(0, end + 4);
        const QList<QByteArray> first = lines.first().trimmed().split(' ');
        r.status = first.size() >= 2 ? first[1].toInt() : -1;
        qint64 length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            const QByteArray name = lines[i].left(colon).trimmed().toLower();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            r.headers.append({name, value});
            if (name == "content-length")
                length = value.toLongLong();
        }
        if (r.status == 100) // interim answer: the real one follows
            return readResponse();
        while (m_buf.size() < length)
            if (!fill(deadline))
                return failed(QStringLiteral("short body"));
        r.body = m_buf.left(length);
        m_buf.remove(0, length);
        if (r.header("connection") == "close")
            m_socket->waitForDisconnected(1000);
        return r;
    }

    // True when the server closed the connection (read returns EOF) within `ms`.
    bool closedByServer(int ms)
    {
        if (!m_socket)
            return true;
        if (m_socket->state() == QAbstractSocket::UnconnectedState)
            return true;
        return m_socket->waitForDisconnected(ms);
    }

private:
    bool fill(const QDeadlineTimer &deadline)
    {
        if (m_socket->bytesAvailable() == 0 &&
            !m_socket->waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime()))))
            return false;
        m_buf += m_socket->readAll();
        return true;
    }
    HttpResult failed(const QString &why)
    {
        HttpResult r;
        r.error = why;
        return r;
    }

    quint16 m_port;
    int m_timeoutMs;
    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_buf;
};

// Runs `fn` on its own thread while this thread's event loop keeps serving.
template <typename Fn> auto offThread(Fn fn, int timeoutMs = 120000) -> decltype(fn())
{
    std::optional<decltype(fn())> result;
    std::atomic<bool> done{false};
    std::thread t([&] {
        result.emplace(fn());
        done.store(true);
    });
    QDeadlineTimer deadline(timeoutMs);
    while (!done.load() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    t.join();
    return std::move(*result);
}

inline qint64 nowSeconds()
{
    return QDateTime::currentSecsSinceEpoch();
}

inline Headers headersOf(const InboundRequest &r)
{
    return r.headers;
}

inline StripeEvents::Params stripeParams(const QString &eventId,
                                         const QString &order = QStringLiteral("o-1"))
{
    StripeEvents::Params p;
    p.eventId = eventId;
    p.orderId = order;
    p.attemptId = QStringLiteral("a1");
    p.amountMinor = 2112;
    p.currency = QStringLiteral("usd");
    p.paymentIntentId = QStringLiteral("pi_") + eventId;
    p.createdSeconds = nowSeconds();
    return p;
}

inline InboundRequest signedStripe(const QString &eventId,
                                   const QByteArray &secret = kGwStripeSecret)
{
    return StripeSigner::sign(StripeEvents::paymentIntentSucceeded(stripeParams(eventId)), secret,
                              nowSeconds());
}

inline InboundRequest signedFedaPay(qint64 transactionId,
                                    const QByteArray &secret = kGwFedaPaySecret)
{
    FedaPayEvents::Params p;
    p.transactionId = transactionId;
    p.orderId = QStringLiteral("o-f");
    p.attemptId = QStringLiteral("a1");
    p.amount = 5000;
    p.timestampMs = nowSeconds() * 1000;
    return FedaPaySigner::sign(FedaPayEvents::approved(p), secret, nowSeconds());
}

// Every callback id in the message table (empty on error: the caller's comparisons fail).
inline QSet<QString> storedCallbackIds(const QSqlDatabase &db)
{
    QSet<QString> ids;
    auto q = Sql::exec(db, QStringLiteral("SELECT callback_id FROM callback_messages"));
    while (q && q->next())
        ids.insert(q->value(0).toString());
    return ids;
}

// An AppConfig over the scratch databases with every channel's test secret.
inline AppConfig gatewayConfig(const ScratchDatabases &dbs)
{
    AppConfig c = dbs.config();
    c.channels[QStringLiteral("stripe")][QStringLiteral("webhook_secret")] =
        QString::fromLatin1(kGwStripeSecret);
    c.channels[QStringLiteral("fedapay")][QStringLiteral("webhook_secret")] =
        QString::fromLatin1(kGwFedaPaySecret);
    c.channels[QStringLiteral("kakaopay")][QStringLiteral("webhook_secret")] =
        QString::fromLatin1(kGwKakaoPaySecret);
    return c;
}

// A gateway on 127.0.0.1 and a free port, on the calling thread's event loop.
struct GatewayHarness {
    explicit GatewayHarness(const AppConfig &config, GatewayOptions options = {})
        : channels(config)
    {
        options.address = QHostAddress::LocalHost;
        options.port = 0;
        gateway = std::make_unique<Gateway>(config, channels, Clock::system(), options);
        auto p = gateway->start();
        if (!p)
            qFatal("gateway: %s", qPrintable(p.error().message));
        port = *p;
    }

    ChannelRegistry channels;
    std::unique_ptr<Gateway> gateway;
    quint16 port = 0;
};

} // namespace OncePay::Test
