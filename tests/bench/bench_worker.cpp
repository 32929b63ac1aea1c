// Worker: the program (claim with lease, CallbackProcessor, state machine, effects, audit
// outbox) against a replay of the same SQL statements — same transactions, same rows —
// issued from prepared statements with precomputed values and no program logic.

#include "benchcommon.h"

#include <QSqlQuery>
#include <QUuid>

namespace OncePay::Bench {

namespace {

void setup(Test::EngineFixture &f, int n)
{
    for (int i = 0; i < n; ++i) {
        const QString id = QStringLiteral("o-%1").arg(i);
        f.createOrder(id, 1000 + i);
        f.pay(id, 1, QStringLiteral("a-%1").arg(i));
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params(id, QStringLiteral("a-%1").arg(i), 1000 + i, "USD",
                     QStringLiteral("evt_w%1").arg(i), QStringLiteral("pi_w%1").arg(i))));
    }
}

std::pair<qint64, qint64> program(Test::ScratchDatabases &dbs, int n)
{
    Test::EngineFixture f(dbs);
    setup(f, n);
    QElapsedTimer t;
    t.start();
    WorkerStats s = f.drain();
    const qint64 ns = t.nsecsElapsed();
    if (s.completed != n)
        qFatal("worker completed %d of %d", s.completed, n);
    return {n, ns};
}

class Replay {
public:
    Replay(const Connection &c)
        : m_db(c.db())
        , m_d(c.dialect())
    {}

    QSqlQuery &q(const QString &sql)
    {
        auto it = m_cache.find(sql);
        if (it == m_cache.end()) {
            it = m_cache.emplace(sql, QSqlQuery(m_db)).first;
            it->second.prepare(sql);
        }
        return it->second;
    }
    void run(const QString &sql, const QVariantList &binds)
    {
        QSqlQuery &query = q(sql);
        for (int i = 0; i < binds.size(); ++i)
            query.bindValue(i, binds[i]);
        if (!query.exec())
            qFatal("replay: %s", qPrintable(sql.left(60)));
        while (query.isSelect() && query.next()) {
        }
    }
    void begin()
    {
        if (!Sql::exec(m_db, m_d == Dialect::Sqlite  ? "BEGIN IMMEDIATE"
                             : m_d == Dialect::MySql ? "START TRANSACTION"
                                                     : "BEGIN"))
            qFatal("replay: BEGIN failed");
    }
    void commit()
    {
        if (!Sql::exec(m_db, "COMMIT"))
            qFatal("replay: COMMIT failed");
    }
    Dialect dialect() const { return m_d; }

private:
    QSqlDatabase m_db;
    Dialect m_d;
    std::map<QString, QSqlQuery> m_cache;
};

