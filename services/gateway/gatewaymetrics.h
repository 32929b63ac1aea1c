#pragma once

// The gateway's counters and histograms, rendered in the Prometheus text format
// (version 0.0.4) for GET /metrics. Names are documented in README.md (oncepay gateway).
// Thread contract: every method is thread-safe (the HTTP thread and the committer both
// record); render() takes a consistent snapshot.

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMutex>
#include <QString>

namespace OncePay {

class Histogram {
public:
    explicit Histogram(QList<double> upperBounds);
    void observe(double value);
    // Appends _bucket, _sum and _count lines for `name`.
    void render(QByteArray &out, const QByteArray &name) const;
    quint64 count() const { return m_count; }
    // Observations above `bound` (for the tests: "were there batches > 1?").
    quint64 countAbove(double bound) const;

private:
    QList<double> m_bounds;
    QList<quint64> m_counts; // per bucket, not cumulative
    quint64 m_count = 0;
    double m_sum = 0;
};

// Read from the database at scrape time; absent when the database is down.
struct MetricsDatabaseView {
    bool ordersUp = false;
    QMap<QString, qint64> messagesByStatus; // callback_messages status -> rows
};

class GatewayMetrics {
public:
    GatewayMetrics();

    void received(const QString &channel);
    void stored(const QString &channel);
    void duplicate(const QString &channel);
    void rejected(const QString &channel, const QString &reason);
    void unavailable(const QString &channel); // answered 503: not stored, the channel retries
    // Answered 500: the database was reachable but refused the row (not stored; the channel
    // retries, and the same row fails the same way until someone looks).
    void notStored(const QString &channel);
    void response(int status);
    void batchCommitted(int size, double seconds);
    void commitFailed();
    void rejectionNotRecorded();

    QByteArray render(const MetricsDatabaseView &db, int commitQueueDepth,
                      int busyConnections) const;

    // For tests and the shutdown summary.
    quint64 batchesAbove(int size) const;
    // "received", "stored", "duplicate", "rejected", "unavailable", "not_stored", "batches".
    quint64 total(const QString &counter) const;

private:
    mutable QMutex m_mutex;
    QMap<QString, quint64> m_received, m_stored, m_duplicate, m_unavailable, m_notStored;
    QMap<QPair<QString, QString>, quint64> m_rejected;
    QMap<int, quint64> m_responses;
    Histogram m_batchSize;
    Histogram m_commitSeconds;
    quint64 m_commitFailures = 0;
    quint64 m_rejectionsNotRecorded = 0;
};

} // namespace OncePay
