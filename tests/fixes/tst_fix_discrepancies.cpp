// A fix of a discrepancy (write_off, adjust_fee) on SQLite, PostgreSQL and MariaDB, found by a
// real reconciliation run: it books the discrepancy's whole difference or nothing, and needs the
// approvals of that difference whatever amount is stated (a review wrote off 1 CNY of a
// 2,133.72 CNY duplicate with one approval); a currency mismatch takes no amount computed
// across its two currencies; and a discrepancy belongs to the period of the capture it is
// about, as the matcher reconciles it — not to its settlement line's date — both when a period
// is closed and when a fix is proposed in a closed period; an exception about money that moved
// on its own later (a refund the channel made behind OncePay's back, a duplicate line) belongs
// to that movement, and the desk ages every exception from the same moment a fix is dated by.

#include "../reconciliation/reconcilescenario.h"
#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "desk/reconciliationdesk.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;
using namespace OncePay::Test::Reconcile;

namespace {

constexpr qint64 kHour = 3600 * 1000;

qint64 discrepancyOf(const EngineFixture &f, const QString &kind)
{
    auto id = Sql::scalar(
        f.orders->db(), QStringLiteral("SELECT MIN(id) FROM discrepancies WHERE kind = ?"), {kind});
    if (!id || id->isNull())
        qFatal("no %s discrepancy", qPrintable(kind));
    return id->toLongLong();
}

FixProposal fixOf(const QString &kind, qint64 discrepancy, std::optional<qint64> amount = {},
                  const QString &currency = {})
{
    FixProposal p = proposal(kind, QString::number(discrepancy), "checked against the statement");
    p.reasonCode = QStringLiteral("settlement_correction");
    p.amountMinor = amount;
    p.currency = currency;
    return p;
}

QString why(const Result<FixRequest> &r)
{
    return r.ok() ? QStringLiteral("(accepted)") : r.error().message;
}

// Nothing but the refusals happened: no proposal, no ledger entry, the discrepancy open.
void nothingChanged(EngineFixture &f, qint64 discrepancy, qint64 refusals)
{
    QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 0);
    QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind IN ('write_off',"
                     " 'fee_adjustment')"),
             0);
    QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE id = ? AND status = 'open'",
                     {discrepancy}),
             1);
    QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"
                     " AND actor = 'fay'"),
             refusals);
}

// A period as close_period names it.
QString period(qint64 from, qint64 to)
{
    return QStringLiteral("%1..%2").arg(from).arg(to);
}

// A payment of 120.00 USD captured on day 0 and settled whole on day 1, reconciled, and day 0
// closed: what a later movement of its money starts from.
void settledAndDayClosed(EngineFixture &f, Desk &desk, Scenario &s, const QString &order,
                         const QString &pi)
{
    s.paid(order, 12000, pi);
    s.importStatement({line(pi, 12000, 378, kT0 + kDay)}, "week1.csv");
    f.clock.set(kT0 + 2 * kDay);
    s.reconcile();
    QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 0);
    auto dayOne =
        desk.fixes.propose(proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "day end"), fay);
    QVERIFY2(dayOne.ok(), qPrintable(why(dayOne)));
    QVERIFY(desk.fixes.approve(dayOne->id, dayOne->changeSha256, "", kOrigin, fin).ok());
}

// The desk's age of discrepancy `id`.
qint64 agedFrom(const EngineFixture &f, qint64 id)
{
    DiscrepancyFilter only;
    only.id = id;
    const auto shown = ReconciliationDesk(*f.orders, f.clock).discrepancies(only, kFinance);
    return shown.ok() && shown->size() == 1 ? shown->first().agedFromMs : -1;
}

} // namespace

