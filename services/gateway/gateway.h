#pragma once

// The webhook gateway (DESIGN.md §3, issue 7): channels POST their callbacks to
// /webhooks/{channel}; the gateway verifies the signature, hands the callback to the group
// committer and answers 200 only once the message row is committed (a duplicate also 200:
// "already received"). Bad signature or body, or a value longer than its message table
// column → 400 (recorded in ingest_rejections), unknown channel → 404, wrong method → 405,
// oversized body → 413 (refused by the HTTP server before the body is read; recorded in
// ingest_rejections as too_large for a POST to a known channel), database unreachable or
// commit queue full → 503 so the channel retries, database reached but refusing the row → 500
// "not_stored" (counted apart).
// GET /healthz and GET /metrics (Prometheus) for operations; every answer goes to the
// access log (no bodies, no secrets).
// Thread contract: construct, start() and shutdown() on a thread with an event loop (the
// HTTP thread). The committer and the database task threads own their own connections.

#include "channels/channelregistry.h"
#include "config/appconfig.h"
#include "core/clock.h"
#include "dbtaskthread.h"
#include "gatewaymetrics.h"
#include "gatewayoptions.h"
#include "groupcommitter.h"
#include "httpserver.h"
#include "ingest/ingestservice.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace OncePay {

class Gateway : public QObject {
    Q_OBJECT
public:
    Gateway(const AppConfig &config, const ChannelRegistry &channels, const Clock &clock,
            GatewayOptions options, QObject *parent = nullptr);
    ~Gateway() override;

    // Listens and starts the committer; returns the bound port.
    Result<quint16> start();
    // SIGTERM: stop accepting, finish in-flight requests (up to drain_timeout_ms), commit
    // what is queued, then emit stopped().
    void shutdown();
    bool stopping() const { return m_stopping; }

    const GatewayMetrics &metrics() const { return m_metrics; }

Q_SIGNALS:
    void stopped();

private:
    void handle(const HttpRequest &request, const HttpReply &reply);
    void webhook(const QString &channel, const HttpRequest &request, const HttpReply &reply);
    void refuseWebhook(const QString &channel, const InboundRequest &inbound, const Error &error,
                       const HttpReply &reply);
    // ingest_rejections row and audit event, off the HTTP thread.
    // `unreadBytes`: a body refused before it was read (its declared size).
    void recordRefusal(const QString &channel, const InboundRequest &inbound, const Error &error,
                       std::optional<qint64> unreadBytes = std::nullopt);
    void oversize(const HttpRequest &head, qint64 declaredBytes);
    void health(const HttpReply &reply);
    void metricsPage(const HttpReply &reply);
    void access(const HttpAccessRecord &record);
    void finishShutdown();

    AppConfig m_config;
    const ChannelRegistry &m_channels;
    const Clock &m_clock;
    GatewayOptions m_options;
    GatewayMetrics m_metrics;
    // verifyAndParse() never touches the database: the HTTP thread verifies over an
    // unopened connection, and only the committer's own connection stores.
    Connection m_noConnection;
    std::unique_ptr<IngestService> m_verifier;
    std::unique_ptr<GroupCommitter> m_committer;
    std::unique_ptr<DbTaskThread> m_rejections; // ingest_rejections rows, off the HTTP thread
    std::unique_ptr<DbTaskThread> m_probe;      // /healthz and /metrics queries
    HttpServer *m_server = nullptr;
    QTimer m_drainDeadline;
    bool m_started = false;
    bool m_stopping = false;
    bool m_finished = false;
};

} // namespace OncePay
