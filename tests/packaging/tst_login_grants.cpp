// `oncepay db check` on the least-privilege roles (README "Connecting to PostgreSQL or MySQL"):
// the engine's login with this release's grants has all it needs; with a grant taken away —
// an upgrade whose grants script was not run — the check names exactly what is missing and the
// script to apply, exits 3, and passes again once the script has run. The list it checks is
// the one the scripts grant oncepay_engine, compared here statement by statement.

#include "cliprocess.h"
#include "dbrolesetup.h"
#include "testdatabases.h"

#include "db/connection.h"
#include "db/logingrants.h"
#include "db/sql.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// "SELECT, INSERT, UPDATE (shipped_at)" -> the privileges, split outside parentheses.
QStringList privileges(const QString &list)
{
    QStringList out;
    QString current;
    int depth = 0;
    for (QChar ch : list) {
        depth += ch == u'(' ? 1 : ch == u')' ? -1 : 0;
        if (ch == u',' && depth == 0) {
            out << current.trimmed();
            current.clear();
        } else {
            current += ch;
        }
    }
    out << current.trimmed();
    return out;
}

// What a grants script gives oncepay_engine on named tables, as "PRIVILEGE table" or
// "UPDATE (column) table" (sequences and whole schemas left out: no table to probe).
QSet<QString> scriptGrantsToEngine(const QString &script)
{
    static const QRegularExpression grant(
        QStringLiteral("^GRANT\\s+(.+?)\\s+ON\\s+(.+?)\\s+TO\\s+(.+)$"),
        QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression privilege(QStringLiteral("^(\\w+)\\s*(?:\\((\\w+)\\))?$"));
    QSet<QString> out;
    for (const QString &statement : scriptStatements(script)) {
        const auto m = grant.match(statement.simplified());
        if (!m.hasMatch() || !m.captured(3).contains(QStringLiteral("oncepay_engine")) ||
            m.captured(2).startsWith(QStringLiteral("ALL ")))
            continue;
        for (const QString &p : privileges(m.captured(1))) {
            const auto pm = privilege.match(p);
            if (!pm.hasMatch())
                continue;
            for (const QString &table : m.captured(2).split(u',')) {
                const QString t = table.trimmed();
                out << (pm.captured(2).isEmpty()
                            ? QStringLiteral("%1 %2").arg(pm.captured(1), t)
                            : QStringLiteral("%1 (%2) %3").arg(pm.captured(1), pm.captured(2), t));
            }
        }
    }
    return out;
}

QSet<QString> engineNeeds(const QString &schema)
{
    QSet<QString> out;
    for (const LoginGrant &g : LoginGrants::engineNeeds(schema))
        out << (g.column.isEmpty()
                    ? QStringLiteral("%1 %2").arg(g.privilege, g.table)
                    : QStringLiteral("%1 (%2) %3").arg(g.privilege, g.column, g.table));
    return out;
}

} // namespace

