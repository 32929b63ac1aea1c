// The least-privilege database roles shipped in packaging/sql/ (README "Connecting to
// PostgreSQL or MySQL"), applied the way the README says to fresh databases on the
// throw-away servers: the owner can migrate; the engine, the two console logins (finance and
// administration's, the desk's) and the auditor can do their jobs and nothing more; nobody but
// the owner can change or delete an audit row, and the auditor cannot write at all. The scripts
// must be safe to run again, and must name every table the migrations create (so a new table cannot
// silently stay without grants).

#include "cliprocess.h"
#include "dbrolesetup.h"
#include "testdatabases.h"

#include "audit/auditoutbox.h"
#include "audit/audittrailquery.h"
#include "auth/staffservice.h"
#include "core/clock.h"
#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "fixes/fixservice.h"

#include <QFile>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QTextStream>

#include <map>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

bool isPrivilegeDenial(const QString &message)
{
    // PostgreSQL: "permission denied for table …"; MySQL/MariaDB: "… command denied to
    // user …". The audit triggers' "append-only" refusal must not be what stopped it.
    return (message.contains(QStringLiteral("permission denied"), Qt::CaseInsensitive) ||
            message.contains(QStringLiteral("command denied"), Qt::CaseInsensitive)) &&
           !message.contains(QStringLiteral("append-only"));
}

struct Expectation {
    const char *role;
    DbRole database;
    bool allowed;
    const char *sql;
};

