#include "logingrants.h"

#include "db/migrator.h"
#include "db/sql.h"

#include <QHash>
#include <QSqlQuery>
#include <QSqlRecord>

#include <optional>

namespace OncePay {

namespace {

// The tables the engine reads, writes once, or writes and updates (the grants scripts' words).
QList<LoginGrant> grants(const QStringList &tables, const QStringList &privileges)
{
    QList<LoginGrant> out;
    for (const QString &t : tables)
        for (const QString &p : privileges)
            out.append({t, p, {}});
    return out;
}

QString describe(const LoginGrant &g)
{
    return g.column.isEmpty() ? QStringLiteral("%1 on %2").arg(g.privilege, g.table)
                              : QStringLiteral("%1 (%2) on %3").arg(g.privilege, g.column, g.table);
}

} // namespace

QList<LoginGrant> LoginGrants::engineNeeds(const QString &schema)
{
    const QStringList select{QStringLiteral("SELECT")};
    const QStringList append{QStringLiteral("SELECT"), QStringLiteral("INSERT")};
    const QStringList write{QStringLiteral("SELECT"), QStringLiteral("INSERT"),
                            QStringLiteral("UPDATE")};
    if (schema == u"audit")
        return grants({QStringLiteral("schema_version")}, select) +
               grants({QStringLiteral("audit_log"), QStringLiteral("audit_checkpoints")}, append);
    QList<LoginGrant> out = grants({QStringLiteral("schema_version")}, select);
    out += grants({QStringLiteral("orders"), QStringLiteral("order_transitions"),
                   QStringLiteral("idempotency_records"), QStringLiteral("payments"),
                   QStringLiteral("ledger_entries"), QStringLiteral("purchase_orders"),
                   QStringLiteral("logistics_orders"), QStringLiteral("callback_messages"),
                   QStringLiteral("dead_letters"), QStringLiteral("ingest_rejections"),
                   QStringLiteral("transition_rejections"), QStringLiteral("refund_obligations"),
                   QStringLiteral("settlement_statements"), QStringLiteral("settlement_lines"),
                   QStringLiteral("reconciliation_runs"), QStringLiteral("discrepancies"),
                   QStringLiteral("fee_schedules"), QStringLiteral("callback_door_counts")},
                  write);
    out += grants({QStringLiteral("settlement_matches"), QStringLiteral("callback_attempts"),
                   QStringLiteral("audit_outbox")},
                  append);
    out.append(
        {QStringLiteral("audit_outbox"), QStringLiteral("UPDATE"), QStringLiteral("shipped_at")});
    out += grants({QStringLiteral("ops_settings"), QStringLiteral("fix_requests"),
                   QStringLiteral("fix_decisions"), QStringLiteral("closed_periods")},
                  select);
    return out;
}

Result<QStringList> LoginGrants::missingForEngine(const Connection &c)
{
    if (c.dialect() == Dialect::Sqlite)
        return QStringList{};
    QSqlDatabase db = c.db();
    if (!db.transaction())
        return Sql::classify(db.lastError(), QStringLiteral("checking the login's grants"));
    QStringList missing;
    QHash<QString, QString> firstColumn; // of each table its SELECT probe read (for UPDATE)
    std::optional<Error> failed;
    for (const LoginGrant &g : engineNeeds(Migrator::schemaFor(c.profile().role))) {
        // Every probe matches no row; a statement-level trigger may still refuse it, which is
        // a rule, not a missing privilege. A table the login cannot read is named once: its
        // columns are unknown, so what else it may do is not tried.
        QString sql;
        if (g.privilege == u"SELECT") {
            sql = QStringLiteral("SELECT * FROM %1 WHERE 1 = 0").arg(g.table);
        } else {
            const QString column = firstColumn.value(g.table);
            if (column.isEmpty())
                continue;
            sql = g.privilege == u"INSERT"
                      ? QStringLiteral("INSERT INTO %1 SELECT * FROM %1 WHERE 1 = 0").arg(g.table)
                      : QStringLiteral("UPDATE %1 SET %2 = %2 WHERE 1 = 0")
                            .arg(g.table, g.column.isEmpty() ? column : g.column);
        }
        // Each probe behind a savepoint: on PostgreSQL a refused statement would end the
        // transaction for the probes after it.
        if (auto mark = Sql::exec(db, QStringLiteral("SAVEPOINT grant_probe")); !mark) {
            failed = mark.error();
            break;
        }
        auto r = Sql::exec(db, sql);
        if (r) {
            if (g.privilege == u"SELECT")
                firstColumn.insert(g.table, r->record().fieldName(0));
            continue;
        }
        (void)Sql::exec(db, QStringLiteral("ROLLBACK TO SAVEPOINT grant_probe"));
        if (r.error().reason == u"permission_denied")
            missing << describe(g);
        else if (r.error().reason != u"database_rule") {
            failed = r.error();
            break;
        }
    }
    // PostgreSQL: a row inserted takes its id from the table's sequence, which needs USAGE of
    // its own (the probes above insert no row, so they never reach it).
    if (!failed && c.dialect() == Dialect::Postgres) {
        QStringList seen;
        for (const LoginGrant &g : engineNeeds(Migrator::schemaFor(c.profile().role))) {
            if (g.privilege != u"INSERT" || seen.contains(g.table))
                continue;
            seen << g.table;
            auto q = Sql::exec(
                db,
                QStringLiteral(
                    "SELECT s.relname FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND"
                    " d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') JOIN pg_class t"
                    " ON t.oid = d.refobjid WHERE s.relkind = 'S' AND t.relname = ? AND"
                    " t.relnamespace = to_regnamespace(current_schema())::oid AND NOT (CASE WHEN"
                    " s.relkind = 'S' THEN has_sequence_privilege(s.oid, 'USAGE') ELSE true END)"
                    " ORDER BY s.relname"),
                {g.table});
            if (!q) {
                failed = q.error();
                break;
            }
            while (q->next())
                missing << QStringLiteral("USAGE on %1").arg(q->value(0).toString());
        }
    }
    db.rollback();
    if (failed)
        return *failed;
    return missing;
}

bool LoginGrants::isAnotherRolesLogin(const Connection &c, const QStringList &missing)
{
    // The engine's first writes: a login that may not write these was given another role's
    // grants (a console's, the auditor's) and is not the engine's to check.
    const QString core = Migrator::schemaFor(c.profile().role) == u"audit"
                             ? QStringLiteral("INSERT on audit_log")
                             : QStringLiteral("INSERT on orders");
    return missing.contains(core);
}

} // namespace OncePay