class TstLoginGrants : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The probe list is the scripts' grants, both ways, for both dialects and databases: a
    // grant added to a script for a new table must be checked too.
    void checkedListIsWhatTheScriptsGrant()
    {
        for (const char *prefix : {"postgresql", "mysql"}) {
            for (const char *schema : {"orders", "audit"}) {
                const QString name = QStringLiteral("%1-%2-grants.sql").arg(prefix, schema);
                const QString script = readGrantScript(name);
                QVERIFY2(!script.isEmpty(), qPrintable(name));
                const QSet<QString> granted = scriptGrantsToEngine(script);
                const QSet<QString> checked = engineNeeds(QLatin1String(schema));
                QVERIFY2(granted.size() > 2, qPrintable(name));
                QVERIFY2(granted == checked,
                         qPrintable(name + QStringLiteral(": granted, not checked: ") +
                                    QStringList((granted - checked).values()).join(u'|') +
                                    QStringLiteral("; checked, not granted: ") +
                                    QStringList((checked - granted).values()).join(u'|')));
            }
        }
    }

    void dbCheckNamesTheMissingGrants_data() { addServerEngineRows(); }
    void dbCheckNamesTheMissingGrants()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;
        const bool pg = dbs->dialect() == Dialect::Postgres;
        const QString prefix = pg ? QStringLiteral("postgresql") : QStringLiteral("mysql");
        const QString config = writeRoleConfig(*dbs, roles, "engine");
        QVERIFY(!config.isEmpty());
        const QProcessEnvironment env = roleEnvironment(roles, "engine");
        const QStringList check{QStringLiteral("--config"), config, QStringLiteral("db"),
                                QStringLiteral("check")};

        CliRun run = runOncepay(check, env);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(run.out.count(QStringLiteral("grants: all the engine needs")), 2);

        // An upgrade's grants not applied, as if three grants were new in this release.
        auto revoke = [&](DbRole database, const QString &what) {
            ConnectionProfile admin = serverProfile(dbs->dialect(), DbRole::Orders);
            admin.database = (database == DbRole::Audit ? dbs->audit() : dbs->orders()).database;
            auto c = Connection::open(admin, QStringLiteral("revoke"));
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            const QString sql =
                pg ? QStringLiteral("REVOKE %1 FROM oncepay_engine").arg(what)
                   : QStringLiteral("REVOKE %1 FROM 'oncepay_engine'@'%'").arg(what);
            auto r = Sql::exec(c->db(), sql);
            QVERIFY2(r.ok(), qPrintable(sql + u' ' + (r.ok() ? QString() : r.error().message)));
        };
        revoke(DbRole::Orders, QStringLiteral("INSERT ON callback_attempts"));
        revoke(DbRole::Orders, QStringLiteral("SELECT ON fix_decisions"));
        revoke(DbRole::Audit, QStringLiteral("INSERT ON audit_checkpoints"));
        if (pg) // an id sequence's own grant: inserting a row needs it
            revoke(DbRole::Orders, QStringLiteral("USAGE ON SEQUENCE fee_schedules_id_seq"));
        if (QTest::currentTestFailed())
            return;

        run = runOncepay(check, env);
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(
            run.out.contains(
                QStringLiteral("GRANTS MISSING: the login oncepay_engine may not: INSERT on "
                               "callback_attempts, SELECT on fix_decisions") +
                (pg ? QStringLiteral(", USAGE on fee_schedules_id_seq\n") : QStringLiteral("\n"))),
            qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("GRANTS MISSING: the login oncepay_engine may "
                                                 "not: INSERT on audit_checkpoints\n")),
                 qPrintable(run.out));
        QVERIFY(run.out.contains(prefix + QStringLiteral("-orders-grants.sql")));
        QVERIFY(run.out.contains(prefix + QStringLiteral("-audit-grants.sql")));
        QVERIFY(!run.out.contains(QStringLiteral("all the engine needs")));

        // The advice works: the scripts run again, and the check passes.
        const QString problem = applyGrantScripts(*dbs, roles);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // Another role's login (the desk console's) lacks the engine's grants by design: not
        // checked against them, and no failure.
        const CliRun desk =
            runOncepay({QStringLiteral("--config"), writeRoleConfig(*dbs, roles, "desk"),
                        QStringLiteral("db"), QStringLiteral("check")},
                       roleEnvironment(roles, "desk"));
        QVERIFY2(desk.exitCode == 0, qPrintable(desk.out + desk.err));
        QCOMPARE(desk.out.count(QStringLiteral("grants: not checked: the login oncepay_desk is not"
                                               " the engine's")),
                 2);
        run = runOncepay(check, env);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(run.out.count(QStringLiteral("grants: all the engine needs")), 2);
    }
};

QTEST_GUILESS_MAIN(TstLoginGrants)
#include "tst_login_grants.moc"
