#include "gatewaymetrics.h"

namespace OncePay {

namespace {

QByteArray num(double v)
{
    return QByteArray::number(v, 'g', 12);
}

// Label values are our own words (channel names, reason codes), but escape anyway.
QByteArray label(const QString &v)
{
    QByteArray out = v.left(64).toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return out;
}

void header(QByteArray &out, const char *name, const char *type, const char *help)
{
    out += QByteArray("# HELP ") + name + ' ' + help + '\n';
    out += QByteArray("# TYPE ") + name + ' ' + type + '\n';
}

void byChannel(QByteArray &out, const char *name, const char *help,
               const QMap<QString, quint64> &values)
{
    header(out, name, "counter", help);
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        out += QByteArray(name) + "{channel=\"" + label(it.key()) + "\"} " +
               QByteArray::number(it.value()) + '\n';
}

quint64 sum(const QMap<QString, quint64> &m)
{
    quint64 n = 0;
    for (quint64 v : m)
        n += v;
    return n;
}

} // namespace

Histogram::Histogram(QList<double> upperBounds)
    : m_bounds(std::move(upperBounds))
    , m_counts(m_bounds.size() + 1, 0)
{}

void Histogram::observe(double value)
{
    qsizetype i = 0;
    while (i < m_bounds.size() && value > m_bounds[i])
        ++i;
    ++m_counts[i];
    ++m_count;
    m_sum += value;
}

quint64 Histogram::countAbove(double bound) const
{
    // Bucket i holds (bounds[i-1], bounds[i]]; only whole buckets above `bound` count.
    quint64 above = 0;
    for (qsizetype i = 1; i <= m_bounds.size(); ++i)
        if (m_bounds[i - 1] >= bound)
            above += m_counts[i];
    return above;
}

void Histogram::render(QByteArray &out, const QByteArray &name) const
{
    quint64 cumulative = 0;
    for (qsizetype i = 0; i < m_bounds.size(); ++i) {
        cumulative += m_counts[i];
        out += name + "_bucket{le=\"" + num(m_bounds[i]) + "\"} " + QByteArray::number(cumulative) +
               '\n';
    }
    out += name + "_bucket{le=\"+Inf\"} " + QByteArray::number(m_count) + '\n';
    out += name + "_sum " + num(m_sum) + '\n';
    out += name + "_count " + QByteArray::number(m_count) + '\n';
}

GatewayMetrics::GatewayMetrics()
    : m_batchSize({1, 2, 4, 8, 16, 32, 64, 128, 256, 512})
    , m_commitSeconds({0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5})
{}

void GatewayMetrics::received(const QString &channel)
{
    QMutexLocker lock(&m_mutex);
    ++m_received[channel];
}

void GatewayMetrics::stored(const QString &channel)
{
    QMutexLocker lock(&m_mutex);
    ++m_stored[channel];
}

void GatewayMetrics::duplicate(const QString &channel)
{
    QMutexLocker lock(&m_mutex);
    ++m_duplicate[channel];
}

void GatewayMetrics::rejected(const QString &channel, const QString &reason)
{
    QMutexLocker lock(&m_mutex);
    ++m_rejected[{channel, reason}];
}

void GatewayMetrics::unavailable(const QString &channel)
{
    QMutexLocker lock(&m_mutex);
    ++m_unavailable[channel];
}

void GatewayMetrics::notStored(const QString &channel)
{
    QMutexLocker lock(&m_mutex);
    ++m_notStored[channel];
}

void GatewayMetrics::response(int status)
{
    QMutexLocker lock(&m_mutex);
    ++m_responses[status];
}

void GatewayMetrics::batchCommitted(int size, double seconds)
{
    QMutexLocker lock(&m_mutex);
    m_batchSize.observe(size);
    m_commitSeconds.observe(seconds);
}

void GatewayMetrics::commitFailed()
{
    QMutexLocker lock(&m_mutex);
    ++m_commitFailures;
}

void GatewayMetrics::rejectionNotRecorded()
{
    QMutexLocker lock(&m_mutex);
    ++m_rejectionsNotRecorded;
}

quint64 GatewayMetrics::batchesAbove(int size) const
{
    QMutexLocker lock(&m_mutex);
    return m_batchSize.countAbove(size);
}

quint64 GatewayMetrics::total(const QString &counter) const
{
    QMutexLocker lock(&m_mutex);
    if (counter == u"received")
        return sum(m_received);
    if (counter == u"stored")
        return sum(m_stored);
    if (counter == u"duplicate")
        return sum(m_duplicate);
    if (counter == u"unavailable")
        return sum(m_unavailable);
    if (counter == u"not_stored")
        return sum(m_notStored);
    if (counter == u"rejected") {
        quint64 n = 0;
        for (quint64 v : m_rejected)
            n += v;
        return n;
    }
    if (counter == u"batches")
        return m_batchSize.count();
    return 0;
}

QByteArray GatewayMetrics::render(const MetricsDatabaseView &db, int commitQueueDepth,
                                  int busyConnections) const
{
    QMutexLocker lock(&m_mutex);
    QByteArray out;
    byChannel(out, "oncepay_gateway_callbacks_received_total",
              "Webhook requests received per channel.", m_received);
    byChannel(out, "oncepay_gateway_callbacks_stored_total",
              "New callbacks committed to the message table.", m_stored);
    byChannel(out, "oncepay_gateway_callbacks_duplicate_total",
              "Callbacks already received (answered 200, nothing written).", m_duplicate);
    byChannel(out, "oncepay_gateway_callbacks_unavailable_total",
              "Callbacks answered 503: the database could not be reached or the commit queue "
              "was full.",
              m_unavailable);
    byChannel(out, "oncepay_gateway_callbacks_not_stored_total",
              "Callbacks answered 500: the database was reached but refused to store them.",
              m_notStored);
    header(out, "oncepay_gateway_callbacks_rejected_total", "counter",
           "Webhook requests refused, by channel and reason.");
    for (auto it = m_rejected.cbegin(); it != m_rejected.cend(); ++it)
        out += "oncepay_gateway_callbacks_rejected_total{channel=\"" + label(it.key().first) +
               "\",reason=\"" + label(it.key().second) + "\"} " + QByteArray::number(it.value()) +
               '\n';
    header(out, "oncepay_gateway_http_responses_total", "counter", "HTTP answers by status code.");
    for (auto it = m_responses.cbegin(); it != m_responses.cend(); ++it)
        out += "oncepay_gateway_http_responses_total{code=\"" + QByteArray::number(it.key()) +
               "\"} " + QByteArray::number(it.value()) + '\n';
    header(out, "oncepay_gateway_commit_batch_size", "histogram",
           "Callbacks per group-commit transaction.");
    m_batchSize.render(out, "oncepay_gateway_commit_batch_size");
    header(out, "oncepay_gateway_commit_seconds", "histogram",
           "Latency of one group-commit transaction, begin to commit.");
    m_commitSeconds.render(out, "oncepay_gateway_commit_seconds");
    header(out, "oncepay_gateway_commit_failures_total", "counter",
           "Group-commit transactions that failed (each item retried or answered 503).");
    out += "oncepay_gateway_commit_failures_total " + QByteArray::number(m_commitFailures) + '\n';
    header(out, "oncepay_gateway_rejections_unrecorded_total", "counter",
           "Refused requests whose ingest_rejections row could not be written.");
    out += "oncepay_gateway_rejections_unrecorded_total " +
           QByteArray::number(m_rejectionsNotRecorded) + '\n';
    header(out, "oncepay_gateway_commit_queue_depth", "gauge",
           "Verified callbacks waiting for the committer.");
    out += "oncepay_gateway_commit_queue_depth " + QByteArray::number(commitQueueDepth) + '\n';
    header(out, "oncepay_gateway_requests_in_flight", "gauge",
           "Connections with a request received in part or waiting for its answer.");
    out += "oncepay_gateway_requests_in_flight " + QByteArray::number(busyConnections) + '\n';
    header(out, "oncepay_gateway_database_up", "gauge",
           "1 when the orders database answered this scrape.");
    out += "oncepay_gateway_database_up " + QByteArray(db.ordersUp ? "1" : "0") + '\n';
    header(out, "oncepay_message_table_depth", "gauge",
           "Rows of the message table (callback_messages) by status.");
    for (const char *status : {"pending", "processing", "completed", "skipped", "failed", "dead"})
        if (db.ordersUp)
            out += "oncepay_message_table_depth{status=\"" + QByteArray(status) + "\"} " +
                   QByteArray::number(db.messagesByStatus.value(QString::fromLatin1(status))) +
                   '\n';
    return out;
}

} // namespace OncePay