std::pair<qint64, qint64> replay(Test::ScratchDatabases &dbs, int n)
{
    Test::EngineFixture f(dbs);
    setup(f, n);
    Replay r(*f.orders);
    const QString lock =
        dbs.dialect() == Dialect::Sqlite ? QString() : QStringLiteral(" FOR UPDATE SKIP LOCKED");
    const QString forUpdate =
        dbs.dialect() == Dialect::Sqlite ? QString() : QStringLiteral(" FOR UPDATE");
    const QString audit = QStringLiteral("INSERT INTO audit_outbox (event_id, occurred_at, actor, "
                                         "actor_role, action, entity_kind, entity_id,"
                                         " order_id, callback_id, before_json, after_json, reason) "
                                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const qint64 now = f.clock.nowMs();
    const QString owner = QStringLiteral("worker:replay");
    auto auditRow = [&](const QString &action, const QString &order, const QString &cb) {
        r.run(audit,
              {QUuid::createUuid().toString(QUuid::WithoutBraces), now, owner, "system", action,
               "order", order, order, cb, QStringLiteral("{\"state\":\"paying\",\"version\":2}"),
               QStringLiteral("{\"state\":\"paid\",\"version\":4}"), QVariant()});
    };
    QElapsedTimer t;
    t.start();
    for (int base = 0; base < n; base += 50) {
        const int m = std::min(50, n - base);
        r.begin();
        r.run("SELECT id FROM callback_messages WHERE status IN ('pending', 'failed') AND "
              "next_attempt_at <= ?"
              " ORDER BY next_attempt_at, id LIMIT ?" +
                  lock,
              {now, 50});
        QStringList marks;
        QVariantList ids{owner, now + 30000, now};
        for (int i = 0; i < m; ++i) {
            marks << "?";
            ids << qint64(base + i + 1);
        }
        r.run("UPDATE callback_messages SET status = 'processing', lease_owner = ?, lease_until = "
              "?, attempts ="
              " attempts + 1, updated_at = ? WHERE id IN (" +
                  marks.join(',') + ")",
              ids);
        r.run("SELECT id, callback_id, channel, event_kind, channel_event_type, order_ref, "
              "attempt_ref, channel_txn_id,"
              " amount_minor, currency, status, attempts, lease_owner, lease_until, refund_id FROM "
              "callback_messages"
              " WHERE id IN (" +
                  marks.join(',') + ") ORDER BY id",
              ids.mid(3));
        r.commit();
        for (int i = base; i < base + m; ++i) {
            const QString order = QStringLiteral("o-%1").arg(i),
                          pi = QStringLiteral("pi_w%1").arg(i);
            const QString cb = QStringLiteral("stripe:evt_w%1").arg(i);
            r.begin();
            r.run("SELECT status, lease_owner FROM callback_messages WHERE id = ?" + forUpdate,
                  {qint64(i + 1)});
            r.run("SELECT order_id, customer_ref, amount_minor, currency, state, version, "
                  "current_request_id, channel,"
                  " channel_txn_id, state_reason, paid_at, created_at, updated_at FROM orders "
                  "WHERE order_id = ?" +
                      forUpdate,
                  {order});
            r.run("SELECT COUNT(*) FROM payments WHERE channel = ? AND channel_txn_id = ?",
                  {"stripe", pi});
            r.run("INSERT INTO payments (order_id, channel, channel_txn_id, request_id, "
                  "callback_id, amount_minor,"
                  " currency, status, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'captured', ?)",
                  {order, "stripe", pi, QStringLiteral("a-%1").arg(i), cb, 1000 + i, "USD", now});
            r.run("UPDATE orders SET state = ?, version = version + 1, updated_at = ?, "
                  "channel_txn_id = ?, state_reason = ?"
                  " WHERE order_id = ? AND version = ? AND state = ?",
                  {"paid_unconfirmed", now, pi, QVariant(), order, 2, "paying"});
            r.run("INSERT INTO order_transitions (order_id, from_state, to_state, new_version, "
                  "cause_kind, cause_id, actor,"
                  " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  {order, "paying", "paid_unconfirmed", 3, "callback", cb, owner,
                   "stripe reports success", now});
            auditRow("order.transition", order, cb);
            r.run("UPDATE orders SET state = ?, version = version + 1, updated_at = ?, "
                  "state_reason = ?, paid_at = ?"
                  " WHERE order_id = ? AND version = ? AND state = ?",
                  {"paid", now, QVariant(), now, order, 3, "paid_unconfirmed"});
            r.run("INSERT INTO order_transitions (order_id, from_state, to_state, new_version, "
                  "cause_kind, cause_id, actor,"
                  " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  {order, "paid_unconfirmed", "paid", 4, "callback", cb, owner,
                   "amount and currency confirmed", now});
            auditRow("order.transition", order, cb);
            r.run("INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor, currency, "
                  "channel, channel_txn_id,"
                  " callback_id, memo, created_at) VALUES (?, ?, 'payment_credit', ?, ?, ?, ?, ?, "
                  "?, ?)",
                  {QString(QStringLiteral("credit:stripe:") + pi), order, 1000 + i, "USD", "stripe",
                   pi, cb, "balance credit", now});
            r.run(
                "INSERT INTO purchase_orders (order_id, callback_id, created_at) VALUES (?, ?, ?)",
                {order, cb, now});
            r.run(
                "INSERT INTO logistics_orders (order_id, callback_id, created_at) VALUES (?, ?, ?)",
                {order, cb, now});
            auditRow("payment.booked", order, cb);
            r.run("UPDATE callback_messages SET status = ?, result_reason = ?, lease_owner = NULL, "
                  "lease_until = NULL,"
                  " finished_at = ?, updated_at = ?, last_error = NULL WHERE id = ?",
                  {"completed", "paid at v4", now, now, qint64(i + 1)});
            auditRow("callback.completed", order, cb);
            r.commit();
        }
    }
    const qint64 ns = t.nsecsElapsed();
    if (f.count("SELECT COUNT(*) FROM ledger_entries") != n)
        qFatal("replay: wrong ledger count");
    return {n, ns};
}

} // namespace

QList<Sample> workerBenchmarks(Dialect dialect, int runs, int n)
{
    Sample p{"program: Worker::runOnce(50) until drained", {}};
    Sample r{"baseline: replay of the same SQL", {}};
    for (int i = 0; i < runs; ++i) {
        p.perSecond.push_back(
            measure("", dialect, 1, [&](auto &d) { return program(d, n); }).perSecond[0]);
        r.perSecond.push_back(
            measure("", dialect, 1, [&](auto &d) { return replay(d, n); }).perSecond[0]);
    }
    return {p, r};
}

} // namespace OncePay::Bench
