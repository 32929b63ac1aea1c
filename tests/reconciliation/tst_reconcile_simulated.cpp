// End to end: a simulated, hostile week through the real engine writes each channel's
// statements with planted defects; importing them and reconciling must find every planted
// defect with its kind (recall 100 %), invent none (precision 100 %), and auto-fix exactly
// the planted fee differences that the fee-schedule change explains. Findings that the
// simulator's own stories cause (stale captures owed back, captures for orders that do not
// exist, captures of another amount) are derived independently from the engine's tables.

#include "testdatabases.h"

#include "db/migrator.h"
#include "db/sql.h"
#include "reconciliation/reconciler.h"
#include "settlement/feeschedule.h"
#include "settlement/settlementimporter.h"
#include "simulator/simulator.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QString channelOfFile(const QString &name)
{
    if (name.startsWith(QStringLiteral("STL-")))
        return QStringLiteral("paypal");
    return name.section(u'_', 0, 0);
}

QString keyOf(const QString &kind, const QString &channel, const QString &txn)
{
    return kind + u'|' + channel + u'|' + txn;
}

} // namespace

class TstReconcileSimulated : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void findsExactlyWhatWasPlanted_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::newRow("sqlite") << int(Dialect::Sqlite);
    }
    void findsExactlyWhatWasPlanted()
    {
        ONCEPAY_SCRATCH(dbs);
        const QString out = dbs->tempPath() + QStringLiteral("/sim");
        SimulationOptions o;
        o.orders = 600;
        o.days = 6;
        o.seed = 7;
        o.outDir = out;
        auto summary = Simulator(dbs->config(), o).run();
        QVERIFY2(summary.ok(), summary.ok() ? "" : qPrintable(summary.error().message));
        QVERIFY2(summary->invariantFailures.isEmpty(),
                 qPrintable(summary->invariantFailures.join(u'\n')));
        QVERIFY(!summary->statementFiles.isEmpty());

        auto c = openMigrated(dbs->orders(), QStringLiteral("e2e"));
        QVERIFY(c.ok());
        const Actor finance{QStringLiteral("fin-1"), QStringLiteral("finance")};
        SettlementImporter importer(*c, Clock::system());
        for (const QString &file : summary->statementFiles) {
            auto r = importer.importFile(channelOfFile(QFileInfo(file).fileName()), file, finance);
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        }
        QFile fees(out + QStringLiteral("/fee_schedule.csv"));
        QVERIFY(fees.open(QIODevice::ReadOnly));
        auto rules = Fees::parseCsv(fees.readAll());
        QVERIFY(rules.ok());
        QVERIFY(FeeScheduleStore(*c, Clock::system()).import(*rules, finance).ok());

        auto report = Reconciler(*c, Clock::system(), finance).run({});
        QVERIFY2(report.ok(), report.ok() ? "" : qPrintable(report.error().message));

        // Expected: the manifest, plus what the stories cause.
        QFile manifestFile(out + QStringLiteral("/planted_defects.json"));
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        QSet<QString> expected, expectedFixes, masked;
        for (const QJsonValue &v : manifest.value("defects").toArray()) {
            const QJsonObject d = v.toObject();
            const QString key = keyOf(d["kind"].toString(), d["channel"].toString(),
                                      d["channel_txn_id"].toString());
            expected.insert(key);
            if (d["expected_status"].toString() == u"auto_fixed")
                expectedFixes.insert(key);
            if (d["kind"].toString() == u"not_settled" ||
                d["kind"].toString() == u"currency_mismatch")
                masked.insert(d["channel"].toString() + u'|' + d["channel_txn_id"].toString());
        }
        const qint64 planted = expected.size();
        QVERIFY(planted >= 8);
        QVERIFY(!expectedFixes.isEmpty());
        for (const QJsonValue &v : manifest.value("story_findings").toArray()) {
            const QJsonObject d = v.toObject();
            expected.insert(keyOf(d["kind"].toString(), d["channel"].toString(),
                                  d["channel_txn_id"].toString()));
        }
        auto stories = [&](const QString &kind, const QString &sql) {
            auto q = Sql::exec(c->db(), sql);
            QVERIFY(q.ok());
            while (q->next())
                if (!masked.contains(q->value(0).toString() + u'|' + q->value(1).toString()))
                    expected.insert(keyOf(kind, q->value(0).toString(), q->value(1).toString()));
        };
        stories("refund_due",
                "SELECT channel, channel_txn_id FROM refund_obligations WHERE resolved_at IS NULL"
                " AND channel_txn_id IS NOT NULL");
        stories("amount_mismatch",
                "SELECT p.channel, p.channel_txn_id FROM payments p JOIN orders o ON"
                " o.order_id = p.order_id WHERE p.amount_minor <> o.amount_minor");

        QSet<QString> found, foundFixes;
        auto q =
            Sql::exec(c->db(), "SELECT kind, channel, channel_txn_id, status FROM discrepancies");
        QVERIFY(q.ok());
        while (q->next()) {
            const QString key =
                keyOf(q->value(0).toString(), q->value(1).toString(), q->value(2).toString());
            found.insert(key);
            if (q->value(3).toString() == u"auto_fixed")
                foundFixes.insert(key);
        }
        const QSet<QString> missed = expected - found;
        const QSet<QString> invented = found - expected;
        QVERIFY2(missed.isEmpty(),
                 qPrintable("missed: " + QStringList(missed.begin(), missed.end()).join(", ")));
        QVERIFY2(
            invented.isEmpty(),
            qPrintable("invented: " + QStringList(invented.begin(), invented.end()).join(", ")));
        QCOMPARE(foundFixes, expectedFixes);
        QCOMPARE(report->autoFixed, qint64(expectedFixes.size()));
        QVERIFY(report->coveragePpm > 900000);
        qInfo("planted %lld, story findings %lld, auto-fixed %lld, coverage %lld ppm over %lld"
              " eligible",
              planted, qint64(expected.size()) - planted, report->autoFixed, report->coveragePpm,
              report->eligible);

        // Re-running the period changes nothing.
        auto again = Reconciler(*c, Clock::system(), finance).run({});
        QVERIFY(again.ok());
        QCOMPARE(again->opened, 0);
        QCOMPARE(again->autoFixed, 0);
        QCOMPARE(Sql::scalar(c->db(), "SELECT COUNT(*) FROM discrepancies")->toLongLong(),
                 qint64(found.size()));
    }
};

QTEST_GUILESS_MAIN(TstReconcileSimulated)
#include "tst_reconcile_simulated.moc"
