#include "gateway.h"

#include "db/sql.h"

#include <QJsonObject>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

const QStringList kChannelPaths = {QStringLiteral("paypal"), QStringLiteral("stripe"),
                                   QStringLiteral("fedapay"), QStringLiteral("kakaopay")};

// Paths are chosen by the client: keep the log line one line of printable ASCII.
std::string printable(const QByteArray &s, bool spaces = false)
{
    std::string out;
    for (char ch : s.left(160))
        out += ((ch > 0x20 || (spaces && ch == 0x20)) && ch < 0x7f && ch != '"') ? ch : '?';
    return out.empty() ? std::string("-") : out;
}

HttpResponse methodNotAllowed(const QByteArray &allow)
{
    HttpResponse r = HttpResponse::error(405, QStringLiteral("method_not_allowed"),
                                         QStringLiteral("use ") + QString::fromLatin1(allow));
    r.headers.append({QByteArrayLiteral("Allow"), allow});
    return r;
}

HttpResponse unavailable(const QString &reason, const QString &message)
{
    HttpResponse r = HttpResponse::error(503, reason, message);
    r.headers.append({QByteArrayLiteral("Retry-After"), QByteArrayLiteral("5")});
    return r;
}

} // namespace

Gateway::Gateway(const AppConfig &config, const ChannelRegistry &channels, const Clock &clock,
                 GatewayOptions options, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_channels(channels)
    , m_clock(clock)
    , m_options(options)
{
    m_verifier = std::make_unique<IngestService>(m_noConnection, m_channels, m_clock,
                                                 IngestLimits{m_options.maxBodyBytes});
    m_committer = std::make_unique<GroupCommitter>(
        m_config.orders, m_channels, m_clock,
        GroupCommitOptions{m_options.batchWaitMs, m_options.maxBatch, m_options.maxQueue},
        m_metrics);
    m_rejections = std::make_unique<DbTaskThread>(
        QStringLiteral("rejections"),
        std::map<DbRole, ConnectionProfile>{{DbRole::Orders, m_config.orders}}, 1000);
    m_probe = std::make_unique<DbTaskThread>(
        QStringLiteral("probe"),
        std::map<DbRole, ConnectionProfile>{{DbRole::Orders, m_config.orders},
                                            {DbRole::Audit, m_config.audit}},
        64);
    HttpLimits limits;
    limits.maxBodyBytes = m_options.maxBodyBytes;
    limits.maxConnections = m_options.maxConnections;
    limits.readTimeoutMs = m_options.readTimeoutMs;
    limits.idleTimeoutMs = m_options.idleTimeoutMs;
    m_server = new HttpServer(
        limits, [this](const HttpRequest &rq, const HttpReply &rp) { handle(rq, rp); },
        [this](const HttpAccessRecord &r) { access(r); }, this);
    m_server->setOversizeObserver(
        [this](const HttpRequest &head, qint64 declared) { oversize(head, declared); });
    m_drainDeadline.setSingleShot(true);
    connect(&m_drainDeadline, &QTimer::timeout, this, &Gateway::finishShutdown);
    connect(m_server, &HttpServer::drained, this, &Gateway::finishShutdown);
}

Gateway::~Gateway()
{
    // Threads first: their answers are posted to the server, which goes last.
    m_committer->stop();
    m_rejections->stop();
    m_probe->stop();
    delete m_server;
    m_server = nullptr;
}

Result<quint16> Gateway::start()
{
    auto port = m_server->listen(m_options.address, m_options.port);
    if (!port)
        return port.error();
    m_committer->start();
    m_rejections->start();
    m_probe->start();
    m_started = true;
    spdlog::info("gateway: listening on {} (batch_wait_ms {}, max_batch {}, max_body_bytes {})",
                 m_options.listenText(*port).toStdString(), m_options.batchWaitMs,
                 m_options.maxBatch, m_options.maxBodyBytes);
    return port;
}

void Gateway::handle(const HttpRequest &request, const HttpReply &reply)
{
    const QByteArray &path = request.path;
    if (path == "/healthz") {
        if (request.method != "GET")
            return reply.send(methodNotAllowed("GET"));
        return health(reply);
    }
    if (path == "/metrics") {
        if (request.method != "GET")
            return reply.send(methodNotAllowed("GET"));
        return metricsPage(reply);
    }
    if (path.startsWith("/webhooks/")) {
        const QString channel = QString::fromLatin1(path.mid(10));
        if (!kChannelPaths.contains(channel) || !m_channels.adapter(channel))
            return reply.send(HttpResponse::error(404, QStringLiteral("unknown_channel"),
                                                  QStringLiteral("no such channel")));
        if (request.method != "POST")
            return reply.send(methodNotAllowed("POST"));
        return webhook(channel, request, reply);
    }
    reply.send(
        HttpResponse::error(404, QStringLiteral("not_found"), QStringLiteral("no such path")));
}

void Gateway::webhook(const QString &channel, const HttpRequest &request, const HttpReply &reply)
{
    m_metrics.received(channel);
    InboundRequest inbound;
    inbound.body = request.body;
    inbound.headers = request.headers;
    inbound.remote = request.remote;
    auto verified = m_verifier->verifyAndParse(channel, inbound);
    if (!verified)
        return refuseWebhook(channel, inbound, verified.error(), reply);

    const QString callbackId = verified->callbackId;
    CommitRequest commit;
    commit.row = m_verifier->messageRow(*verified, inbound);
    commit.done = [reply, callbackId](const Result<IngestOutcome> &r) {
        // Committer thread. 200 only for a row that is committed (now or before).
        if (!r) {
            const bool down = r.error().code == ErrorCode::Unavailable;
            HttpResponse resp =
                down ? unavailable(QStringLiteral("database_unavailable"),
                                   QStringLiteral("not stored; retry later"))
                     : HttpResponse::error(500, QStringLiteral("not_stored"),
                                           QStringLiteral("not stored; retry later"));
            resp.note = resp.note + u' ' + callbackId;
            return reply.send(resp);
        }
        const bool duplicate = r->status == IngestStatus::Duplicate;
        const QString status =
            duplicate ? QStringLiteral("already received") : QStringLiteral("stored");
        reply.send(HttpResponse::json(
            200, {{QStringLiteral("status"), status}, {QStringLiteral("callback_id"), callbackId}},
            (duplicate ? QStringLiteral("duplicate ") : QStringLiteral("stored ")) + callbackId));
    };
    if (!m_committer->submit(std::move(commit))) {
        m_metrics.unavailable(channel);
        reply.send(
            unavailable(QStringLiteral("overloaded"), QStringLiteral("not stored; retry later")));
    }
}

void Gateway::refuseWebhook(const QString &channel, const InboundRequest &inbound,
                            const Error &error, const HttpReply &reply)
{
    const QString reason = error.reason.isEmpty() ? QStringLiteral("rejected") : error.reason;
    if (reason == u"not_configured") {
        // Our fault, not the channel's: make it retry until the secret is configured.
        spdlog::error("gateway: channel {} has no webhook secret configured",
                      channel.toStdString());
        m_metrics.rejected(channel, reason);
        return reply.send(unavailable(reason, QStringLiteral("channel not configured")));
    }
    m_metrics.rejected(channel, reason);
    const int status = error.code == ErrorCode::TooLarge   ? 413
                       : error.code == ErrorCode::NotFound ? 404
                                                           : 400;
    recordRefusal(channel, inbound, error);
    reply.send(HttpResponse::error(status, reason, error.message.left(200)));
}

void Gateway::oversize(const HttpRequest &head, qint64 declaredBytes)
{
    // The server answers 413 itself, before the body is read: what the webhook path would have
    // recorded for it is recorded here, for a POST to a channel that exists (anything else is
    // no callback: only its access line).
    if (head.method != "POST" || !head.path.startsWith("/webhooks/"))
        return;
    const QString channel = QString::fromLatin1(head.path.mid(10));
    if (!kChannelPaths.contains(channel) || !m_channels.adapter(channel))
        return;
    m_metrics.received(channel);
    const QString reason = QStringLiteral("too_large");
    m_metrics.rejected(channel, reason);
    InboundRequest inbound; // no body: it was never read
    inbound.headers = head.headers;
    inbound.remote = head.remote;
    recordRefusal(channel, inbound,
                  makeError(ErrorCode::TooLarge,
                            QStringLiteral("body of %1 bytes exceeds the %2-byte limit")
                                .arg(declaredBytes)
                                .arg(m_options.maxBodyBytes),
                            reason),
                  declaredBytes);
}

void Gateway::recordRefusal(const QString &channel, const InboundRequest &inbound,
                            const Error &error, std::optional<qint64> unreadBytes)
{
    const QString reason = error.reason.isEmpty() ? QStringLiteral("rejected") : error.reason;
    // Recorded off the HTTP thread; a 400 promises nothing about storage, so it need not wait.
    const bool posted =
        m_rejections->post([this, channel, inbound, error, unreadBytes](DbTaskThread::Access &db) {
            auto c = db.get(DbRole::Orders);
            Result<void> r = c ? IngestService(**c, m_channels, m_clock)
                                     .recordRejection(channel, inbound, error, unreadBytes)
                               : Result<void>(c.error());
            if (!r) {
                db.reset(DbRole::Orders);
                m_metrics.rejectionNotRecorded();
                spdlog::error("gateway: rejection of a {} request not recorded: {}",
                              channel.toStdString(), r.error().message.toStdString());
            }
        });
    if (!posted) {
        m_metrics.rejectionNotRecorded();
        spdlog::warn("gateway: {} rejection ({}) not recorded: recorder queue full",
                     channel.toStdString(), reason.toStdString());
    }
}

void Gateway::health(const HttpReply &reply)
{
    const bool draining = m_stopping;
    const int queued = m_committer->depth();
    const bool posted = m_probe->post([reply, draining, queued](DbTaskThread::Access &db) {
        QJsonObject dbs;
        bool ordersUp = false;
        for (DbRole role : {DbRole::Orders, DbRole::Audit}) {
            // A kept connection that fails may be one the server dropped as it restarted or
            // failed over: the database is judged by a new connection, once, not by the old.
            const bool kept = db.isOpen(role);
            bool up = false;
            for (int attempt = 0; attempt < (kept ? 2 : 1) && !up; ++attempt) {
                auto c = db.get(role);
                Result<QVariant> v = c ? Sql::scalar((*c)->db(), QStringLiteral("SELECT 1"))
                                       : Result<QVariant>(c.error());
                if (!v)
                    db.reset(role);
                up = v.ok();
            }
            dbs.insert(roleName(role), QJsonObject{{QStringLiteral("reachable"), up}});
            if (role == DbRole::Orders)
                ordersUp = up;
        }
        // Ready means "can acknowledge callbacks": that needs the orders database (where the
        // message table and the audit outbox live), not the audit database (DESIGN.md §1).
        const bool ready = ordersUp && !draining;
        reply.send(HttpResponse::json(
            ready ? 200 : 503,
            {{QStringLiteral("status"), ready      ? QStringLiteral("ok")
                                        : draining ? QStringLiteral("stopping")
                                                   : QStringLiteral("unavailable")},
             {QStringLiteral("live"), true},
             {QStringLiteral("ready"), ready},
             {QStringLiteral("databases"), dbs},
             {QStringLiteral("commit_queue"), queued}}));
    });
    if (!posted)
        reply.send(unavailable(QStringLiteral("busy"), QStringLiteral("health probe queue full")));
}

void Gateway::metricsPage(const HttpReply &reply)
{
    const int busy = m_server->busyConnections();
    const bool posted = m_probe->post([this, reply, busy](DbTaskThread::Access &db) {
        MetricsDatabaseView view;
        auto c = db.get(DbRole::Orders);
        auto q = c ? Sql::exec((*c)->db(), QStringLiteral("SELECT status, COUNT(*) FROM"
                                                          " callback_messages GROUP BY status"))
                   : Result<QSqlQuery>(c.error());
        if (q) {
            view.ordersUp = true;
            while (q->next())
                view.messagesByStatus.insert(q->value(0).toString(), q->value(1).toLongLong());
        } else {
            db.reset(DbRole::Orders);
        }
        HttpResponse r =
            HttpResponse::text(200, m_metrics.render(view, m_committer->depth(), busy));
        r.contentType = QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
        reply.send(r);
    });
    if (!posted)
        reply.send(unavailable(QStringLiteral("busy"), QStringLiteral("metrics queue full")));
}

void Gateway::access(const HttpAccessRecord &r)
{
    m_metrics.response(r.status);
    spdlog::info("access method={} path={} status={} bytes_in={} bytes_out={} latency_ms={:.3f} "
                 "remote={} note=\"{}\"{}",
                 printable(r.method), printable(r.path), r.status, r.bytesIn, r.bytesOut,
                 double(r.latencyUs) / 1000.0, r.remote.toStdString(),
                 printable(r.note.toUtf8(), true), r.clientGone ? " client_gone=1" : "");
}

void Gateway::shutdown()
{
    if (m_stopping)
        return;
    m_stopping = true;
    spdlog::info("gateway: stopping: no new connections, finishing {} in-flight request(s)",
                 m_server->busyConnections());
    m_drainDeadline.start(m_options.drainTimeoutMs);
    m_server->stopAccepting();
    if (!m_started)
        finishShutdown();
}

void Gateway::finishShutdown()
{
    if (m_finished)
        return;
    m_finished = true;
    m_drainDeadline.stop();
    if (const int left = m_server->busyConnections(); left > 0)
        spdlog::warn("gateway: drain timeout: closing {} unfinished request(s)", left);
    m_committer->stop(); // commits what is queued
    m_rejections->stop();
    m_probe->stop();
    m_server->closeAll();
    spdlog::info(
        "gateway: stopped: {} received, {} stored, {} duplicate, {} rejected, {} 503, {} 500 "
        "not stored",
        m_metrics.total(QStringLiteral("received")), m_metrics.total(QStringLiteral("stored")),
        m_metrics.total(QStringLiteral("duplicate")), m_metrics.total(QStringLiteral("rejected")),
        m_metrics.total(QStringLiteral("unavailable")),
        m_metrics.total(QStringLiteral("not_stored")));
    Q_EMIT stopped();
}

} // namespace OncePay
