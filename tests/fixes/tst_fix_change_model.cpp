// The approval's change table (ChangeModel) as a finance reviewer reads it: a requeue sets
// updated_at "when applied" (not shown unchanged), and the channel and amount are context —
// under their own heading, Before = After, not bold — not changes. The rule is the service's
// (services/fixes/fixchange.h); the model only words it.

#include "fixes/fixchange.h"
#include "fixes/fixmodels.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QJsonDocument>
#include <QTest>

using namespace OncePay;

class TstFixChangeModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aRequeueShowsWhenAppliedAndItsContext()
    {
        // As stored before the fix recorded updated_at itself (the demo's proposals); a new
        // proposal's after says "when_applied" (tst_fix_evidence).
        const QJsonObject stored = QJsonDocument::fromJson(R"({
            "after": {"attempts": "0", "status": "pending"},
            "amount_minor": "48036", "currency": "USD",
            "before": {"attempts": "12", "status": "dead", "updated_at": "1793507750186"},
            "detail": {"channel": "stripe"}, "kind": "requeue_message",
            "target": "message:stripe:evt_1"})")
                                       .object();
        ChangeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setChange(stored);
        QHash<QString, int> rowOf;
        for (int r = 0; r < model.rowCount(); ++r)
            rowOf.insert(model.index(r, 0).data(Qt::ToolTipRole).toString(), r);
        const auto cell = [&](const char *field, int column, int role = Qt::DisplayRole) {
            return model.index(rowOf.value(field, -1), column).data(role);
        };
        QCOMPARE(cell("updated_at", 2).toString(), QStringLiteral("when applied"));
        QVERIFY(cell("updated_at", 2, Qt::FontRole).value<QFont>().bold());
        QVERIFY(cell("status", 2, Qt::FontRole).value<QFont>().bold());
        for (const char *context : {"channel", "amount"}) {
            QVERIFY(rowOf.contains(context));
            QCOMPARE(cell(context, 1).toString(), cell(context, 2).toString());
            QVERIFY(!cell(context, 2, Qt::FontRole).value<QFont>().bold());
        }
        QCOMPARE(cell("channel", 2).toString(), QStringLiteral("stripe"));
        QCOMPARE(cell("amount", 1).toString(), QStringLiteral("480.36 USD"));
        // The context comes after the changes, under its own heading.
        QVERIFY(rowOf.value("channel") > rowOf.value("updated_at"));
        QVERIFY(rowOf.value("amount") > rowOf.value("status"));
        bool heading = false;
        for (int r = 0; r < model.rowCount(); ++r)
            heading |= model.index(r, 0).data().toString().startsWith("Context");
        QVERIFY(heading);
        for (int r = 0; r < model.rowCount(); ++r)
            for (int c = 0; c < model.columnCount(); ++c)
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::FontRole)})
                    (void)model.index(r, c).data(role);
    }
};

QTEST_MAIN(TstFixChangeModel)
#include "tst_fix_change_model.moc"
