#include "consolebenchdata.h"

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cstdio>

namespace OncePay::Bench {

namespace {

// i runs 1..N. States by i % 100: 0–89 paid (v4), 90–94 pending_payment (v1), 95–97 paying
// (v2, its request still pending), 98–99 paid_unconfirmed (v3). Customers hold three orders
// each; one order in 1,000 has a callback still pending, one in 20,000 a dead letter.
// Times: order i was created at start + i × 2 s, so the newest are minutes old.
const char *kStatements[] = {
    // orders
    R"SQL(INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state, version,
        current_request_id, channel, channel_txn_id, state_reason, paid_at, created_at, updated_at)
      SELECT printf('ord-%08d', i), printf('cust-%07d', i / 3), 100 + (i * 7919) % 500000,
        CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'CNY' END,
        CASE WHEN i % 100 < 90 THEN 'paid' WHEN i % 100 < 95 THEN 'pending_payment'
             WHEN i % 100 < 98 THEN 'paying' ELSE 'paid_unconfirmed' END,
        CASE WHEN i % 100 < 90 THEN 4 WHEN i % 100 < 95 THEN 1 WHEN i % 100 < 98 THEN 2 ELSE 3 END,
        CASE WHEN i % 100 BETWEEN 90 AND 94 THEN NULL ELSE printf('req-%08d', i) END,
        CASE WHEN i % 100 BETWEEN 90 AND 94 THEN NULL
             ELSE CASE i % 4 WHEN 0 THEN 'stripe' WHEN 1 THEN 'paypal' WHEN 2 THEN 'fedapay'
                  ELSE 'kakaopay' END END,
        CASE WHEN i % 100 < 90 OR i % 100 >= 98 THEN printf('txn-%08d', i) END,
        CASE WHEN i % 100 >= 98 THEN 'amount differs from the order' END,
        CASE WHEN i % 100 < 90 THEN :start + i * 2000 + 1500 END,
        :start + i * 2000, :start + i * 2000 + 1500
      FROM n)SQL",
    // transitions: pending_payment → paying (v2) for every order that started paying
    R"SQL(INSERT INTO order_transitions (order_id, from_state, to_state, new_version, cause_kind,
        cause_id, actor, reason, created_at)
      SELECT printf('ord-%08d', i), 'pending_payment', 'paying', 2, 'request', printf('req-%08d', i),
        'checkout', NULL, :start + i * 2000 + 500 FROM n WHERE i % 100 NOT BETWEEN 90 AND 94)SQL",
    // paying → paid_unconfirmed (v3) on the channel's success callback
    R"SQL(INSERT INTO order_transitions (order_id, from_state, to_state, new_version, cause_kind,
        cause_id, actor, reason, created_at)
      SELECT printf('ord-%08d', i), 'paying', 'paid_unconfirmed', 3, 'callback',
        printf('stripe:evt_%08d', i), 'worker:bench/1', NULL, :start + i * 2000 + 1500
      FROM n WHERE i % 100 < 90 OR i % 100 >= 98)SQL",
    // paid_unconfirmed → paid (v4), confirmed in the same transaction
    R"SQL(INSERT INTO order_transitions (order_id, from_state, to_state, new_version, cause_kind,
        cause_id, actor, reason, created_at)
      SELECT printf('ord-%08d', i), 'paid_unconfirmed', 'paid', 4, 'callback',
        printf('stripe:evt_%08d', i), 'worker:bench/1', NULL, :start + i * 2000 + 1500
      FROM n WHERE i % 100 < 90)SQL",
    // the payment attempt's idempotency record, written before any business work
    R"SQL(INSERT INTO idempotency_records (request_id, order_id, expected_version, operation,
        payload_digest, status, outcome, created_at, updated_at)
      SELECT printf('req-%08d', i), printf('ord-%08d', i), 1, 'start_payment',
        printf('%064d', i), CASE WHEN i % 100 BETWEEN 95 AND 97 THEN 0 ELSE 1 END,
        CASE WHEN i % 100 BETWEEN 95 AND 97 THEN NULL ELSE 'paying' END,
        :start + i * 2000 + 500, :start + i * 2000 + 500
      FROM n WHERE i % 100 NOT BETWEEN 90 AND 94)SQL",
    // the success callback as stored in the message table (one in 1,000 still pending)
    R"SQL(INSERT INTO callback_messages (callback_id, channel, event_kind, channel_event_type,
        order_ref, attempt_ref, channel_txn_id, amount_minor, currency, raw_body, headers, status,
        attempts, next_attempt_at, last_error, result_reason, received_at, updated_at, finished_at)
      SELECT printf('stripe:evt_%08d', i), 'stripe', 'payment_succeeded',
        'payment_intent.succeeded', printf('ord-%08d', i), printf('req-%08d', i),
        printf('txn-%08d', i), 100 + (i * 7919) % 500000,
        CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'CNY' END,
        printf('{"id":"evt_%08d","type":"payment_intent.succeeded","data":{"object":{"id":"txn-%08d","amount":%d,"metadata":{"order_id":"ord-%08d","attempt":"req-%08d"}}}}',
               i, i, 100 + (i * 7919) % 500000, i, i),
        '{"Stripe-Signature":"t=1,v1=…"}',
        CASE WHEN i % 1000 = 7 THEN 'pending' WHEN i % 20000 = 11 THEN 'dead' ELSE 'completed' END,
        CASE WHEN i % 1000 = 7 THEN 0 WHEN i % 20000 = 11 THEN 12 ELSE 1 END,
        :start + i * 2000 + 1000,
        CASE WHEN i % 20000 = 11 THEN 'order not found' END,
        CASE WHEN i % 100 >= 98 THEN 'amount differs from the order' END,
        :start + i * 2000 + 1000, :start + i * 2000 + 1500,
        CASE WHEN i % 1000 = 7 THEN NULL ELSE :start + i * 2000 + 1500 END
      FROM n WHERE i % 100 < 90 OR i % 100 >= 98)SQL",
    R"SQL(INSERT INTO dead_letters (message_id, callback_id, reason, attempts, created_at)
      SELECT id, callback_id, 'order not found', 12, updated_at FROM callback_messages
      WHERE status = 'dead')SQL",
    R"SQL(INSERT INTO payments (order_id, channel, channel_txn_id, request_id, callback_id,
        amount_minor, currency, status, captured_at)
      SELECT printf('ord-%08d', i), 'stripe', printf('txn-%08d', i), printf('req-%08d', i),
        printf('stripe:evt_%08d', i), 100 + (i * 7919) % 500000,
        CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'CNY' END, 'captured',
        :start + i * 2000 + 1500
      FROM n WHERE i % 100 < 90)SQL",
    R"SQL(INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor, currency, channel,
        channel_txn_id, callback_id, memo, created_at)
      SELECT printf('credit:stripe:txn-%08d', i), printf('ord-%08d', i), 'payment_credit',
        100 + (i * 7919) % 500000, CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'CNY' END,
        'stripe', printf('txn-%08d', i), printf('stripe:evt_%08d', i), NULL,
        :start + i * 2000 + 1500
      FROM n WHERE i % 100 < 90)SQL",
};

