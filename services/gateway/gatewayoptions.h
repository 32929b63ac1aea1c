#pragma once

// How `oncepay gateway` runs: the [gateway] configuration section, checked strictly (an
// unknown key is a configuration error, not a silently ignored typo).
//   listen            ADDR:PORT, default 127.0.0.1:8080 ([::1]:8080 for IPv6)
//   batch_wait_ms     group-commit wait for companions, 0..1000, default 2
//   max_batch         callbacks per transaction, 1..5000, default 256
//   max_queue         verified callbacks waiting for commit before 503, default 10000
//   max_body_bytes    overrides ops_settings ingest.max_body_bytes
//   max_connections   open connections, default 1024
//   read_timeout_ms   a started request must complete within this, default 15000
//   idle_timeout_ms   idle keep-alive connections close after this, default 60000
//   drain_timeout_ms  on SIGTERM, how long in-flight requests may take, default 25000
// Thread contract: plain value.

#include "core/result.h"

#include <QHostAddress>
#include <QMap>

namespace OncePay {

struct GatewayOptions {
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8080;
    int batchWaitMs = 2;
    int maxBatch = 256;
    int maxQueue = 10000;
    qint64 maxBodyBytes = 256 * 1024;
    bool maxBodyFromConfig = false; // else ops_settings ingest.max_body_bytes applies
    int maxConnections = 1024;
    int readTimeoutMs = 15000;
    int idleTimeoutMs = 60000;
    int drainTimeoutMs = 25000;

    static Result<GatewayOptions> fromConfig(const QMap<QString, QString> &section);
    // "127.0.0.1:8080", "[::1]:0", ":8080" (all interfaces).
    static bool parseListen(const QString &text, QHostAddress *address, quint16 *port);
    QString listenText(quint16 boundPort) const;
};

} // namespace OncePay
