// `oncepay settlement import` end to end, on every engine: several files in one call, each its
// own all-or-nothing statement, in order — a corrupt or missing file in the middle changes
// nothing of its own and nothing of its neighbours; the same statement again changes nothing.

#include "cliprocess.h"
#include "db/connection.h"
#include "testdatabases.h"

#include <QSqlQuery>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QString data(const QString &name)
{
    return QStringLiteral(ONCEPAY_SETTLEMENT_DATA "/") + name;
}

} // namespace

class TstCliSettlement : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void importSeveralFilesEachAllOrNothing_data() { addEngineRows(); }
    void importSeveralFilesEachAllOrNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        QCOMPARE(runOncepay({"--config", config, "db", "migrate"}, env).exitCode, 0);

        const QString good = data("kakaopay_settlement_20260101_20260107.csv");
        const QString corrupt = data("kakaopay_corrupt_quote.csv");
        const QString missing = data("no_such_statement.csv");
        CliRun r = runOncepay({"--config", config, "settlement", "import", "--channel", "kakaopay",
                               corrupt, good, missing, good},
                              env);
        QCOMPARE(r.exitCode, 1); // some file failed
        const QStringList out = r.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(out.size(), 2); // the good file, then the same file again
        QVERIFY2(out[0].startsWith(good + QStringLiteral(": statement ")), qPrintable(r.out));
        QVERIFY2(out[0].contains(QStringLiteral(" lines imported")), qPrintable(r.out));
        QVERIFY2(out[1].contains(QStringLiteral("already imported")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("kakaopay_corrupt_quote.csv")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("no_such_statement.csv")), qPrintable(r.err));
        QCOMPARE(r.err.count(QStringLiteral("nothing of this file was imported")), 2);

        // One statement, its lines once.
        auto c = Connection::open(dbs->orders(), QStringLiteral("check"));
        QVERIFY(c.ok());
        QSqlQuery q(c->db());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM settlement_statements")) && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QVERIFY(q.exec(QStringLiteral(
                    "SELECT COUNT(DISTINCT statement_id), COUNT(*) FROM settlement_lines")) &&
                q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QVERIFY(q.value(1).toInt() > 0);
        const int lines = q.value(1).toInt();
        QVERIFY2(out[0].contains(QStringLiteral(", %1 lines imported").arg(lines)),
                 qPrintable(r.out));
    }

    // `oncepay reconcile` refused: a period that ends before it starts is a usage error (2),
    // an ops setting that is no number a configuration error (3); each is audited by the
    // reconciler and starts no run.
    void reconcileRefusalsExitAsDocumented_data() { addEngineRows(); }
    void reconcileRefusalsExitAsDocumented()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        QCOMPARE(runOncepay({"--config", config, "db", "migrate"}, env).exitCode, 0);
        CliRun r = runOncepay(
            {"--config", config, "reconcile", "--from", "2026-01-10", "--to", "2026-01-01"}, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"the period ends before it starts"), qPrintable(r.err));

        auto c = Connection::open(dbs->orders(), QStringLiteral("check"));
        QVERIFY(c.ok());
        QSqlQuery q(c->db());
        QVERIFY(q.exec(QStringLiteral("UPDATE ops_settings SET setting_value = 'soon' WHERE"
                                      " setting_key = 'reconcile.capture_skew_minutes'")));
        QCOMPARE(q.numRowsAffected(), 1);
        r = runOncepay(
            {"--config", config, "reconcile", "--from", "2026-01-01", "--to", "2026-01-10"}, env);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(u"reconcile.capture_skew_minutes"), qPrintable(r.err));

        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM reconciliation_runs")) && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                      " 'reconciliation.refused'")) &&
                q.next());
        QCOMPARE(q.value(0).toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TstCliSettlement)
#include "tst_cli_settlement.moc"
