// The database itself carries the exactly-once guarantees; these tests prove each key and
// trigger on SQLite, PostgreSQL and MariaDB.

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "oldschema.h"
#include "testdatabases.h"
#include "worker/worker.h"

#include <QFile>
#include <QTest>

using namespace OncePay;

namespace {

const QString kInsertMessage = QStringLiteral(
    "INSERT INTO callback_messages (callback_id, channel, event_kind, raw_body, headers, status,"
    " next_attempt_at, received_at, updated_at) VALUES (?, 'stripe', 'payment_succeeded', '{}',"
    " '{}', 'pending', 0, 0, 0)");

const QString kInsertOrder = QStringLiteral(
    "INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state, version,"
    " created_at, updated_at) VALUES (?, 'cust-1', ?, 'USD', 'pending_payment', 1, 0, 0)");

const QString kInsertAudit = QStringLiteral(
    "INSERT INTO audit_log (seq, event_id, occurred_at, recorded_at, actor, actor_role, action,"
    " entity_kind, entity_id, prev_hash, hash) VALUES (?, ?, 0, 0, 'system', 'system', 'test',"
    " 'order', 'o-1', 'x', 'y')");

Connection migrated(const ConnectionProfile &profile)
{
    auto c = openMigrated(profile, QStringLiteral("test"));
    if (!c)
        qFatal("cannot open %s: %s", qPrintable(profile.describe()), qPrintable(c.error().message));
    return std::move(c).value();
}

} // namespace

