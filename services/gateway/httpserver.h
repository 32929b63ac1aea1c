#pragma once

// A small HTTP/1.1 server over QTcpServer for the webhook gateway: keep-alive, one request
// at a time per connection (a pipelined request waits until the previous answer is out),
// Content-Length bodies only, and answers that may come later and from another thread.
//
// Why not QHttpServer: the Debian Qt is 6.4, whose QHttpServer (a) buffers any body in memory
// before a handler can refuse it, so 413 cannot protect the process; (b) hands a handler a
// QHttpServerResponder that points at a raw QTcpSocket which is deleted when the client goes
// away, so an answer that waits for a group commit on another thread may write to a freed
// socket; (c) parses the next pipelined request while an earlier answer is still pending, so
// answers can overtake each other; and (d) cannot stop accepting while finishing in-flight
// requests. Each of these is a correctness problem for "200 only after commit", and the HTTP
// subset that channels use (POST with Content-Length, GET for probes) is small enough to own.
//
// Thread contract: construct, listen and stop on one thread with an event loop; the handler
// is called on that thread. HttpReply::send() may be called from any thread, once; a reply
// dropped without send() answers 500 so no client waits forever.

#include "core/result.h"
#include "httpmessage.h"

#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QMutex>
#include <QObject>

#include <functional>
#include <memory>

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace OncePay {

class HttpServer;

// Keeps replies safe after the server is gone: they check the anchor under its lock.
struct HttpServerAnchor {
    QMutex mutex;
    HttpServer *server = nullptr;
};

class HttpReply {
public:
    void send(HttpResponse response) const;

private:
    friend class HttpServer;
    struct State;
    std::shared_ptr<State> m_state;
};

struct HttpLimits {
    qint64 maxBodyBytes = 256 * 1024;
    int maxHeaderBytes = 16 * 1024;
    int maxConnections = 1024;
    int readTimeoutMs = 15000; // a started request must make progress within this
    int idleTimeoutMs = 60000; // an idle keep-alive connection is closed after this
};

// What the access log needs about one answered request.
struct HttpAccessRecord {
    QByteArray method;
    QByteArray path;
    int status = 0;
    qint64 bytesIn = 0;
    qint64 bytesOut = 0;
    qint64 latencyUs = 0;
    QString remote;
    QString note;
    bool clientGone = false; // the client disconnected before the answer was ready
};

class HttpServer : public QObject {
    Q_OBJECT
public:
    using Handler = std::function<void(const HttpRequest &, const HttpReply &)>;
    using AccessObserver = std::function<void(const HttpAccessRecord &)>;
    // A request refused 413 for the body its Content-Length declares (past maxBodyBytes): its
    // head (method, path, headers, remote; never a body) and the declared length, once, as it
    // is refused, on the server's thread. The handler never sees such a request.
    using OversizeObserver = std::function<void(const HttpRequest &head, qint64 declaredBytes)>;

    HttpServer(HttpLimits limits, Handler handler, AccessObserver observer,
               QObject *parent = nullptr);
    ~HttpServer() override;

    void setOversizeObserver(OversizeObserver observer) { m_oversize = std::move(observer); }

    // Returns the bound port (useful with port 0).
    Result<quint16> listen(const QHostAddress &address, quint16 port);

    // Stops accepting, closes idle connections and answers the rest with Connection: close.
    // Emits drained() once no request is in progress any more.
    void stopAccepting();
    bool draining() const { return m_draining; }
    // Requests received in part or in full and not yet answered.
    int busyConnections() const;
    int openConnections() const { return int(m_conns.size()); }
    void closeAll();

Q_SIGNALS:
    void drained();

private:
    friend class HttpReply;
    struct Conn;

    void onNewConnection();
    void onReadable(Conn *c);
    void parse(Conn *c);
    bool parseHead(Conn *c, const QByteArray &head, int *status);
    void dispatch(Conn *c);
    void deliver(quint64 connId, quint64 seq, const HttpResponse &response);
    void writeResponse(Conn *c, const HttpResponse &response, bool close);
    void refuse(Conn *c, int status, const QString &why);
    void onDisconnected(quint64 connId);
    void sweep();
    void checkDrained();
    void observe(const Conn *c, const HttpResponse &response, qint64 bytesOut, bool gone);

    HttpLimits m_limits;
    Handler m_handler;
    AccessObserver m_observer;
    OversizeObserver m_oversize;
    QTcpServer *m_tcp = nullptr;
    QTimer *m_sweep = nullptr;
    QHash<quint64, Conn *> m_conns;
    quint64 m_nextId = 1;
    bool m_draining = false;
    bool m_drainedEmitted = false;
    QElapsedTimer m_clock;
    std::shared_ptr<HttpServerAnchor> m_anchor;
};

} // namespace OncePay
