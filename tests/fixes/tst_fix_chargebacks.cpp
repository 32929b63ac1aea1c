// The fixes of the discrepancy kinds of migration 0012 on SQLite, PostgreSQL and MariaDB, found
// by a real reconciliation run: a chargeback is written off whole under maker-checker, and
// belongs to the period of its own line (weeks after the capture, whose period may be closed);
// a write-off whose money came after all (settled_after_write_off) is reversed by its fix,
// which resolves the written-off discrepancy too, so the ledger's write-offs of the payment
// come to nothing and the next run finds nothing new.

#include "../reconciliation/reconcilescenario.h"
#include "db/sql.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;
using namespace OncePay::Test::Reconcile;

namespace {

qint64 discrepancyOf(const EngineFixture &f, const QString &kind)
{
    auto id = Sql::scalar(
        f.orders->db(), QStringLiteral("SELECT MIN(id) FROM discrepancies WHERE kind = ?"), {kind});
    if (!id || id->isNull())
        qFatal("no %s discrepancy", qPrintable(kind));
    return id->toLongLong();
}

FixProposal writeOff(qint64 discrepancy, std::optional<qint64> amount = {})
{
    FixProposal p =
        proposal(FixKind::WriteOff, QString::number(discrepancy), "checked against the statement");
    p.reasonCode = QStringLiteral("customer_dispute");
    p.amountMinor = amount;
    return p;
}

QString why(const Result<FixRequest> &r)
{
    return r.ok() ? QStringLiteral("(accepted)") : r.error().message;
}

QString period(qint64 from, qint64 to)
{
    return QStringLiteral("%1..%2").arg(from).arg(to);
}

SettlementLine chargebackLine(const QString &pi, qint64 taken, qint64 fee, qint64 settledAt)
{
    SettlementLine l = line(pi, -taken, fee, settledAt);
    l.kind = SettlementKind::Chargeback;
    l.netMinor = -taken - fee;
    l.transactedAtMs = settledAt;
    return l;
}

} // namespace

class TstFixChargebacks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aChargebackIsWrittenOffInItsOwnPeriod_data() { addEngineRows(); }
    void aChargebackIsWrittenOffInItsOwnPeriod()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.paid("o-cb", 4566, "pi_cb");
        s.importStatement({line("pi_cb", 4566, 162, kT0 + kDay)}, "week1.csv");
        f.clock.set(kT0 + 2 * kDay);
        QCOMPARE(s.reconcile().findings.size(), 0);
        auto close = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0, kT0 + kDay), "day end"), fay);
        QVERIFY2(close.ok(), qPrintable(why(close)));
        QVERIFY(desk.fixes.approve(close->id, close->changeSha256, "", kOrigin, fin).ok());

        // Forty days on, the customer's bank takes the money back.
        s.importStatement({chargebackLine("pi_cb", 4566, 1500, kT0 + 40 * kDay)}, "week6.csv");
        f.clock.set(kT0 + 41 * kDay);
        s.reconcile();
        const qint64 cb = discrepancyOf(f, "chargeback");

        // Its own day does not close while it is open …
        auto dayForty = desk.fixes.propose(
            proposal(FixKind::ClosePeriod, period(kT0 + 40 * kDay, kT0 + 41 * kDay), "day end"),
            fay);
        QVERIFY(!dayForty.ok());
        QCOMPARE(dayForty.error().reason, QStringLiteral("open_discrepancies"));
        // … no fee adjustment, no part of it …
        FixProposal fee = writeOff(cb);
        fee.kind = FixKind::AdjustFee;
        QCOMPARE(desk.fixes.propose(fee, fay).error().reason, QStringLiteral("not_applicable"));
        auto part = desk.fixes.propose(writeOff(cb, 1), fay);
        QVERIFY(!part.ok());
        QCOMPARE(part.error().reason, QStringLiteral("amount_not_difference"));
        // … and its write-off is not refused for the capture's closed day.
        auto fix = desk.fixes.propose(writeOff(cb), fay);
        QVERIFY2(fix.ok(), qPrintable(why(fix)));
        QCOMPARE(*fix->amountMinor, 4566);
        QCOMPARE(fix->effectiveAt, kT0 + 40 * kDay);
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "", kOrigin, fin).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'write_off' AND"
                         " amount_minor = 4566 AND currency = 'USD' AND order_id = 'o-cb'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE id = ? AND status ="
                         " 'written_off'",
                         {cb}),
                 1);
    }

    void aWriteOffSettledAfterwardsIsReversed_data() { addEngineRows(); }
    void aWriteOffSettledAfterwardsIsReversed()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.paid("o-late", 24500, "pi_late");
        f.clock.set(kT0 + 3 * kDay);
        s.reconcile();
        const qint64 unsettled = discrepancyOf(f, "not_settled");
        auto off = desk.fixes.propose(writeOff(unsettled), fay);
        QVERIFY2(off.ok(), qPrintable(why(off)));
        QVERIFY(desk.fixes.approve(off->id, off->changeSha256, "", kOrigin, fin).ok());

        // The money comes after all.
        s.importStatement({line("pi_late", 24500, 741, kT0 + 5 * kDay)}, "late.csv");
        f.clock.set(kT0 + 6 * kDay);
        s.reconcile();
        const qint64 after = discrepancyOf(f, "settled_after_write_off");
        auto part = desk.fixes.propose(writeOff(after, -100), fay);
        QVERIFY(!part.ok());
        QCOMPARE(part.error().reason, QStringLiteral("amount_not_difference"));
        auto reverse = desk.fixes.propose(writeOff(after), fay);
        QVERIFY2(reverse.ok(), qPrintable(why(reverse)));
        QCOMPARE(*reverse->amountMinor, -24500);
        QCOMPARE(reverse->effectiveAt, kT0 + 5 * kDay);
        auto done = desk.fixes.approve(reverse->id, reverse->changeSha256, "", kOrigin, fin);
        QVERIFY2(done.ok(), qPrintable(why(done)));

        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE kind = 'write_off'"
                         " AND order_id = 'o-late'"),
                 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE id IN (?, ?) AND status ="
                         " 'resolved'",
                         {unsettled, after}),
                 2);
        const qint64 rows = f.count("SELECT COUNT(*) FROM discrepancies");
        f.clock.set(kT0 + 7 * kDay);
        QCOMPARE(s.reconcile().opened, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), rows);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'open'"), 0);
    }
};

QTEST_GUILESS_MAIN(TstFixChargebacks)
#include "tst_fix_chargebacks.moc"
