// The stuck-records view (offscreen) over dead letters the fix workflow dealt with: a dead
// letter resolved or requeued through a proposal and an approval leaves the list once the
// view reads it again; the one still dead stays, with its message's real status, and a fix
// can be proposed for it.

#include "auth/staffservice.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "investigation/stuckmodel.h"
#include "stuck/stuckpage.h"

#include <QItemSelectionModel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};

bool applyFix(FixService &fixes, const QString &kind, const QString &callbackId)
{
    FixProposal p;
    p.kind = kind;
    p.targetId = callbackId;
    p.reasonCode = QStringLiteral("poison_message");
    p.comment = QStringLiteral("seen in the stuck view");
    p.origin = QStringLiteral("test@localhost");
    auto fix = fixes.propose(p, amy);
    if (!fix)
        return false;
    auto done = fixes.approve(fix->id, fix->changeSha256, "ok", p.origin, fin);
    return done && done->status == FixStatus::Applied;
}

QStringList deadLetterRows(const StuckPage &page)
{
    QStringList out;
    for (const StuckRecord &r : page.model()->rows())
        if (r.kind == StuckKind::DeadLetter)
            out << r.callbackId + QLatin1Char('/') + r.status;
    return out;
}

} // namespace

class TstStuckPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resolvedAndRequeuedDeadLettersLeaveTheView()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        for (const auto &[name, role] : QList<QPair<QString, StaffRole>>{
                 {"amy", StaffRole::Agent}, {"fin", StaffRole::Finance}})
            QVERIFY(
                staff.add({name, name, role}, "correct horse battery", Actor::system("test")).ok());
        f.makeDeadLetter("o-res", "evt_res");
        f.makeDeadLetter("o-req", "evt_req");
        f.makeDeadLetter("o-dead", "evt_dead");

        StuckPage page(dbs->orders(), amy);
        page.resize(1000, 600);
        page.show();
        QSignalSpy loaded(&page, &StuckPage::loaded);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(deadLetterRows(page).size(), 3);

        FixService fixes(*f.orders, f.clock);
        QVERIFY(applyFix(fixes, FixKind::ResolveMessage, "stripe:evt_res"));
        QVERIFY(applyFix(fixes, FixKind::RequeueMessage, "stripe:evt_req"));

        // The page runs the query with the system clock, long after the fixture's clock.
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(deadLetterRows(page), QStringList{"stripe:evt_dead/dead"});
        for (const StuckRecord &r : page.model()->rows())
            QVERIFY2(r.callbackId != u"stripe:evt_res", qPrintable(stuckKindName(r.kind)));

        int row = -1;
        for (int r = 0; r < page.model()->rowCount(); ++r)
            if (page.model()->rowAt(r).kind == StuckKind::DeadLetter)
                row = r;
        QVERIFY(row >= 0);
        page.table()->selectionModel()->setCurrentIndex(
            page.proxy()->mapFromSource(page.model()->index(row, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(page.proposeButton()->isEnabled());
    }
};

QTEST_MAIN(TstStuckPage)
#include "tst_stuck_page.moc"
