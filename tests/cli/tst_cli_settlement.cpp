// `oncepay settlement import` end to end, on every engine: several files in one call, each its
// own all-or-nothing statement, in order — a corrupt or missing file in the middle changes
// nothing of its own and nothing of its neighbours; the same statement again changes nothing.

#include "cliprocess.h"
#include "db/connection.h"
#include "testdatabases.h"

#include <QFile>
#include <QSqlQuery>
#include <QTemporaryDir>
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

    // The same statement exported again (other bytes: re-saved with LF line endings) stores
    // nothing and says so; one whose line has other money under a known id imports the rest,
    // names the conflict on stderr and exits 1.
    void reimportOfKnownLinesSaysSo_data() { addEngineRows(); }
    void reimportOfKnownLinesSaysSo()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        QCOMPARE(runOncepay({"--config", config, "db", "migrate"}, env).exitCode, 0);
        const QString good = data("kakaopay_settlement_20260101_20260107.csv");
        QFile in(good);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto write = [&](const QString &name, const QByteArray &data) {
            QFile out(dir.filePath(name));
            if (!out.open(QIODevice::WriteOnly) || out.write(data) != data.size())
                qFatal("cannot write %s", qPrintable(name));
            return out.fileName();
        };
        const QString resaved = write("resaved.csv", QByteArray(bytes).replace("\r\n", "\n"));
        QByteArray other = bytes;
        QVERIFY(other.contains("\"12,000\",240,24,\"11,736\""));
        other.replace("\"12,000\",240,24,\"11,736\"", "\"12,000\",340,34,\"11,626\"");
        const QString conflict = write("conflict.csv", other);
        CliRun r = runOncepay(
            {"--config", config, "settlement", "import", "--channel", "kakaopay", good, resaved},
            env);
        QCOMPARE(r.exitCode, 0);
        const QStringList out = r.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(out.size(), 2);
        QCOMPARE(out[1], resaved + QStringLiteral(": all 3 lines already imported from other"
                                                  " files; nothing imported"));
        CliRun c = runOncepay(
            {"--config", config, "settlement", "import", "--channel", "kakaopay", conflict}, env);
        QCOMPARE(c.exitCode, 1);
        QVERIFY2(c.out.contains(QStringLiteral(": all 3 lines already imported from other files"
                                               " or in conflict (1); nothing imported")),
                 qPrintable(c.out));
        QVERIFY2(c.err.contains(QStringLiteral(
                     "conflict.csv: line 4 (T9f8e7d6c5b4a3928:charge:1767315600000) is already"
                     " imported as statement 1 line 2: charge, gross 12000 KRW, fee 264 KRW;"
                     " this file says charge, gross 12000 KRW, fee 374 KRW — not imported")),
                 qPrintable(c.err));
        auto db = Connection::open(dbs->orders(), QStringLiteral("check"));
        QVERIFY(db.ok());
        QSqlQuery q(db->db());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM settlement_lines")) && q.next());
        QCOMPARE(q.value(0).toInt(), 3);
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