class TstSchema : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void migrateOnceAndRecordVersion_data() { Test::addEngineRows(); }
    void migrateOnceAndRecordVersion()
    {
        ONCEPAY_SCRATCH(dbs);
        for (const ConnectionProfile &p : {dbs->orders(), dbs->audit()}) {
            auto c = Connection::open(p, QStringLiteral("test"));
            QVERIFY(c.ok());
            auto first = Migrator::migrate(*c);
            QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
            QCOMPARE(first->before, 0);
            QVERIFY(first->after >= 1);
            QCOMPARE(first->after, Migrator::latestVersion(Migrator::schemaFor(p.role), p.dialect));
            QVERIFY(!first->applied.isEmpty());

            auto again = Migrator::migrate(*c);
            QVERIFY(again.ok());
            QVERIFY(again->applied.isEmpty());
            QCOMPARE(again->after, first->after);
            auto rows = Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM schema_version"));
            QCOMPARE(rows->toInt(), first->after);
        }
    }

    void newerDatabaseIsRefused_data() { Test::addEngineRows(); }
    void newerDatabaseIsRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->orders());
        QVERIFY(
            Sql::exec(c.db(), QStringLiteral("INSERT INTO schema_version (version, name, checksum,"
                                             " applied_at) VALUES (9999, 'future', 'x', 0)"))
                .ok());
        auto r = Migrator::migrate(c);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Newer);
        QVERIFY(r.error().message.contains(QStringLiteral("newer")));
        QVERIFY(r.error().message.contains(QStringLiteral("orders")));
    }

    // A database an older OncePay left at version 4, where a settled payment was a flag on the
    // payment row: after 0005 every settled payment is matched to its first charge line and the
    // latest run, a pending one is not, and the flag is gone.
    void settledPaymentsKeepTheirSettlement_data() { Test::addEngineRows(); }
    void settledPaymentsKeepTheirSettlement()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = Connection::open(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        const QSqlDatabase db = c->db();
        auto run = [&](const QString &sql) {
            auto r = Sql::exec(db, sql);
            if (!r)
                qWarning("%s: %s", qPrintable(sql.left(80)), qPrintable(r.error().message));
            return r.ok();
        };
        QCOMPARE(Test::migrateThrough(*c, 4), 4);
        for (const char *sql : {
                 "INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state,"
                 " version, created_at, updated_at) VALUES ('ord-1', 'c', 1000, 'USD', 'paid', 3,"
                 " 0, 0), ('ord-2', 'c', 2000, 'USD', 'paid', 3, 0, 0)",
                 "INSERT INTO payments (order_id, channel, channel_txn_id, callback_id,"
                 " amount_minor, currency, status, settlement_status, captured_at) VALUES"
                 " ('ord-1', 'stripe', 'pi_1', 'cb-1', 1000, 'USD', 'captured', 'settled', 0),"
                 " ('ord-2', 'stripe', 'pi_2', 'cb-2', 2000, 'USD', 'captured', 'pending', 0)",
                 "INSERT INTO settlement_statements (channel, file_sha256, file_name, line_count,"
                 " imported_by, imported_at) VALUES ('stripe', 'sha', 'a.csv', 3, 'test', 0)",
                 "INSERT INTO settlement_lines (statement_id, line_no, channel, channel_txn_id,"
                 " kind, gross_minor, fee_minor, net_minor, currency, settled_at, raw) VALUES"
                 " (1, 1, 'stripe', 'pi_1', 'refund', -1000, 0, -1000, 'USD', 0, 'r'),"
                 " (1, 2, 'stripe', 'pi_1', 'charge', 1000, 30, 970, 'USD', 0, 'c1'),"
                 " (1, 3, 'stripe', 'pi_1', 'charge', 1000, 30, 970, 'USD', 0, 'c2')",
                 "INSERT INTO reconciliation_runs (period_from, period_to, status, actor,"
                 " started_at) VALUES (0, 1, 'finished', 'test', 0), (0, 1, 'finished', 'test', 1)",
             })
            QVERIFY(run(QString::fromLatin1(sql)));

        auto r = Migrator::migrate(*c);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(r->before, 4);
        auto match = Sql::exec(db, QStringLiteral("SELECT p.channel_txn_id, m.settlement_line_id,"
                                                  " m.run_id FROM settlement_matches m JOIN"
                                                  " payments p ON p.id = m.payment_id"));
        QVERIFY(match.ok());
        QVERIFY(match->next());
        QCOMPARE(match->value(0).toString(), QStringLiteral("pi_1"));
        QCOMPARE(match->value(1).toLongLong(), 2); // the first charge line, not the refund
        QCOMPARE(match->value(2).toLongLong(), 2); // the latest run
        QVERIFY(!match->next());                   // pi_2 was pending: no match
        QVERIFY(!Sql::exec(db, QStringLiteral("SELECT settlement_status FROM payments")).ok());
    }

    // 0006: a reconciliation run reads the payments of its period through payments_captured
    // (a day's run must not read every payment ever captured), and settlement lines have no
    // index by channel transaction, which nothing reads and every import paid for.
    void reconciliationIndexes_data() { Test::addEngineRows(); }
    void reconciliationIndexes()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->orders());
        auto indexes = [&](const QString &table) {
            QString sql;
            switch (c.dialect()) {
            case Dialect::Sqlite:
                sql = QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'index' AND"
                                     " tbl_name = ?");
                break;
            case Dialect::Postgres:
                sql = QStringLiteral("SELECT indexname FROM pg_indexes WHERE schemaname ="
                                     " current_schema() AND tablename = ?");
                break;
            case Dialect::MySql:
                sql = QStringLiteral("SELECT DISTINCT index_name FROM information_schema.statistics"
                                     " WHERE table_schema = DATABASE() AND table_name = ?");
                break;
            }
            QStringList names;
            auto q = Sql::exec(c.db(), sql, {table});
            while (q && q->next())
                names << q->value(0).toString();
            return names;
        };
        const QStringList payments = indexes(QStringLiteral("payments"));
        QVERIFY2(payments.contains(QStringLiteral("payments_captured")),
                 qPrintable(payments.join(u' ')));
        const QStringList lines = indexes(QStringLiteral("settlement_lines"));
        QVERIFY2(lines.contains(QStringLiteral("settlement_lines_time")),
                 qPrintable(lines.join(u' ')));
        QVERIFY2(!lines.contains(QStringLiteral("settlement_lines_txn")),
                 qPrintable(lines.join(u' ')));
        if (c.dialect() == Dialect::Sqlite) {
            auto plan = Sql::exec(c.db(),
                                  QStringLiteral("EXPLAIN QUERY PLAN SELECT id FROM payments"
                                                 " WHERE captured_at >= ? AND"
                                                 " captured_at < ?"),
                                  {0, 86400000});
            QVERIFY(plan.ok());
            QString steps;
            while (plan->next())
                steps += plan->value(3).toString() + u'\n';
            QVERIFY2(steps.contains(QStringLiteral("payments_captured")), qPrintable(steps));
        }
    }

    void duplicateCallbackIdRefused_data() { Test::addEngineRows(); }
    void duplicateCallbackIdRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->orders());
        QVERIFY(Sql::exec(c.db(), kInsertMessage, {QStringLiteral("stripe:evt_1")}).ok());
        auto dup = Sql::exec(c.db(), kInsertMessage, {QStringLiteral("stripe:evt_1")});
        QVERIFY(!dup.ok());
        QCOMPARE(dup.error().code, ErrorCode::Conflict);
        // Case matters: evt_A and evt_a are different channel events (binary collation).
        QVERIFY(Sql::exec(c.db(), kInsertMessage, {QStringLiteral("stripe:EVT_1")}).ok());
        QCOMPARE(
            Sql::scalar(c.db(), QStringLiteral("SELECT COUNT(*) FROM callback_messages"))->toInt(),
            2);
    }

    // The statements a Connection keeps prepared (the engine's hot writes, the console's search
    // and order page): run again with new values, never a stale answer; the same text asked for
    // while its run is still being read; a failed run; a reconnect.
    void keptStatementsRunAgainAndRecover_data() { Test::addEngineRows(); }
    void keptStatementsRunAgainAndRecover()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->orders());
        for (const char *id : {"o-1", "o-2", "o-3"})
            QCOMPARE(c.execKept(kInsertOrder, {QString::fromLatin1(id), 1000}).value(), 1);
        QCOMPARE(c.keptCount(), 1);
        // A duplicate key: refused as a conflict, the statement dropped, the next run prepares it.
        auto dup = c.execKept(kInsertOrder, {QStringLiteral("o-1"), 5});
        QVERIFY(!dup.ok());
        QCOMPARE(dup.error().code, ErrorCode::Conflict);
        QCOMPARE(c.keptCount(), 0);
        QCOMPARE(c.execKept(kInsertOrder, {QStringLiteral("o-4"), 4000}).value(), 1);

        const QString byId =
            QStringLiteral("SELECT order_id, amount_minor FROM orders WHERE order_id = ?");
        const QString above =
            QStringLiteral("SELECT order_id FROM orders WHERE amount_minor >= ? ORDER BY order_id");
        for (int round = 0; round < 2; ++round) {
            auto a = c.queryKept(byId, {QStringLiteral("o-4")});
            QVERIFY(a.ok());
            QVERIFY(a->next());
            QCOMPARE(a->value(1).toLongLong(), 4000);
            QVERIFY(!a->next());
        }
        {
            auto outer = c.queryKept(above, {1000});
            QVERIFY(outer.ok());
            QStringList seen;
            while (outer->next())
                seen << outer->value(0).toString();
            QCOMPARE(seen.join(u' '), QStringLiteral("o-1 o-2 o-3 o-4"));
            // The same statement again while the first run is still held: a one-off run.
            // (Reads are not interleaved: forward-only results on one PostgreSQL link are not.)
            auto inner = c.queryKept(above, {4000});
            QVERIFY(inner.ok());
            QVERIFY(inner->next());
            QCOMPARE(inner->value(0).toString(), QStringLiteral("o-4"));
            QVERIFY(!inner->next());
        }
        {
            auto after = c.queryKept(above, {2000}); // the kept one again, new values
            QVERIFY(after.ok());
            QVERIFY(after->next());
            QCOMPARE(after->value(0).toString(), QStringLiteral("o-4"));
            QVERIFY(!after->next());
        }
        QCOMPARE(c.keptCount(), 3);
        auto bad = c.queryKept(QStringLiteral("SELECT no_such_column FROM orders"), {});
        QVERIFY(!bad.ok());
        QCOMPARE(c.keptCount(), 3);

        QVERIFY(c.reconnect().ok());
        QCOMPARE(c.keptCount(), 0);
        auto again = c.queryKept(byId, {QStringLiteral("o-2")});
        QVERIFY(again.ok());
        QVERIFY(again->next());
        QCOMPARE(again->value(0).toString(), QStringLiteral("o-2"));
    }

    void oneEffectPerOrderAndPayment_data() { Test::addEngineRows(); }
    void oneEffectPerOrderAndPayment()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->orders());
        QVERIFY(Sql::exec(c.db(), kInsertOrder, {QStringLiteral("o-1"), 1000}).ok());

        const QString po =
            QStringLiteral("INSERT INTO purchase_orders (order_id, created_at) VALUES ('o-1', 0)");
        QVERIFY(Sql::exec(c.db(), po).ok());
        auto po2 = Sql::exec(c.db(), po);
        QVERIFY(!po2.ok());
        QCOMPARE(po2.error().code, ErrorCode::Conflict);

        const QString lo =
            QStringLiteral("INSERT INTO logistics_orders (order_id, created_at) VALUES ('o-1', 0)");
        QVERIFY(Sql::exec(c.db(), lo).ok());
        QCOMPARE(Sql::exec(c.db(), lo).error().code, ErrorCode::Conflict);

        const QString credit = QStringLiteral(
            "INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor, currency, "
            "created_at)"
            " VALUES ('credit:stripe:pi_1', 'o-1', 'payment_credit', 1000, 'USD', 0)");
        QVERIFY(Sql::exec(c.db(), credit).ok());
        QCOMPARE(Sql::exec(c.db(), credit).error().code, ErrorCode::Conflict);

        const QString idem = QStringLiteral(
            "INSERT INTO idempotency_records (request_id, order_id, expected_version, operation,"
            " payload_digest, status, created_at, updated_at) VALUES ('req-1', 'o-1', 1, 'pay', "
            "'d', 0, 0, 0)");
        QVERIFY(Sql::exec(c.db(), idem).ok());
        QCOMPARE(Sql::exec(c.db(), idem).error().code, ErrorCode::Conflict);

        const QString payment =
            QStringLiteral("INSERT INTO payments (order_id, channel, channel_txn_id, callback_id, "
                           "amount_minor, currency,"
                           " status, captured_at) VALUES ('o-1', 'stripe', 'pi_1', ?, 1000, 'USD', "
                           "'captured', 0)");
        QVERIFY(Sql::exec(c.db(), payment, {QStringLiteral("cb-1")}).ok());
        QCOMPARE(Sql::exec(c.db(), payment, {QStringLiteral("cb-2")}).error().code,
                 ErrorCode::Conflict);
    }

    void moneyAndStatesAreChecked_data() { Test::addEngineRows(); }
    void moneyAndStatesAreChecked()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->orders());
        QVERIFY(!Sql::exec(c.db(), kInsertOrder, {QStringLiteral("o-neg"), -5}).ok());
        QVERIFY(!Sql::exec(c.db(), kInsertOrder, {QStringLiteral("o-zero"), 0}).ok());
        QVERIFY(!Sql::exec(c.db(), QStringLiteral(
                                       "INSERT INTO orders (order_id, customer_ref, amount_minor,"
                                       " currency, state, version, created_at, updated_at) VALUES"
                                       " ('o-x', 'c', 10, 'USD', 'shipped', 1, 0, 0)"))
                     .ok());
        QCOMPARE(Sql::scalar(c.db(), QStringLiteral("SELECT COUNT(*) FROM orders"))->toInt(), 0);
    }

    void auditLogIsAppendOnly_data() { Test::addEngineRows(); }
    void auditLogIsAppendOnly()
    {
        ONCEPAY_SCRATCH(dbs);
        Connection c = migrated(dbs->audit());
        QVERIFY(Sql::exec(c.db(), kInsertAudit, {1, QStringLiteral("e-1")}).ok());
        QVERIFY(Sql::exec(c.db(), kInsertAudit, {2, QStringLiteral("e-2")}).ok());

        auto upd = Sql::exec(
            c.db(), QStringLiteral("UPDATE audit_log SET actor = 'mallory' WHERE seq = 1"));
        QVERIFY(!upd.ok());
        QVERIFY2(upd.error().message.contains(QStringLiteral("append-only")),
                 qPrintable(upd.error().message));
        auto del = Sql::exec(c.db(), QStringLiteral("DELETE FROM audit_log WHERE seq = 2"));
        QVERIFY(!del.ok());
        QVERIFY(del.error().message.contains(QStringLiteral("append-only")));
        auto dupEvent = Sql::exec(c.db(), kInsertAudit, {3, QStringLiteral("e-1")});
        QCOMPARE(dupEvent.error().code, ErrorCode::Conflict);

        QCOMPARE(Sql::scalar(c.db(), QStringLiteral("SELECT COUNT(*) FROM audit_log"))->toInt(), 2);
        QCOMPARE(Sql::scalar(c.db(), QStringLiteral("SELECT actor FROM audit_log WHERE seq = 1"))
                     ->toString(),
                 QStringLiteral("system"));

        auto seal =
            QStringLiteral("INSERT INTO audit_checkpoints (seq, head_hash, key_id, signature,"
                           " sealed_by, sealed_at) VALUES (2, 'h', 'k', 's', 'system', 0)");
        QVERIFY(Sql::exec(c.db(), seal).ok());
        QVERIFY(!Sql::exec(c.db(), QStringLiteral("DELETE FROM audit_checkpoints")).ok());
        QCOMPARE(
            Sql::scalar(c.db(), QStringLiteral("SELECT COUNT(*) FROM audit_checkpoints"))->toInt(),
            1);
    }

    void unreachableServerNamesRole_data() { Test::addServerEngineRows(); }
    void unreachableServerNamesRole()
    {
        QFETCH(int, dialect);
        ConnectionProfile p;
        p.role = DbRole::Audit;
        p.dialect = Dialect(dialect);
        p.host = QStringLiteral("127.0.0.1");
        p.port = 1; // nothing listens on tcpmux
        p.database = QStringLiteral("nope");
        p.user = QStringLiteral("nobody");
        p.password = QStringLiteral("pw-must-not-leak");
        auto c = Connection::open(p, QStringLiteral("test"));
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, ErrorCode::Unavailable);
        QVERIFY(c.error().message.startsWith(QStringLiteral("audit:")));
        QVERIFY(!c.error().message.contains(QStringLiteral("pw-must-not-leak")));
    }

    void wrongPasswordNamesRole_data() { Test::addServerEngineRows(); }
    void wrongPasswordNamesRole()
    {
        ONCEPAY_SCRATCH(dbs);
        ConnectionProfile p = dbs->orders();
        p.password = QStringLiteral("definitely-wrong");
        auto c = Connection::open(p, QStringLiteral("test"));
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, ErrorCode::Unavailable);
        QVERIFY(c.error().message.startsWith(QStringLiteral("orders:")));
        QVERIFY(!c.error().message.contains(QStringLiteral("definitely-wrong")));
        // Told from an outage: what the worker and the gateway stop on (exit 6), what the
        // console says as a refused login.
        QCOMPARE(c.error().reason, QStringLiteral("login_refused"));
        QVERIFY(!WorkerPool::waitingCures(c.error()));
    }

    // An outage is not a refused login: it is waited for.
    void unreachableServerIsNoRefusedLogin_data() { Test::addServerEngineRows(); }
    void unreachableServerIsNoRefusedLogin()
    {
        ONCEPAY_SCRATCH(dbs);
        ConnectionProfile p = dbs->orders();
        p.host = QStringLiteral("127.0.0.1");
        p.port = 1; // nothing listens there
        auto c = Connection::open(p, QStringLiteral("test"));
        QVERIFY(!c.ok());
        QVERIFY(c.error().reason != u"login_refused");
        QVERIFY(WorkerPool::waitingCures(c.error()));
    }
};

QTEST_GUILESS_MAIN(TstSchema)
#include "tst_schema.moc"
