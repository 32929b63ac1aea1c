// Coverage as people read it, in the CLI's report (services/reconciliation) and in the console
// (models/fixes/fixlabels.cpp): two decimals, rounded half up in integer arithmetic.

#include "fixes/fixlabels.h"
#include "reconciliation/reconciliationreport.h"

#include <QTest>

using namespace OncePay;

class TstCoverage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Coverage to two decimals, half up, the same in the CLI's report and in the console:
    // 2687 of 2848 (943469 ppm) is 94.35 %, not 94.34 %.
    void coverageIsRoundedHalfUp()
    {
        const QList<std::pair<qint64, QString>> cases{
            {943469, "94.35 %"}, {943449, "94.34 %"}, {943450, "94.35 %"}, {1000000, "100.00 %"},
            {0, "0.00 %"},       {49, "0.00 %"},      {50, "0.01 %"},      {999949, "99.99 %"}};
        for (const auto &[ppm, shown] : cases) {
            QCOMPARE(ReconciliationReportFormat::coverage(ppm), shown);
            QCOMPARE(Labels::coverage(ppm), shown);
        }
        ReconcileReport r;
        r.eligible = 2848;
        r.matched = 2687;
        r.coveragePpm = 943469;
        QVERIFY(ReconciliationReportFormat::text(r).contains(u"coverage 94.35 % (matched"));
        QCOMPARE(ReconciliationReportFormat::json(r).value("coverage").toString(),
                 QStringLiteral("94.35 %"));
    }
};

QTEST_GUILESS_MAIN(TstCoverage)
#include "tst_coverage.moc"