class TstFixDiscrepancies : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Finding 4: a duplicate settlement of 2,133.72 USD (above the 1,000.00 second-approver
    // threshold) is written off whole, with two approvals; a stated amount of 0.01 is refused,
    // not booked with one.
    void aWriteOffBooksTheWholeDifference_data() { addEngineRows(); }
    void aWriteOffBooksTheWholeDifference()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.paid("o-dup", 213372, "pi_dup");
        // Settled twice (two balance transactions of one statement).
        s.importStatement(
            {line("pi_dup", 213372, 6218, kT0 + kDay), line("pi_dup", 213372, 6218, kT0 + kDay)},
            "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        const qint64 dup = discrepancyOf(f, "duplicate_settlement");

        auto small = desk.fixes.propose(fixOf(FixKind::WriteOff, dup, 1), fay);
        QVERIFY(!small.ok());
        QCOMPARE(small.error().code, ErrorCode::Invalid);
        QCOMPARE(small.error().reason, QStringLiteral("amount_not_difference"));
        QCOMPARE(small.error().message,
                 QStringLiteral("discrepancy #%1 differs by -2133.72 USD; write_off books that "
                                "whole difference, not 0.01 USD")
                     .arg(dup));
        // The right size with the wrong sign does not clear it either; nor another currency.
        auto flipped = desk.fixes.propose(fixOf(FixKind::WriteOff, dup, 213372), fay);
        QVERIFY(!flipped.ok());
        QCOMPARE(flipped.error().reason, QStringLiteral("amount_not_difference"));
        auto euros = desk.fixes.propose(fixOf(FixKind::WriteOff, dup, -213372, "EUR"), fay);
        QCOMPARE(euros.error().reason, QStringLiteral("wrong_currency"));
        QCOMPARE(euros.error().message,
                 QStringLiteral("a fix of discrepancy #%1 books USD, not EUR").arg(dup));
        nothingChanged(f, dup, 3);

        // Stated as the difference or left to it: the same fix, two approvals.
        auto whole = desk.fixes.propose(fixOf(FixKind::WriteOff, dup, -213372, "USD"), fay);
        QVERIFY2(whole.ok(), qPrintable(why(whole)));
        QCOMPARE(whole->approvalsNeeded, 2);
        QCOMPARE(*whole->amountMinor, -213372);
        QVERIFY(desk.fixes.approve(whole->id, whole->changeSha256, "", kOrigin, fin).ok());
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM discrepancies WHERE id = ? AND status = 'open'", {dup}),
            1);
        // The row's amount column changed by hand while the fix is open (the database lets an
        // open proposal be changed): the approval is refused, nothing booked, until the column
        // says again what the digest covers; then the digest's amount is booked.
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE fix_requests SET amount_minor = -1 WHERE id = ?"),
                          {whole->id})
                    .ok());
        auto tampered = desk.fixes.approve(whole->id, whole->changeSha256, "", kOrigin, fox);
        QVERIFY(!tampered.ok());
        QCOMPARE(tampered.error().reason, QStringLiteral("digest_mismatch"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'write_off'"), 0);
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE fix_requests SET amount_minor = -213372"
                                         " WHERE id = ?"),
                          {whole->id})
                    .ok());
        auto two = desk.fixes.approve(whole->id, whole->changeSha256, "", kOrigin, fox);
        QVERIFY2(two.ok(), qPrintable(why(two)));
        QCOMPARE(two->status, FixStatus::Applied);
        QCOMPARE(f.count("SELECT amount_minor FROM ledger_entries WHERE kind = 'write_off'"),
                 -213372);
    }

    // Finding 4 for a fee: adjust_fee books the fee's difference, not less; a proposal the old
    // rules let through (0.01 with one approval) fails when approved, and books nothing.
    void aFeeAdjustmentBooksTheWholeDifference_data() { addEngineRows(); }
    void aFeeAdjustmentBooksTheWholeDifference()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.importFees();
        s.paid("o-fee", 10000, "pi_fee"); // 2.9 % + 0.30: a fee of 3.20 USD
        s.importStatement({line("pi_fee", 10000, 450, kT0 + kDay)}, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        const qint64 fee = discrepancyOf(f, "fee_mismatch");
        QCOMPARE(
            f.count("SELECT expected_minor - actual_minor FROM discrepancies WHERE id = ?", {fee}),
            -130);

        auto part = desk.fixes.propose(fixOf(FixKind::AdjustFee, fee, -30), fay);
        QVERIFY(!part.ok());
        QCOMPARE(part.error().reason, QStringLiteral("amount_not_difference"));
        QCOMPARE(part.error().message,
                 QStringLiteral("discrepancy #%1 differs by -1.30 USD; adjust_fee books that "
                                "whole difference, not -0.30 USD")
                     .arg(fee));
        nothingChanged(f, fee, 1);

        // A proposal the old rules took (0.30 with one approval), stored before they changed:
        // it fails when approved, with the reason, and books nothing.
        auto whole = desk.fixes.propose(fixOf(FixKind::AdjustFee, fee), fay);
        QVERIFY2(whole.ok(), qPrintable(why(whole)));
        QCOMPARE(*whole->amountMinor, -130);
        QVERIFY(desk.fixes.reject(whole->id, "wrong_amount", "made again", kOrigin, fin).ok());
        QJsonObject change = whole->change;
        change.insert("amount_minor", "-30");
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO fix_requests (kind, target_kind, target_id, open_target,"
                          " change_json, change_sha256, amount_minor, currency, reason_code,"
                          " comment, proposed_by, proposer_role, proposed_from, proposed_at,"
                          " effective_at, approvals_needed, status) VALUES ('adjust_fee',"
                          " 'discrepancy', ?, ?, ?, ?, -30, 'USD', 'settlement_correction', 'old',"
                          " 'fay', 'finance', 'test', ?, ?, 1, 'open')",
                          {QString::number(fee), QStringLiteral("discrepancy:%1").arg(fee),
                           AuditOutbox::toJson(change), FixService::digest(change), f.clock.nowMs(),
                           whole->effectiveAt})
                    .ok());
        const qint64 old = f.count("SELECT MAX(id) FROM fix_requests");
        auto late = desk.fixes.approve(old, FixService::digest(change), "", kOrigin, fin);
        QVERIFY(!late.ok());
        QCOMPARE(late.error().reason, QStringLiteral("amount_not_difference"));
        QCOMPARE(desk.fixes.get(old)->status, FixStatus::Failed);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 0);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM discrepancies WHERE id = ? AND status = 'open'", {fee}),
            1);
    }

    // Finding 5: an order of 34,200 JPY settled as 160.00 USD. No amount is computed across the
    // two (the old default was 182.00 "USD"); the proposer names amount and currency, one of
    // the two, no more than the discrepancy involves in it; the approvals count both sides.
    void aCurrencyMismatchTakesAnExplicitAmountAndCurrency_data() { addEngineRows(); }
    void aCurrencyMismatchTakesAnExplicitAmountAndCurrency()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        f.createOrder("o-yen", 34200, "JPY");
        f.pay("o-yen", 1, "a-o-yen");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-yen", "a-o-yen", 34200, "JPY", "evt_o-yen", "pi_yen")));
        f.drain();
        QCOMPARE(f.order("o-yen").state, OrderState::Paid);
        s.importStatement({line("pi_yen", 16000, 494, kT0 + kDay, "USD")}, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        const qint64 cur = discrepancyOf(f, "currency_mismatch");

        auto byDefault = desk.fixes.propose(fixOf(FixKind::WriteOff, cur), fay);
        QCOMPARE(byDefault.error().code, ErrorCode::Invalid);
        QCOMPARE(byDefault.error().reason, QStringLiteral("amount_and_currency_required"));
        QCOMPARE(byDefault.error().message,
                 QStringLiteral("discrepancy #%1 has amounts in two currencies (expected in "
                                "JPY, settled in USD); give the amount to book and its currency")
                     .arg(cur));
        auto noCurrency = desk.fixes.propose(fixOf(FixKind::WriteOff, cur, 18200), fay);
        QCOMPARE(noCurrency.error().reason, QStringLiteral("amount_and_currency_required"));
        auto euros = desk.fixes.propose(fixOf(FixKind::WriteOff, cur, 5000, "EUR"), fay);
        QCOMPARE(euros.error().reason, QStringLiteral("wrong_currency"));
        QCOMPARE(euros.error().message,
                 QStringLiteral("a fix of discrepancy #%1 books JPY or USD, not EUR").arg(cur));
        auto beyond = desk.fixes.propose(fixOf(FixKind::WriteOff, cur, 18200, "USD"), fay);
        QCOMPARE(beyond.error().reason, QStringLiteral("amount_beyond_discrepancy"));
        QCOMPARE(beyond.error().message,
                 QStringLiteral("discrepancy #%1 involves 160.00 USD; a fix of 182.00 USD is "
                                "more than that")
                     .arg(cur));
        nothingChanged(f, cur, 4);

        // 5,000 JPY alone needs one approval (JPY's threshold is 150,000); the line's 160.00 USD
        // is above a USD threshold of 100.00, so the fix needs two.
        QVERIFY(setSetting(f, "fixes.second_approver_above_minor", "10000"));
        auto yen = desk.fixes.propose(fixOf(FixKind::WriteOff, cur, 5000, "JPY"), fay);
        QVERIFY2(yen.ok(), qPrintable(why(yen)));
        QCOMPARE(yen->currency, QStringLiteral("JPY"));
        QCOMPARE(*yen->amountMinor, 5000);
        QCOMPARE(yen->approvalsNeeded, 2);
        QVERIFY(desk.fixes.approve(yen->id, yen->changeSha256, "", kOrigin, fin).ok());
        auto two = desk.fixes.approve(yen->id, yen->changeSha256, "", kOrigin, fox);
        QVERIFY2(two.ok(), qPrintable(why(two)));
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'write_off'"
                         " AND amount_minor = 5000 AND currency = 'JPY'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE id = ? AND status ="
                         " 'written_off'",
                         {cur}),
                 1);
    }

    // Finding 7: a capture at 23:00 on day 1 whose line (short by 10.00) settles on day 3.
    // The exception is day 1's: day 1 does not close while it is open, day 3 closes, and a fix
    // of it is not refused for day 3's close.
    void aDiscrepancyBelongsToItsCapturesPeriod_data() { addEngineRows(); }
    void aDiscrepancyBelongsToItsCapturesPeriod()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        f.clock.set(kT0 + 23 * kHour);
        s.paid("o-late", 10000, "pi_late");
        s.importStatement({line("pi_late", 9000, 291, kT0 + 2 * kDay)}, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        const qint64 short_ = discrepancyOf(f, "amount_mismatch");

        auto dayOne = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "month end"), fay);
        QVERIFY(!dayOne.ok());
        QCOMPARE(dayOne.error().reason, QStringLiteral("open_discrepancies"));
        QCOMPARE(dayOne.error().message,
                 QStringLiteral("1 discrepancies of the period are still open; decide them first"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM closed_periods"), 0);

        auto dayThree = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0 + 2 * kDay, kT0 + 3 * kDay), "day end"), fay);
        QVERIFY2(dayThree.ok(), qPrintable(why(dayThree)));
        QVERIFY(desk.fixes.approve(dayThree->id, dayThree->changeSha256, "", kOrigin, fin).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM closed_periods"), 1);

        auto fix = desk.fixes.propose(fixOf(FixKind::WriteOff, short_), fay);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(fix->effectiveAt, kT0 + 23 * kHour);
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "", kOrigin, fin).ok());
        QCOMPARE(f.count("SELECT amount_minor FROM ledger_entries WHERE kind = 'write_off'"), 1000);

        // Decided, day 1 closes.
        auto closed = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "month end"), fay);
        QVERIFY2(closed.ok(), qPrintable(why(closed)));
    }

    // Finding 7, the other way: day 1 closed before its capture's line came; the line, short,
    // settles on day 3 and opens an exception of day 1 — a fix of it is refused (audited,
    // nothing changed), although its line's day is open.
    void aFixOfAClosedPeriodsDiscrepancyIsRefused_data() { addEngineRows(); }
    void aFixOfAClosedPeriodsDiscrepancyIsRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        f.clock.set(kT0 + 23 * kHour);
        s.paid("o-late", 10000, "pi_late");
        f.clock.set(kT0 + kDay + kHour); // not due yet: no exception
        ReconcileOptions dayOne;
        dayOne.fromMs = kT0;
        dayOne.toMs = kT0 + kDay;
        QCOMPARE(s.reconcile({}, dayOne).findings.size(), 0);
        auto close = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "day end"), fay);
        QVERIFY2(close.ok(), qPrintable(why(close)));
        QVERIFY(desk.fixes.approve(close->id, close->changeSha256, "", kOrigin, fin).ok());

        s.importStatement({line("pi_late", 9000, 291, kT0 + 2 * kDay)}, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        const qint64 short_ = discrepancyOf(f, "amount_mismatch");
        const qint64 refusedBefore = f.count(
            "SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND actor = 'fay'");
        auto fix = desk.fixes.propose(fixOf(FixKind::WriteOff, short_), fay);
        QVERIFY(!fix.ok());
        QCOMPARE(fix.error().reason, QStringLiteral("period_closed"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"
                         " AND actor = 'fay'"),
                 refusedBefore + 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE kind = 'write_off'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'write_off'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE id = ? AND status = 'open'",
                         {short_}),
                 1);
    }

    // A refund's exception is the refund's: a capture of day 1 refunded on day 4 whose refund
    // line never comes keeps day 4 open, not day 1; with day 1 closed it still takes a fix.
    void aRefundsDiscrepancyBelongsToTheRefundsPeriod_data() { addEngineRows(); }
    void aRefundsDiscrepancyBelongsToTheRefundsPeriod()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.paid("o-back", 12000, "pi_back");
        s.importStatement({line("pi_back", 12000, 378, kT0 + kDay)}, "week1.csv");
        f.clock.set(kT0 + 3 * kDay + kHour);
        s.refunded("o-back", 12000, "pi_back");
        f.clock.set(kT0 + 6 * kDay);
        s.reconcile();
        const qint64 back = discrepancyOf(f, "refund_not_settled");

        auto dayFour = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0 + 3 * kDay, kT0 + 4 * kDay), "day end"), fay);
        QVERIFY(!dayFour.ok());
        QCOMPARE(dayFour.error().reason, QStringLiteral("open_discrepancies"));
        auto dayOne = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "day end"), fay);
        QVERIFY2(dayOne.ok(), qPrintable(why(dayOne)));
        QVERIFY(desk.fixes.approve(dayOne->id, dayOne->changeSha256, "", kOrigin, fin).ok());

        auto fix = desk.fixes.propose(fixOf(FixKind::WriteOff, back), fay);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(fix->effectiveAt, kT0 + 3 * kDay + kHour);
        QCOMPARE(*fix->amountMinor, -12000);
    }

    // The same for a partial refund, which leaves payments.refunded_at empty: its exception is
    // the refund debit's (day 4), not the capture's (day 1, already closed).
    void aPartialRefundsDiscrepancyBelongsToTheRefundsPeriod_data() { addEngineRows(); }
    void aPartialRefundsDiscrepancyBelongsToTheRefundsPeriod()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.paid("o-part", 12000, "pi_part");
        s.importStatement({line("pi_part", 12000, 378, kT0 + kDay)}, "week1.csv");
        f.clock.set(kT0 + 3 * kDay + kHour);
        s.partlyRefunded("o-part", 12000, 4000, "pi_part");
        f.clock.set(kT0 + 6 * kDay);
        s.reconcile();
        const qint64 back = discrepancyOf(f, "refund_not_settled");

        auto dayOne = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "day end"), fay);
        QVERIFY2(dayOne.ok(), qPrintable(why(dayOne)));
        QVERIFY(desk.fixes.approve(dayOne->id, dayOne->changeSha256, "", kOrigin, fin).ok());
        auto dayFour = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0 + 3 * kDay, kT0 + 4 * kDay), "day end"), fay);
        QVERIFY(!dayFour.ok());
        QCOMPARE(dayFour.error().reason, QStringLiteral("open_discrepancies"));

        auto fix = desk.fixes.propose(fixOf(FixKind::WriteOff, back), fay);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(fix->effectiveAt, kT0 + 3 * kDay + kHour);
        QCOMPARE(*fix->amountMinor, -4000);
    }

    // A refund the channel made behind OncePay's back, weeks after the capture, is money that
    // moved on its own: its exception is the refund line's, as a chargeback's is. With the
    // capture's day closed it still takes a fix (dated by the line); the line's day does not
    // close while it is open; and the desk ages it from the same moment.
    void aRefundBehindOncePaysBackBelongsToItsLine_data() { addEngineRows(); }
    void aRefundBehindOncePaysBackBelongsToItsLine()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        settledAndDayClosed(f, desk, s, "o-gone", "pi_gone");

        const qint64 refundedAt = kT0 + 9 * kDay;
        s.importStatement({refundLine("pi_gone", 12000, refundedAt)}, "week2.csv");
        f.clock.set(kT0 + 12 * kDay);
        s.reconcile();
        const qint64 gone = discrepancyOf(f, "unknown_settlement");

        QCOMPARE(agedFrom(f, gone), refundedAt);

        auto dayNine = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0 + 9 * kDay, kT0 + 10 * kDay), "day end"),
            fay);
        QVERIFY(!dayNine.ok());
        QCOMPARE(dayNine.error().reason, QStringLiteral("open_discrepancies"));

        auto fix = desk.fixes.propose(fixOf(FixKind::WriteOff, gone), fay);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(fix->effectiveAt, refundedAt);
    }
    // The channel settling a payment a second time, a week after the capture's day closed: the
    // duplicate line is money that moved on its own, so its exception is the line's — decided
    // by a fix dated by the line, not refused for the capture's closed day.
    void aLaterDuplicateSettlementBelongsToItsLine_data() { addEngineRows(); }
    void aLaterDuplicateSettlementBelongsToItsLine()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        settledAndDayClosed(f, desk, s, "o-twice", "pi_twice");

        const qint64 againAt = kT0 + 8 * kDay;
        storeLines(f, {line("pi_twice", 12000, 378, againAt)}, "week2.csv"); // a line id of its own
        f.clock.set(kT0 + 10 * kDay);
        s.reconcile();
        const qint64 twice = discrepancyOf(f, "duplicate_settlement");
        QCOMPARE(agedFrom(f, twice), againAt);

        auto fix = desk.fixes.propose(fixOf(FixKind::WriteOff, twice), fay);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(fix->effectiveAt, againAt);
        QCOMPARE(*fix->amountMinor, -12000); // the money settled twice, written off
    }
};

QTEST_GUILESS_MAIN(TstFixDiscrepancies)
#include "tst_fix_discrepancies.moc"
