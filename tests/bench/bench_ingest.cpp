// Ingest: the program (verify signature, parse, insert through IngestService) against raw
// prepared INSERTs of the same rows into the same table, with the same indexes, the same
// connection settings (durability) and the same duplicate handling.

#include "benchcommon.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace OncePay::Bench {

namespace {

struct Prepared {
    QList<InboundRequest> requests;
    QList<QVariantList> rows; // the values IngestService would insert
};

Prepared prepare(Test::EngineFixture &f, int n)
{
    Prepared p;
    for (int i = 0; i < n; ++i) {
        const auto params = f.params(QStringLiteral("o-%1").arg(i), QStringLiteral("a-%1").arg(i), 1000 + i,
                                     QStringLiteral("USD"), QStringLiteral("evt_b%1").arg(i),
                                     QStringLiteral("pi_b%1").arg(i));
        InboundRequest r = f.stripe(StripeEvents::paymentIntentSucceeded(params));
        auto cb = f.ingest->verifyAndParse(QStringLiteral("stripe"), r);
        if (!cb)
            qFatal("%s", qPrintable(cb.error().message));
        QJsonArray headers;
        for (const auto &h : r.headers)
            headers.append(QJsonArray{QString::fromLatin1(h.first), QString::fromUtf8(h.second)});
        const qint64 now = f.clock.nowMs();
        p.rows << QVariantList{cb->callbackId, cb->channel, callbackKindName(cb->kind), cb->channelEventType,
                               cb->orderRef, cb->attemptRef, cb->channelTxnId, QVariant(), cb->amountMinor,
                               cb->currency, QString::fromUtf8(r.body),
                               QString::fromUtf8(QJsonDocument(headers).toJson(QJsonDocument::Compact)),
                               QStringLiteral("pending"), now, QVariant(), now, now, QVariant()};
        p.requests << r;
    }
    return p;
}

QString rawInsert(Dialect d)
{
    QString sql = QStringLiteral(
        "INSERT INTO callback_messages (callback_id, channel, event_kind, channel_event_type, order_ref,"
        " attempt_ref, channel_txn_id, refund_id, amount_minor, currency, raw_body, headers, status, attempts,"
        " next_attempt_at, result_reason, received_at, updated_at, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)");
    return sql + (d == Dialect::MySql ? QStringLiteral(" ON DUPLICATE KEY UPDATE id = id")
                                      : QStringLiteral(" ON CONFLICT (callback_id) DO NOTHING"));
}

std::pair<qint64, qint64> raw(Test::ScratchDatabases &dbs, int n, int batch)
{
    Test::EngineFixture f(dbs);
    const Prepared p = prepare(f, n);
    QSqlQuery q(f.orders->db());
    q.prepare(rawInsert(dbs.dialect()));
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; i += batch) {
        if (batch > 1)
            Sql::exec(f.orders->db(), dbs.dialect() == Dialect::MySql ? "START TRANSACTION" : "BEGIN");
        for (int j = i; j < std::min(n, i + batch); ++j) {
            for (int k = 0; k < p.rows[j].size(); ++k)
                q.bindValue(k, p.rows[j][k]);
            if (!q.exec())
                qFatal("raw insert failed");
        }
        if (batch > 1)
            Sql::exec(f.orders->db(), "COMMIT");
    }
    const qint64 ns = t.nsecsElapsed();
    if (f.count("SELECT COUNT(*) FROM callback_messages") != n)
        qFatal("raw: wrong row count");
    return {n, ns};
}

std::pair<qint64, qint64> program(Test::ScratchDatabases &dbs, int n, int batch)
{
    Test::EngineFixture f(dbs);
    const Prepared p = prepare(f, n);
    QElapsedTimer t;
    t.start();
    if (batch == 1) {
        for (const InboundRequest &r : p.requests)
            if (!f.ingest->ingest(QStringLiteral("stripe"), r))
                qFatal("ingest failed");
    } else {
        for (int i = 0; i < n; i += batch) {
            QList<NormalizedCallback> cbs;
            QList<InboundRequest> reqs;
            for (int j = i; j < std::min(n, i + batch); ++j) {
                cbs << *f.ingest->verifyAndParse(QStringLiteral("stripe"), p.requests[j]);
                reqs << p.requests[j];
            }
            for (const auto &r : f.ingest->storeBatch(cbs, reqs))
                if (!r)
                    qFatal("batch failed: %s", qPrintable(r.error().message));
        }
    }
    const qint64 ns = t.nsecsElapsed();
    if (f.count("SELECT COUNT(*) FROM callback_messages") != n)
        qFatal("program: wrong row count");
    return {n, ns};
}

} // namespace

QList<Sample> ingestBenchmarks(Dialect dialect, int runs, int n)
{
    QList<Sample> out;
    // Program and baseline alternate run by run so that machine noise hits both alike.
    Sample p1{"program: IngestService::ingest", {}}, r1{"baseline: raw prepared INSERT, autocommit", {}};
    Sample p2{"program: verify+parse, storeBatch(50)", {}}, r2{"baseline: raw INSERT, 50 per transaction", {}};
    for (int i = 0; i < runs; ++i) {
        p1.perSecond.push_back(measure("", dialect, 1, [&](auto &d) { return program(d, n, 1); }).perSecond[0]);
        r1.perSecond.push_back(measure("", dialect, 1, [&](auto &d) { return raw(d, n, 1); }).perSecond[0]);
        p2.perSecond.push_back(measure("", dialect, 1, [&](auto &d) { return program(d, n, 50); }).perSecond[0]);
        r2.perSecond.push_back(measure("", dialect, 1, [&](auto &d) { return raw(d, n, 50); }).perSecond[0]);
    }
    return {p1, r1, p2, r2};
}

} // namespace OncePay::Bench