// The manual fixes proposed over the platform's life: a confirmation proposed for each order
// waiting in paid_unconfirmed (20,000 at 1,000,000 orders), as FixService writes one (its
// change names the order). Kept apart from kStatements so that a database generated before
// them gets them too (the order page reads an order's fixes among all of them).
const char kFixes[] =
    R"SQL(INSERT INTO fix_requests (kind, target_kind, target_id, open_target, change_json,
        change_sha256, expected_version, amount_minor, currency, reason_code, comment,
        proposed_by, proposer_role, proposed_from, proposed_at, effective_at, approvals_needed,
        status)
      SELECT 'confirm_payment', 'order', printf('ord-%08d', i), printf('order:ord-%08d', i),
        json_object('after', json_object('state', 'paid', 'version', '4'),
          'amount_minor', CAST(100 + (i * 7919) % 500000 AS TEXT),
          'before', json_object('state', 'paid_unconfirmed', 'version', '3'),
          'currency', CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'CNY' END,
          'detail', json_object(), 'expected_version', '3', 'kind', 'confirm_payment',
          'order_id', printf('ord-%08d', i), 'target', printf('order:ord-%08d', i)),
        printf('%064d', i), 3, 100 + (i * 7919) % 500000,
        CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'CNY' END, 'bank_proof',
        'the customer sent the bank''s proof of payment', 'agent-bench', 'agent', 'bench',
        :start + i * 2000 + 3600000, :start + i * 2000 + 1500, 1, 'open'
      FROM n WHERE i % 100 >= 98)SQL";

// Order 1 is created at the start, order N two seconds before "now".
qint64 startOf(qint64 now, qint64 orders)
{
    return now - orders * 2000 - 2000;
}

// `sql` over the counter `n` (1..orders) as a common table expression, its times from `start`.
QString overCounter(const char *sql, qint64 orders, qint64 start)
{
    QString text = QString::fromUtf8(sql);
    if (text.contains(QStringLiteral("FROM n")))
        text.replace(QStringLiteral("INSERT INTO"),
                     QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT"
                                    " i + 1 FROM n WHERE i < %1) INSERT INTO")
                         .arg(orders));
    text.replace(QStringLiteral(":start"), QString::number(start));
    return text;
}

