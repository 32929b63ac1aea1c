#include "httpserver.h"

#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <atomic>

namespace OncePay {

struct HttpReply::State {
    std::shared_ptr<HttpServerAnchor> anchor;
    quint64 connId = 0;
    quint64 seq = 0;
    std::atomic<bool> sent{false};

    void post(HttpResponse response)
    {
        QMutexLocker lock(&anchor->mutex);
        if (!anchor->server)
            return; // the server is gone: nobody is left to answer
        HttpServer *server = anchor->server;
        const quint64 id = connId;
        const quint64 s = seq;
        QMetaObject::invokeMethod(
            server, [server, id, s, r = std::move(response)] { server->deliver(id, s, r); },
            Qt::QueuedConnection);
    }
    ~State()
    {
        if (!sent.exchange(true))
            post(HttpResponse::error(500, QStringLiteral("internal"),
                                     QStringLiteral("the request was dropped without an answer")));
    }
};

void HttpReply::send(HttpResponse response) const
{
    if (!m_state || m_state->sent.exchange(true))
        return;
    m_state->post(std::move(response));
}

struct HttpServer::Conn {
    enum class State {
        Head,     // reading the request line and headers
        Body,     // reading Content-Length bytes
        Discard,  // reading and dropping an oversized body, then 413
        Handling, // the handler has the request; waiting for its answer
        Closing,  // last answer written, closing
        Gone,     // the client left while Handling; kept for the access log
    };
    quint64 id = 0;
    QTcpSocket *socket = nullptr;
    QString remote;
    QByteArray buf;
    State state = State::Head;
    HttpRequest request;
    qint64 contentLength = 0;
    qint64 headBytes = 0;
    bool keepAlive = true;
    bool expectContinue = false;
    quint64 seq = 0;
    qint64 lastActivityMs = 0;
    qint64 startedNs = 0;

    bool partial() const { return state == State::Head && !buf.isEmpty(); }
    bool busy() const
    {
        return partial() || state == State::Body || state == State::Discard ||
               state == State::Handling || state == State::Gone;
    }
};

namespace {

bool isToken(const QByteArray &s)
{
    if (s.isEmpty() || s.size() > 64)
        return false;
    for (char ch : s)
        if (ch <= 0x20 || ch >= 0x7f || ch == ':')
            return false;
    return true;
}

} // namespace

HttpServer::HttpServer(HttpLimits limits, Handler handler, AccessObserver observer, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_handler(std::move(handler))
    , m_observer(std::move(observer))
    , m_anchor(std::make_shared<HttpServerAnchor>())
{
    m_anchor->server = this;
    m_clock.start();
    m_sweep = new QTimer(this);
    m_sweep->setInterval(500);
    connect(m_sweep, &QTimer::timeout, this, &HttpServer::sweep);
}

HttpServer::~HttpServer()
{
    {
        QMutexLocker lock(&m_anchor->mutex);
        m_anchor->server = nullptr;
    }
    closeAll();
}

Result<quint16> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    m_tcp = new QTcpServer(this);
    if (!m_tcp->listen(address, port))
        return makeError(ErrorCode::Unavailable, QStringLiteral("cannot listen on %1:%2: %3")
                                                     .arg(address.toString())
                                                     .arg(port)
                                                     .arg(m_tcp->errorString()));
    connect(m_tcp, &QTcpServer::newConnection, this, &HttpServer::onNewConnection);
    m_sweep->start();
    return m_tcp->serverPort();
}

void HttpServer::onNewConnection()
{
    while (QTcpSocket *socket = m_tcp->nextPendingConnection()) {
        if (m_draining || m_conns.size() >= m_limits.maxConnections) {
            socket->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                          "Retry-After: 1\r\nConnection: close\r\n\r\n");
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            continue;
        }
        auto *c = new Conn;
        c->id = m_nextId++;
        c->socket = socket;
        c->remote = socket->peerAddress().toString();
        if (c->remote.startsWith(QStringLiteral("::ffff:")))
            c->remote = c->remote.mid(7);
        c->lastActivityMs = m_clock.elapsed();
        // Backpressure: while a request is handled Qt stops reading once this much is buffered.
        socket->setReadBufferSize(m_limits.maxHeaderBytes + m_limits.maxBodyBytes + 65536);
        m_conns.insert(c->id, c);
        const quint64 id = c->id;
        connect(socket, &QTcpSocket::readyRead, this, [this, id] {
            if (Conn *conn = m_conns.value(id))
                onReadable(conn);
        });
        connect(socket, &QTcpSocket::disconnected, this, [this, id] { onDisconnected(id); });
        onReadable(c);
    }
}

