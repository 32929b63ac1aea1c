// Maker-checker as a reviewer counts it, on SQLite, PostgreSQL and MariaDB (review rev-roles):
// a confirmation's approvals count from the money it books — every captured total, each in its
// currency — not only from the order's amount (A); an approval counts while its account is an
// enabled finance reviewer, so one demoted or disabled since leaves the fix open (B); and one
// open proposal per target however the target is spelled ("3", "03", " 3", "+3"; a period as
// dates or as epoch ms) (C).

#include "../reconciliation/reconcilescenario.h"
#include "auth/staffservice.h"
#include "db/sql.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;
using namespace OncePay::Test::Reconcile;

namespace {

QString why(const Result<FixRequest> &r)
{
    return r.ok() ? QStringLiteral("(accepted)") : r.error().message;
}

FixProposal confirmOf(const QString &orderId)
{
    FixProposal p = proposal(FixKind::ConfirmPayment, orderId, "customer sent the receipt");
    p.reasonCode = QStringLiteral("payment_verified");
    return p;
}

qint64 credited(EngineFixture &f, const QString &orderId, const QString &currency)
{
    return f.count("SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries WHERE order_id = ?"
                   " AND kind = 'payment_credit' AND currency = ?",
                   {orderId, currency});
}

QString period(qint64 from, qint64 to)
{
    return QStringLiteral("%1..%2").arg(from).arg(to);
}

} // namespace