// Statements each role runs, in this order, with what must happen.
const Expectation kExpectations[] = {
    // The engine moves orders and books audit events; it cannot delete, touch staff or
    // approvals, or change an audit event other than marking it shipped.
    {"engine", DbRole::Orders, true,
     "INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state, version,"
     " created_at, updated_at) VALUES ('o-roles-1', 'c-1', 2112, 'USD', 'pending_payment', 1,"
     " 1, 1)"},
    {"engine", DbRole::Orders, true,
     "UPDATE orders SET state = 'paying', version = 2 WHERE order_id = 'o-roles-1'"
     " AND version = 1"},
    {"engine", DbRole::Orders, false, "DELETE FROM orders WHERE order_id = 'o-roles-1'"},
    {"engine", DbRole::Orders, true,
     "INSERT INTO audit_outbox (event_id, occurred_at, actor, actor_role, action, entity_kind,"
     " entity_id) VALUES ('ev-roles-1', 1, 'worker', 'system', 'order.transition', 'order',"
     " 'o-roles-1')"},
    {"engine", DbRole::Orders, true,
     "UPDATE audit_outbox SET shipped_at = 2 WHERE event_id = 'ev-roles-1'"},
    {"engine", DbRole::Orders, false,
     "UPDATE audit_outbox SET action = 'forged' WHERE event_id = 'ev-roles-1'"},
    {"engine", DbRole::Orders, false, "DELETE FROM audit_outbox"},
    {"engine", DbRole::Orders, false, "SELECT COUNT(*) FROM staff"},
    {"engine", DbRole::Orders, false,
     "INSERT INTO staff (username, display_name, role, password_hash, created_at, updated_at)"
     " VALUES ('mallory', 'M', 'admin', 'x', 1, 1)"},
    // A settlement match is written once and never changed (no REFERENCES: any ids do here).
    {"engine", DbRole::Orders, true,
     "INSERT INTO settlement_matches (payment_id, settlement_line_id, run_id) VALUES (1, 1, 1)"},
    {"engine", DbRole::Orders, false, "UPDATE settlement_matches SET run_id = 2"},
    {"engine", DbRole::Orders, false, "DELETE FROM settlement_matches"},
    // The ingest counts duplicates absorbed at the door (migration 0017); nobody deletes them.
    {"engine", DbRole::Orders, true,
     "INSERT INTO callback_door_counts (channel, bucket_start_ms, duplicates, updated_at)"
     " VALUES ('stripe', 300000, 1, 1)"},
    {"engine", DbRole::Orders, true,
     "UPDATE callback_door_counts SET duplicates = duplicates + 1 WHERE channel = 'stripe'"},
    {"engine", DbRole::Orders, false, "DELETE FROM callback_door_counts"},
    {"console", DbRole::Orders, true, "SELECT SUM(duplicates) FROM callback_door_counts"},
    {"console", DbRole::Orders, false, "UPDATE callback_door_counts SET duplicates = 0"},
    {"auditor", DbRole::Orders, true, "SELECT SUM(duplicates) FROM callback_door_counts"},
    {"auditor", DbRole::Orders, false, "UPDATE callback_door_counts SET duplicates = 0"},
    // The attempt history (0016): the engine records attempts, and so does the console for a
    // fix that takes over a message whose worker died; nobody changes one, the auditor reads.
    {"engine", DbRole::Orders, true,
     "INSERT INTO callback_messages (callback_id, channel, event_kind, raw_body, headers,"
     " status, next_attempt_at, received_at, updated_at) VALUES ('stripe:evt_roles', 'stripe',"
     " 'payment_succeeded', '{}', '{}', 'pending', 1, 1, 1)"},
    {"engine", DbRole::Orders, true,
     "INSERT INTO callback_attempts (message_id, attempt, worker_id, outcome, error,"
     " started_at, ended_at) SELECT id, 1, 'worker:a/1', 'failed', 'x', 1, 2 FROM"
     " callback_messages WHERE callback_id = 'stripe:evt_roles'"},
    {"console", DbRole::Orders, true,
     "INSERT INTO callback_attempts (message_id, attempt, worker_id, outcome, error,"
     " started_at, ended_at) SELECT id, 2, 'worker:gone/1', 'lease_expired', 'y', 3, 4 FROM"
     " callback_messages WHERE callback_id = 'stripe:evt_roles'"},
    {"console", DbRole::Orders, false, "UPDATE callback_attempts SET error = 'z'"},
    {"auditor", DbRole::Orders, true, "SELECT COUNT(*) FROM callback_attempts"},
    {"auditor", DbRole::Orders, false,
     "INSERT INTO callback_attempts (message_id, attempt, worker_id, outcome, error,"
     " started_at, ended_at) SELECT id, 3, 'worker:x/1', 'failed', 'w', 5, 6 FROM"
     " callback_messages WHERE callback_id = 'stripe:evt_roles'"},
    {"engine", DbRole::Orders, false, "UPDATE fix_requests SET kind = kind"},
    {"engine", DbRole::Orders, false, "UPDATE ops_settings SET setting_value = setting_value"},
    {"engine", DbRole::Audit, true,
     "INSERT INTO audit_log (seq, event_id, occurred_at, recorded_at, actor, actor_role,"
     " action, entity_kind, entity_id, prev_hash, hash) VALUES (1, 'ev-roles-1', 1, 2,"
     " 'worker', 'system', 'order.transition', 'order', 'o-roles-1', '0', 'h1')"},
    {"engine", DbRole::Audit, true, "SELECT COUNT(*) FROM audit_log"},
    {"engine", DbRole::Audit, false, "UPDATE audit_log SET reason = 'rewritten'"},
    {"engine", DbRole::Audit, false, "DELETE FROM audit_log"},
    {"engine", DbRole::Audit, false, "UPDATE audit_checkpoints SET signature = 'x'"},
    // The console records audit events but never changes one; it reads the audit log only.
    {"console", DbRole::Orders, true, "SELECT COUNT(*) FROM staff"},
    {"console", DbRole::Orders, true,
     "INSERT INTO audit_outbox (event_id, occurred_at, actor, actor_role, action, entity_kind,"
     " entity_id) VALUES ('ev-roles-2', 1, 'finance', 'finance', 'fix.approve', 'fix', '1')"},
    {"console", DbRole::Orders, false,
     "UPDATE audit_outbox SET shipped_at = 3 WHERE event_id = 'ev-roles-2'"},
    {"console", DbRole::Orders, false, "DELETE FROM orders"},
    {"console", DbRole::Audit, true, "SELECT COUNT(*) FROM audit_log"},
    {"console", DbRole::Audit, false,
     "INSERT INTO audit_log (seq, event_id, occurred_at, recorded_at, actor, actor_role,"
     " action, entity_kind, entity_id, prev_hash, hash) VALUES (2, 'ev-roles-2', 1, 2,"
     " 'finance', 'finance', 'fix.approve', 'fix', '1', 'h1', 'h2')"},
    {"console", DbRole::Audit, false, "UPDATE audit_log SET reason = 'rewritten'"},
    {"console", DbRole::Audit, false, "DELETE FROM audit_log"},
    // The desk console (agents' and auditors' workstations): reads everything (a sign-in checks
    // the password hash on the workstation), counts sign-in failures and locks, proposes fixes
    // and records audit events — and nothing else: no decision, no account change, no money.
    {"desk", DbRole::Orders, true, "SELECT COUNT(*) FROM orders"},
    {"desk", DbRole::Orders, true, "SELECT password_hash FROM staff"},
    {"desk", DbRole::Orders, true,
     "UPDATE staff SET failed_attempts = 1, locked_until = NULL, updated_at = 2"
     " WHERE username = 'nobody'"},
    // The account read as it is now, its row locked (sign-in, the dossier export's check):
    // PostgreSQL asks UPDATE of a column for FOR UPDATE.
    {"desk", DbRole::Orders, true, "SELECT id, role, disabled FROM staff WHERE id = 1 FOR UPDATE"},
    {"desk", DbRole::Orders, false, "UPDATE staff SET role = 'admin' WHERE username = 'nobody'"},
    {"desk", DbRole::Orders, false,
     "UPDATE staff SET password_hash = 'x' WHERE username = 'nobody'"},
    {"desk", DbRole::Orders, false, "UPDATE staff SET disabled = 0 WHERE username = 'nobody'"},
    {"desk", DbRole::Orders, false,
     "INSERT INTO staff (username, display_name, role, password_hash, created_at, updated_at)"
     " VALUES ('mallory2', 'M', 'admin', 'x', 1, 1)"},
    {"desk", DbRole::Orders, true,
     "INSERT INTO fix_requests (kind, target_kind, target_id, open_target, change_json,"
     " change_sha256, reason_code, comment, proposed_by, proposer_role, proposed_from,"
     " proposed_at, approvals_needed, status) VALUES ('requeue_message', 'message', '1',"
     " 'message:1', '{}', 'x', 'stuck', 'c', 'agent', 'agent', 'console', 1, 1, 'open')"},
    {"desk", DbRole::Orders, false,
     "INSERT INTO fix_decisions (fix_id, decided_by, decision, comment, decided_at)"
     " SELECT id, 'agent', 'approve', 'mine', 2 FROM fix_requests WHERE open_target ="
     " 'message:1'"},
    {"desk", DbRole::Orders, false, "UPDATE fix_requests SET status = 'approved'"},
    {"desk", DbRole::Orders, true,
     "INSERT INTO audit_outbox (event_id, occurred_at, actor, actor_role, action, entity_kind,"
     " entity_id) VALUES ('ev-roles-4', 1, 'agent', 'agent', 'export.dossier', 'order',"
     " 'o-roles-1')"},
    {"desk", DbRole::Orders, false, "UPDATE audit_outbox SET shipped_at = 5"},
    {"desk", DbRole::Orders, false, "UPDATE orders SET state = 'paid'"},
    {"desk", DbRole::Orders, false, "DELETE FROM ledger_entries"},
    {"desk", DbRole::Orders, false, "UPDATE ops_settings SET setting_value = setting_value"},
    {"desk", DbRole::Orders, false,
     "INSERT INTO callback_attempts (message_id, attempt, worker_id, outcome, error,"
     " started_at, ended_at) SELECT id, 4, 'worker:x/1', 'failed', 'w', 5, 6 FROM"
     " callback_messages WHERE callback_id = 'stripe:evt_roles'"},
    {"desk", DbRole::Audit, true, "SELECT COUNT(*) FROM audit_checkpoints"},
    {"desk", DbRole::Audit, false,
     "INSERT INTO audit_log (seq, event_id, occurred_at, recorded_at, actor, actor_role,"
     " action, entity_kind, entity_id, prev_hash, hash) VALUES (4, 'ev-roles-4', 1, 2,"
     " 'agent', 'agent', 'x', 'x', 'x', 'h1', 'h4')"},
    // The auditor reads (not password hashes) and writes nothing anywhere.
    {"auditor", DbRole::Orders, true, "SELECT COUNT(*) FROM orders"},
    {"auditor", DbRole::Orders, true, "SELECT username, role FROM staff"},
    {"auditor", DbRole::Orders, false, "SELECT password_hash FROM staff"},
    {"auditor", DbRole::Orders, false,
     "INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state, version,"
     " created_at, updated_at) VALUES ('o-roles-2', 'c-1', 1, 'USD', 'pending_payment', 1,"
     " 1, 1)"},
    {"auditor", DbRole::Orders, false, "UPDATE orders SET state_reason = 'x'"},
    {"auditor", DbRole::Orders, false, "DELETE FROM orders"},
    {"auditor", DbRole::Orders, false,
     "INSERT INTO audit_outbox (event_id, occurred_at, actor, actor_role, action, entity_kind,"
     " entity_id) VALUES ('ev-roles-3', 1, 'auditor', 'auditor', 'x', 'x', 'x')"},
    {"auditor", DbRole::Orders, false, "UPDATE audit_outbox SET shipped_at = 4"},
    {"auditor", DbRole::Orders, false, "UPDATE ops_settings SET setting_value = setting_value"},
    {"auditor", DbRole::Audit, true, "SELECT COUNT(*) FROM audit_log"},
    {"auditor", DbRole::Audit, false,
     "INSERT INTO audit_log (seq, event_id, occurred_at, recorded_at, actor, actor_role,"
     " action, entity_kind, entity_id, prev_hash, hash) VALUES (3, 'ev-roles-3', 1, 2,"
     " 'auditor', 'auditor', 'x', 'x', 'x', 'h1', 'h3')"},
    {"auditor", DbRole::Audit, false, "UPDATE audit_log SET reason = 'rewritten'"},
    {"auditor", DbRole::Audit, false, "DELETE FROM audit_log"},
    {"auditor", DbRole::Audit, false,
     "INSERT INTO audit_checkpoints (seq, head_hash, key_id, signature, sealed_by, sealed_at)"
     " VALUES (1, 'h1', 'k', 's', 'auditor', 1)"},
};

} // namespace