void HttpServer::onReadable(Conn *c)
{
    if (!c->socket || c->state == Conn::State::Handling || c->state == Conn::State::Closing)
        return; // the rest waits in the socket until the current answer is out
    const QByteArray chunk = c->socket->readAll();
    if (!chunk.isEmpty())
        c->lastActivityMs = m_clock.elapsed();
    if (c->state == Conn::State::Discard) {
        c->contentLength -= chunk.size();
        c->request.body.clear();
        if (c->contentLength <= 0)
            refuse(c, 413, QStringLiteral("body larger than %1 bytes").arg(m_limits.maxBodyBytes));
        return;
    }
    if (c->buf.isEmpty() && !chunk.isEmpty() && c->state == Conn::State::Head)
        c->startedNs = m_clock.nsecsElapsed();
    c->buf += chunk;
    parse(c);
}

void HttpServer::parse(Conn *c)
{
    if (c->state == Conn::State::Head) {
        if (c->buf.isEmpty())
            return;
        const qsizetype end = c->buf.indexOf("\r\n\r\n");
        if (end < 0 || end > m_limits.maxHeaderBytes) {
            if (end > m_limits.maxHeaderBytes || c->buf.size() > m_limits.maxHeaderBytes)
                refuse(c, 431, QStringLiteral("request head too large"));
            return;
        }
        const QByteArray head = c->buf.left(end);
        c->buf.remove(0, end + 4);
        c->headBytes = end + 4;
        int status = 400;
        if (!parseHead(c, head, &status)) {
            refuse(c, status, QStringLiteral("malformed request"));
            return;
        }
        if (c->contentLength > m_limits.maxBodyBytes) {
            if (m_oversize)
                m_oversize(c->request, c->contentLength);
            // Without 100-continue the client is already sending: read it to the end so
            // that closing does not reset the connection before it reads our answer.
            if (c->expectContinue || c->contentLength > 64 * m_limits.maxBodyBytes) {
                refuse(c, 413,
                       QStringLiteral("body larger than %1 bytes").arg(m_limits.maxBodyBytes));
                return;
            }
            c->state = Conn::State::Discard;
            c->contentLength -= c->buf.size();
            c->buf.clear();
            if (c->contentLength <= 0)
                refuse(c, 413,
                       QStringLiteral("body larger than %1 bytes").arg(m_limits.maxBodyBytes));
            return;
        }
        if (c->expectContinue && c->buf.size() < c->contentLength)
            c->socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        c->state = Conn::State::Body;
    }
    if (c->state == Conn::State::Body) {
        if (c->buf.size() < c->contentLength)
            return;
        c->request.body = c->buf.left(c->contentLength);
        c->buf.remove(0, c->contentLength);
        dispatch(c);
    }
}

bool HttpServer::parseHead(Conn *c, const QByteArray &head, int *status)
{
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> first = lines.first().trimmed().split(' ');
    if (first.size() != 3 || !isToken(first[0]) || !first[1].startsWith('/'))
        return false;
    if (first[2] != "HTTP/1.1" && first[2] != "HTTP/1.0") {
        *status = 505;
        return false;
    }
    HttpRequest r;
    r.method = first[0];
    r.target = first[1].left(2048);
    r.path = r.target.left(r.target.indexOf('?') < 0 ? r.target.size() : r.target.indexOf('?'));
    r.remote = c->remote;
    bool keepAlive = first[2] == "HTTP/1.1";
    qint64 length = -1;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].endsWith('\r') ? lines[i].chopped(1) : lines[i];
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.left(colon).toLower();
        if (colon <= 0 || !isToken(name))
            return false; // also refuses obsolete line folding
        const QByteArray value = line.mid(colon + 1).trimmed();
        r.headers.append({name, value});
        if (name == "content-length") {
            bool ok = false;
            const qint64 n = value.toLongLong(&ok);
            if (!ok || n < 0 || value.size() > 15 || (length >= 0 && n != length))
                return false;
            length = n;
        } else if (name == "transfer-encoding") {
            *status = 411; // chunked bodies are not accepted: channels send Content-Length
            return false;
        } else if (name == "connection") {
            const QByteArray v = value.toLower();
            if (v.contains("close"))
                keepAlive = false;
            else if (v.contains("keep-alive"))
                keepAlive = true;
        } else if (name == "expect") {
            if (value.toLower() != "100-continue") {
                *status = 400;
                return false;
            }
            c->expectContinue = true;
        }
    }
    c->request = std::move(r);
    c->contentLength = std::max<qint64>(length, 0);
    c->keepAlive = keepAlive;
    return true;
}

void HttpServer::dispatch(Conn *c)
{
    c->state = Conn::State::Handling;
    ++c->seq;
    HttpReply reply;
    reply.m_state = std::make_shared<HttpReply::State>();
    reply.m_state->anchor = m_anchor;
    reply.m_state->connId = c->id;
    reply.m_state->seq = c->seq;
    m_handler(c->request, reply);
}