// kFixes, unless the database has fixes already.
Result<void> addFixes(const Connection &c, qint64 orders, qint64 start)
{
    auto held = Sql::scalar(c.db(), QStringLiteral("SELECT COUNT(*) FROM fix_requests"));
    if (!held)
        return held.error();
    if (held->toLongLong() > 0)
        return {};
    QElapsedTimer timer;
    timer.start();
    if (auto q = Sql::exec(c.db(), overCounter(kFixes, orders, start)); !q)
        return q.error();
    if (auto r = Sql::exec(c.db(), QStringLiteral("ANALYZE fix_requests")); !r)
        return r.error();
    std::fprintf(stderr, "bench: fix requests generated in %.1f s\n", timer.elapsed() / 1000.0);
    return {};
}

} // namespace

void ConsoleBenchData::setPick(qint64 i)
{
    pick = i;
    orderId = QStringLiteral("ord-%1").arg(i, 8, 10, QLatin1Char('0'));
    customerRef = QStringLiteral("cust-%1").arg(i / 3, 7, 10, QLatin1Char('0'));
    channelTxnId = QStringLiteral("txn-%1").arg(i, 8, 10, QLatin1Char('0'));
    callbackId = QStringLiteral("stripe:evt_%1").arg(i, 8, 10, QLatin1Char('0'));
    requestId = QStringLiteral("req-%1").arg(i, 8, 10, QLatin1Char('0'));
}

ConsoleBenchData ConsoleBenchData::shifted(qint64 step) const
{
    // Wrapped around within the database's orders (a small --n has few places).
    ConsoleBenchData d = *this;
    d.setPick(pick % 300 + 300 * ((pick / 300 + step) % places()));
    return d;
}

qint64 ConsoleBenchData::places() const
{
    const qint64 first = pick % 300;
    return std::max<qint64>(1, (orders - 3 - first) / 300 + 1);
}

Result<ConsoleBenchData> prepareConsoleBenchData(const QString &dir, qint64 n)
{
    ConsoleBenchData d;
    d.orders = n;
    d.ordersPath = QDir(dir).filePath(QStringLiteral("orders-%1.db").arg(n));
    // Order 1 is created at `start`, order N two seconds before "now".
    // i % 100 == 1: a paid order; i % 3 == 0: the first of its customer's three.
    qint64 pick = n / 2 + 1 - (n / 2 + 1) % 100 + 1;
    while (pick % 3 != 0)
        pick += 100;
    d.setPick(pick);

    ConnectionProfile p;
    p.role = DbRole::Orders;
    p.path = d.ordersPath;
    p.relaxedDurability = true; // generated data, never real payments
    const QString marker = d.ordersPath + QStringLiteral(".complete");
    if (QFile::exists(marker)) {
        QFile f(marker);
        if (f.open(QIODevice::ReadOnly)) {
            d.now = f.readAll().trimmed().toLongLong();
            std::fprintf(stderr, "bench: reusing %s\n", qPrintable(d.ordersPath));
            // Brought to this build's schema: the console refuses an older one.
            auto c = openMigrated(p, QStringLiteral("bench-reuse"));
            if (!c)
                return c.error();
            if (auto fixes = addFixes(*c, n, startOf(d.now, n)); !fixes)
                return fixes.error();
            return d;
        }
    }
    QDir().mkpath(dir);
    QFile::remove(d.ordersPath);
    QFile::remove(d.ordersPath + QStringLiteral("-wal"));
    QFile::remove(d.ordersPath + QStringLiteral("-shm"));

    d.now = QDateTime::currentMSecsSinceEpoch();
    const qint64 start = startOf(d.now, n);
    auto c = openMigrated(p, QStringLiteral("bench-generate"));
    if (!c)
        return c.error();
    QSqlDatabase db = c->db();
    (void)Sql::exec(db, QStringLiteral("PRAGMA cache_size = -200000"));
    QElapsedTimer timer;
    timer.start();
    auto done = inTransaction(db, Transaction::Mode::Immediate, [&]() -> Result<void> {
        int step = 0;
        for (const char *sql : kStatements) {
            auto r = Sql::exec(db, overCounter(sql, n, start));
            if (!r)
                return r.error();
            std::fprintf(stderr, "bench: generated step %d of %zu after %.0f s\n", ++step,
                         std::size(kStatements), timer.elapsed() / 1000.0);
        }
        return {};
    });
    if (!done)
        return done.error();
    if (auto fixes = addFixes(*c, n, start); !fixes)
        return fixes.error();
    if (auto r = Sql::exec(db, QStringLiteral("ANALYZE")); !r)
        return r.error();
    QFile f(marker);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Internal, QStringLiteral("cannot write %1").arg(marker));
    f.write(QByteArray::number(d.now));
    std::fprintf(stderr, "bench: %lld orders generated in %.0f s\n", n, timer.elapsed() / 1000.0);
    return d;
}

} // namespace OncePay::Bench