class TstDbRoles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void statementSplitterKeepsFunctionBodies()
    {
        const QStringList s = scriptStatements(
            QStringLiteral("-- c\nDO $$\nBEGIN\n  PERFORM 1;\nEND\n$$;\nGRANT x\n  ON y;\n"));
        QCOMPARE(s.size(), 2);
        QVERIFY(s[0].contains(QStringLiteral("PERFORM 1;")));
        QCOMPARE(s[1], QStringLiteral("GRANT x\n  ON y"));
    }

    void scriptsNameEveryTable_data() { addServerEngineRows(); }
    void scriptsNameEveryTable()
    {
        ONCEPAY_SCRATCH(dbs);
        const QString prefix = dialect == int(Dialect::Postgres) ? QStringLiteral("postgresql")
                                                                 : QStringLiteral("mysql");
        for (const ConnectionProfile *p : {&dbs->orders(), &dbs->audit()}) {
            auto c = Connection::open(*p, QStringLiteral("roles-tables"));
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            auto m = Migrator::migrate(*c);
            QVERIFY2(m.ok(), qPrintable(m.ok() ? QString() : m.error().message));
            const QString script =
                readGrantScript(QStringLiteral("%1-%2-grants.sql").arg(prefix, roleName(p->role)));
            QVERIFY(!script.isEmpty());
            const QString listSql =
                dialect == int(Dialect::Postgres)
                    ? QStringLiteral(
                          "SELECT table_name FROM information_schema.tables WHERE "
                          "table_schema = current_schema() AND table_type = 'BASE TABLE'")
                    : QStringLiteral("SELECT table_name FROM information_schema.tables WHERE "
                                     "table_schema = DATABASE() AND table_type = 'BASE TABLE'");
            auto q = Sql::exec(c->db(), listSql);
            QVERIFY(q.ok());
            int tables = 0;
            while (q->next()) {
                const QString table = q->value(0).toString();
                ++tables;
                const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(table));
                QVERIFY2(script.contains(word),
                         qPrintable(QStringLiteral("%1-%2-grants.sql does not mention table %3")
                                        .arg(prefix, roleName(p->role), table)));
            }
            QVERIFY(tables >= 3);
        }
    }

    void rolesGrantWhatEachJobNeedsAndNothingMore_data() { addServerEngineRows(); }
    void rolesGrantWhatEachJobNeedsAndNothingMore()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;

        std::map<std::pair<QString, int>, Connection> connections;
        int checked = 0;
        for (const Expectation &e : kExpectations) {
            const auto key = std::make_pair(QString::fromLatin1(e.role), int(e.database));
            if (!connections.count(key)) {
                auto c = Connection::open(roles.profile(*dbs, e.role, e.database),
                                          QStringLiteral("roles-%1").arg(e.role));
                QVERIFY2(c.ok(),
                         qPrintable(QStringLiteral("%1 cannot connect: %2")
                                        .arg(e.role, c.ok() ? QString() : c.error().message)));
                connections.emplace(key, std::move(c).value());
            }
            auto r = Sql::exec(connections.at(key).db(), QString::fromLatin1(e.sql));
            const QString what =
                QStringLiteral("%1 on %2: %3").arg(e.role, roleName(e.database), e.sql);
            if (e.allowed) {
                QVERIFY2(r.ok(), qPrintable(what + QStringLiteral(" was refused: ") +
                                            (r.ok() ? QString() : r.error().message)));
            } else {
                QVERIFY2(!r.ok(), qPrintable(what + QStringLiteral(" was allowed")));
                QVERIFY2(isPrivilegeDenial(r.error().message),
                         qPrintable(what +
                                    QStringLiteral(" failed, but not for lack of a "
                                                   "privilege: ") +
                                    r.error().message));
            }
            ++checked;
        }
        QCOMPARE(checked, int(std::size(kExpectations)));
    }

    // The real program, configured with the engine role as the README says, processes the
    // message table and ships audit events.
    void engineRoleRunsTheWorker_data() { addServerEngineRows(); }
    void engineRoleRunsTheWorker()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;
        const QString config = writeRoleConfig(*dbs, roles, "engine");
        const QProcessEnvironment env = roleEnvironment(roles, "engine");

        const CliRun work = runOncepay(
            {QStringLiteral("--config"), config, QStringLiteral("work"), QStringLiteral("--once")},
            env);
        QVERIFY2(work.exitCode == 0, qPrintable(work.err));
        const CliRun ship = runOncepay(
            {QStringLiteral("--config"), config, QStringLiteral("audit"), QStringLiteral("ship")},
            env);
        QVERIFY2(ship.exitCode == 0, qPrintable(ship.err));
    }

    // The auditor's role reads the audit trail through the service, which checks the auditor's
    // account as it is now: reading the staff row must not need rights the role does not have
    // (a locking read needs UPDATE on PostgreSQL and MariaDB).
    void auditorReadsTheTrail_data() { addServerEngineRows(); }
    void auditorReadsTheTrail()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;
        {
            auto owner = Connection::open(dbs->orders(), QStringLiteral("roles-staff"));
            QVERIFY(owner.ok());
            QVERIFY(Sql::exec(owner->db(),
                              "INSERT INTO staff (username, display_name, role, password_hash,"
                              " disabled, failed_attempts, created_at, updated_at) VALUES"
                              " ('aud', '', 'auditor', 'x', 0, 0, 0, 0)")
                        .ok());
        }
        auto orders = Connection::open(roles.profile(*dbs, "auditor", DbRole::Orders),
                                       QStringLiteral("roles-aud-orders"));
        auto audit = Connection::open(roles.profile(*dbs, "auditor", DbRole::Audit),
                                      QStringLiteral("roles-aud-audit"));
        QVERIFY(orders.ok() && audit.ok());
        const Actor auditor{QStringLiteral("aud"), QStringLiteral("auditor")};
        auto n = AuditTrailQuery(*audit, *orders, Clock::system()).count({}, auditor);
        QVERIFY2(n.ok(), qPrintable(n.ok() ? QString() : n.error().message));
        QCOMPARE(*n, 0);
    }

    // Staff sign in through the console's login; the engine's may not read staff accounts, and
    // a staff command run with it (`oncepay fix ...` on the engine's configuration) says so
    // instead of a raw SQL error.
    void engineLoginCannotSignStaffIn_data() { addServerEngineRows(); }
    void engineLoginCannotSignStaffIn()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;
        auto engine = Connection::open(roles.profile(*dbs, "engine", DbRole::Orders),
                                       QStringLiteral("roles-engine-signin"));
        QVERIFY(engine.ok());
        auto signedIn = StaffService(*engine, Clock::system())
                            .authenticate(QStringLiteral("fay"), QStringLiteral("whatever"),
                                          QStringLiteral("test"));
        QVERIFY(!signedIn.ok());
        QCOMPARE(signedIn.error().code, ErrorCode::Forbidden);
        QCOMPARE(signedIn.error().reason, QStringLiteral("login_cannot_sign_in"));
        QVERIFY2(signedIn.error().message.contains(QStringLiteral("oncepay_console")),
                 qPrintable(signedIn.error().message));
    }

    // `oncepay fix list` and `fix show` on the engine's configuration: its login may not read
    // staff accounts, so an open fix's approvals are shown as recorded (whether an approver has
    // lapsed needs the staff rows), not refused.
    void engineLoginListsFixesAsRecorded_data() { addServerEngineRows(); }
    void engineLoginListsFixesAsRecorded()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;
        qint64 fixId = 0;
        {
            auto owner = Connection::open(dbs->orders(), QStringLiteral("roles-fix-owner"));
            QVERIFY(owner.ok());
            const QJsonObject change{{"amount_minor", "-2500"}, {"currency", "EUR"}};
            QVERIFY(Sql::exec(owner->db(),
                              "INSERT INTO staff (username, display_name, role, password_hash,"
                              " disabled, failed_attempts, created_at, updated_at) VALUES"
                              " ('fin', '', 'finance', 'x', 0, 0, 0, 0)")
                        .ok());
            QVERIFY(Sql::exec(owner->db(),
                              "INSERT INTO fix_requests (kind, target_kind, target_id, change_json,"
                              " change_sha256, amount_minor, currency, reason_code, comment,"
                              " proposed_by, proposer_role, proposed_from, proposed_at,"
                              " approvals_needed, status) VALUES ('write_off', 'discrepancy', '1',"
                              " ?, ?, -2500, 'EUR', 'settlement_correction', 'test', 'amy',"
                              " 'agent', 'test', 0, 2, 'open')",
                              {AuditOutbox::toJson(change), FixService::digest(change)})
                        .ok());
            fixId = Sql::scalar(owner->db(), "SELECT MAX(id) FROM fix_requests")->toLongLong();
            QVERIFY(Sql::exec(owner->db(),
                              "INSERT INTO fix_decisions (fix_id, decided_by, decision, comment,"
                              " decided_at) VALUES (?, 'fin', 'approve', 'ok', 0)",
                              {fixId})
                        .ok());
        }
        auto engine = Connection::open(roles.profile(*dbs, "engine", DbRole::Orders),
                                       QStringLiteral("roles-engine-fixes"));
        QVERIFY(engine.ok());
        const FixService fixes(*engine, Clock::system());
        auto listed = fixes.list({});
        QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().message));
        QCOMPARE(listed->size(), 1);
        QCOMPARE(listed->first().approvals(), 1);
        auto shown = fixes.get(fixId);
        QVERIFY2(shown.ok(), qPrintable(shown.ok() ? QString() : shown.error().message));
        QCOMPARE(shown->approvals(), 1);
        QCOMPARE(shown->lapsedApprovals(), QStringList());
    }
};

QTEST_GUILESS_MAIN(TstDbRoles)
#include "tst_dbroles.moc"