void HttpServer::deliver(quint64 connId, quint64 seq, const HttpResponse &response)
{
    Conn *c = m_conns.value(connId);
    if (!c || c->seq != seq)
        return;
    if (c->state == Conn::State::Gone) {
        observe(c, response, 0, true);
        m_conns.remove(connId);
        delete c;
        checkDrained();
        return;
    }
    if (c->state != Conn::State::Handling)
        return;
    const bool close = !c->keepAlive || m_draining;
    writeResponse(c, response, close);
    if (close)
        return;
    c->state = Conn::State::Head;
    c->request = {};
    c->expectContinue = false;
    c->contentLength = 0;
    c->startedNs = m_clock.nsecsElapsed();
    parse(c); // a pipelined request already buffered
    // Refusing it may have closed the connection; look it up again before reading on.
    if (Conn *again = m_conns.value(connId))
        onReadable(again); // and whatever waited in the socket
}

void HttpServer::writeResponse(Conn *c, const HttpResponse &response, bool close)
{
    QByteArray out;
    out.reserve(256 + response.body.size());
    out += "HTTP/1.1 " + QByteArray::number(response.status) + ' ' +
           httpReasonPhrase(response.status) + "\r\n";
    out += "Content-Type: " + response.contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
    out += "Cache-Control: no-store\r\n";
    out += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n";
    for (const auto &h : response.headers)
        out += h.first + ": " + h.second + "\r\n";
    out += "\r\n";
    out += response.body;
    c->socket->write(out);
    observe(c, response, out.size(), false);
    if (close) {
        c->state = Conn::State::Closing;
        c->socket->disconnectFromHost();
    }
}

void HttpServer::refuse(Conn *c, int status, const QString &why)
{
    if (c->request.method.isEmpty())
        c->request.method = "-";
    writeResponse(c, HttpResponse::error(status, QStringLiteral("http_%1").arg(status), why), true);
    checkDrained();
}

void HttpServer::onDisconnected(quint64 connId)
{
    Conn *c = m_conns.value(connId);
    if (!c)
        return;
    c->socket->deleteLater();
    c->socket = nullptr;
    if (c->state == Conn::State::Handling) {
        c->state = Conn::State::Gone; // its answer is still coming; log it then
        return;
    }
    m_conns.remove(connId);
    delete c;
    checkDrained();
}

void HttpServer::observe(const Conn *c, const HttpResponse &response, qint64 bytesOut, bool gone)
{
    if (!m_observer)
        return;
    HttpAccessRecord r;
    r.method = c->request.method;
    r.path = c->request.path;
    r.status = response.status;
    r.bytesIn = c->headBytes + c->request.body.size();
    r.bytesOut = bytesOut;
    r.latencyUs = c->startedNs > 0 ? (m_clock.nsecsElapsed() - c->startedNs) / 1000 : 0;
    r.remote = c->remote;
    r.note = response.note;
    r.clientGone = gone;
    m_observer(r);
}

void HttpServer::sweep()
{
    const qint64 now = m_clock.elapsed();
    const QList<Conn *> conns = m_conns.values();
    for (Conn *c : conns) {
        const qint64 quiet = now - c->lastActivityMs;
        if (c->state == Conn::State::Head && c->buf.isEmpty()) {
            if (quiet > m_limits.idleTimeoutMs || m_draining)
                c->socket->disconnectFromHost();
        } else if (c->busy() && c->state != Conn::State::Handling &&
                   c->state != Conn::State::Gone && quiet > m_limits.readTimeoutMs) {
            refuse(c, 408, QStringLiteral("request not completed in time"));
        }
    }
}

void HttpServer::stopAccepting()
{
    if (m_draining)
        return;
    m_draining = true;
    if (m_tcp)
        m_tcp->close();
    const QList<Conn *> conns = m_conns.values();
    for (Conn *c : conns)
        if (c->socket && c->state == Conn::State::Head && c->buf.isEmpty())
            c->socket->disconnectFromHost();
    checkDrained();
}

int HttpServer::busyConnections() const
{
    int n = 0;
    for (const Conn *c : m_conns)
        n += c->busy() ? 1 : 0;
    return n;
}

void HttpServer::checkDrained()
{
    if (!m_draining || m_drainedEmitted || busyConnections() > 0)
        return;
    m_drainedEmitted = true;
    QMetaObject::invokeMethod(this, &HttpServer::drained, Qt::QueuedConnection);
}

void HttpServer::closeAll()
{
    if (m_tcp)
        m_tcp->close();
    const QList<Conn *> conns = m_conns.values();
    m_conns.clear();
    for (Conn *c : conns) {
        if (c->socket) {
            c->socket->disconnect(this);
            c->socket->abort();
            c->socket->deleteLater();
        }
        delete c;
    }
}

} // namespace OncePay