class TstFixMakerChecker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A: an order of 32,200 JPY captured 9,000,000 JPY (JPY's second-approver threshold is
    // 150,000) books 9,000,000 JPY when confirmed: two approvals, not one. A capture in another
    // currency than the order is judged in its own currency's threshold.
    void aConfirmationCountsFromTheMoneyCaptured_data() { addEngineRows(); }
    void aConfirmationCountsFromTheMoneyCaptured()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        QCOMPARE(makeUnconfirmed(f, "o-over", 32200, 9000000, "JPY").state,
                 OrderState::PaidUnconfirmed);
        auto over = desk.fixes.propose(confirmOf("o-over"), amy);
        QVERIFY2(over.ok(), qPrintable(why(over)));
        QCOMPARE(over->approvalsNeeded, 2);
        auto first = desk.fixes.approve(over->id, over->changeSha256, "receipt", kOrigin, fin);
        QVERIFY2(first.ok(), qPrintable(why(first)));
        QCOMPARE(first->status, FixStatus::Open);
        QCOMPARE(f.order("o-over").state, OrderState::PaidUnconfirmed);
        QCOMPARE(credited(f, "o-over", "JPY"), 0);
        auto second = desk.fixes.approve(over->id, over->changeSha256, "bank", kOrigin, fox);
        QVERIFY2(second.ok(), qPrintable(why(second)));
        QCOMPARE(second->status, FixStatus::Applied);
        QCOMPARE(credited(f, "o-over", "JPY"), 9000000);

        // 5.00 USD captured as 9,000,000 JPY: two approvals (JPY's threshold, exceeded).
        QCOMPARE(makeUnconfirmed(f, "o-fx-big", 500, 9000000, "USD", "JPY").state,
                 OrderState::PaidUnconfirmed);
        auto big = desk.fixes.propose(confirmOf("o-fx-big"), amy);
        QVERIFY2(big.ok(), qPrintable(why(big)));
        QCOMPARE(big->approvalsNeeded, 2);
        // 5.00 USD captured as 120,000 JPY: above the default threshold (100,000 minor units)
        // but within JPY's 150,000: one approval — judged in JPY, not as if it were USD.
        QCOMPARE(makeUnconfirmed(f, "o-fx-small", 500, 120000, "USD", "JPY").state,
                 OrderState::PaidUnconfirmed);
        auto small = desk.fixes.propose(confirmOf("o-fx-small"), amy);
        QVERIFY2(small.ok(), qPrintable(why(small)));
        QCOMPARE(small->approvalsNeeded, 1);
    }

    // B: fin approves (1 of 2) and is then moved to the agents; fay's approval leaves the fix
    // open with one current approval of two, saying why; fox's applies it. A disabled
    // reviewer's approval lapses the same way.
    void anApprovalLapsesWithItsReviewersRole_data() { addEngineRows(); }
    void anApprovalLapsesWithItsReviewersRole()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        StaffService staff(*f.orders, f.clock);
        QCOMPARE(makeUnconfirmed(f, "o-role", 250000, 249000).state, OrderState::PaidUnconfirmed);
        auto fix = desk.fixes.propose(confirmOf("o-role"), amy);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(fix->approvalsNeeded, 2);
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin).ok());
        QVERIFY(staff.setRole("fin", "agent", adm, "moved to support").ok());

        auto after = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fay);
        QVERIFY2(after.ok(), qPrintable(why(after)));
        QCOMPARE(after->status, FixStatus::Open);
        QCOMPARE(after->approvals(), 1);
        QCOMPARE(after->lapsedApprovals(),
                 QStringList{"fin is no longer a finance reviewer: its approval no longer counts"});
        QCOMPARE(f.order("o-role").state, OrderState::PaidUnconfirmed);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND status = 'open'",
                         {fix->id}),
                 1);
        // As read back (the approvals queue, fix show): one current approval of two.
        QCOMPARE(desk.fixes.get(fix->id)->approvals(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.approved'"
                         " AND actor = 'fay' AND after_json LIKE '%no longer a finance%'"),
                 1);

        auto applied = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fox);
        QVERIFY2(applied.ok(), qPrintable(why(applied)));
        QCOMPARE(applied->status, FixStatus::Applied);
        QCOMPARE(f.order("o-role").state, OrderState::Paid);
        // History: an applied fix's decisions do not lapse afterwards.
        QCOMPARE(desk.fixes.get(fix->id)->lapsedApprovals(), QStringList());

        // Disabled instead of demoted.
        QCOMPARE(makeUnconfirmed(f, "o-off", 250000, 249000).state, OrderState::PaidUnconfirmed);
        auto off = desk.fixes.propose(confirmOf("o-off"), amy);
        QVERIFY2(off.ok(), qPrintable(why(off)));
        QVERIFY(desk.fixes.approve(off->id, off->changeSha256, "ok", kOrigin, fay).ok());
        QVERIFY(staff.disable("fay", adm, "left the company").ok());
        auto kept = desk.fixes.approve(off->id, off->changeSha256, "ok", kOrigin, fox);
        QVERIFY2(kept.ok(), qPrintable(why(kept)));
        QCOMPARE(kept->status, FixStatus::Open);
        QCOMPARE(kept->approvals(), 1);
        QCOMPARE(f.order("o-off").state, OrderState::PaidUnconfirmed);
    }

    // C: one open proposal per target, however it is spelled.
    void oneOpenProposalHoweverTheTargetIsSpelled_data() { addEngineRows(); }
    void oneOpenProposalHoweverTheTargetIsSpelled()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.paid("o-dup", 5000, "pi_dup");
        s.paid("o-day", 7000, "pi_day");
        s.importStatement({line("pi_dup", 5000, 175, kT0 + 2 * kDay),
                           line("pi_dup", 5000, 175, kT0 + 2 * kDay),
                           line("pi_day", 7000, 233, kT0 + 2 * kDay)},
                          "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        auto id = Sql::scalar(f.orders->db(), "SELECT MIN(id) FROM discrepancies WHERE kind = ?",
                              {QStringLiteral("duplicate_settlement")});
        QVERIFY(id && !id->isNull());
        const QString n = QString::number(id->toLongLong());

        auto writeOff = [&](const QString &target) {
            FixProposal p = proposal(FixKind::WriteOff, target, "checked against the statement");
            p.reasonCode = QStringLiteral("settlement_correction");
            return desk.fixes.propose(p, fay);
        };
        auto first = writeOff(n);
        QVERIFY2(first.ok(), qPrintable(why(first)));
        QCOMPARE(first->targetId, n);
        for (const QString &spelled : QStringList{"0" + n, " " + n, "+" + n}) {
            auto again = writeOff(spelled);
            QVERIFY2(!again.ok(), qPrintable(spelled + ": " + why(again)));
            QCOMPARE(again.error().code, ErrorCode::Conflict);
            QCOMPARE(again.error().reason, QStringLiteral("open_proposal_exists"));
            QCOMPARE(again.error().message,
                     QStringLiteral("discrepancy:%1 already has an open proposal (#%2); decide "
                                    "that one first")
                         .arg(n)
                         .arg(first->id));
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE kind = 'write_off'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE open_target = ?",
                         {QString("discrepancy:" + n)}),
                 1);

        // A period: as epoch ms, then as the same days in dates.
        const QString days = period(kT0 + 3 * kDay, kT0 + 4 * kDay);
        auto close = desk.fixes.propose(proposal(FixKind::ClosePeriod, days, "day end"), fay);
        QVERIFY2(close.ok(), qPrintable(why(close)));
        auto dated = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, "2026-01-04..2026-01-05", "day end"), fay);
        QVERIFY2(!dated.ok(), qPrintable(why(dated)));
        QCOMPARE(dated.error().reason, QStringLiteral("open_proposal_exists"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE kind = 'close_period'"), 1);

        // An order: spelled with blanks around it.
        QCOMPARE(makeUnconfirmed(f, "o-pad", 2950, 2650).state, OrderState::PaidUnconfirmed);
        QVERIFY(desk.fixes.propose(confirmOf("o-pad"), amy).ok());
        auto padded = desk.fixes.propose(confirmOf(" o-pad "), amy);
        QVERIFY2(!padded.ok(), qPrintable(why(padded)));
        QCOMPARE(padded.error().reason, QStringLiteral("open_proposal_exists"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE kind = 'confirm_payment'"), 1);
    }
};

QTEST_GUILESS_MAIN(TstFixMakerChecker)
#include "tst_fix_maker_checker.moc"
