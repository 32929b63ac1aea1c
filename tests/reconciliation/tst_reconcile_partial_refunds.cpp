// What OncePay refunded of a payment, as reconciliation judges it, on SQLite, PostgreSQL and
// MariaDB: the ledger's refund_debit rows the worker books, one per refund, partial ones added
// up, not payments.status (which turns 'refunded' only when the refunds reach the captured
// amount). A payment partly refunded whose refund lines return what was booked matches; no
// "OncePay has no refund" for it; a booked partial refund the channel has not reported is
// refund_not_settled for the amount booked, and lines returning another amount an
// amount_mismatch against it, once the last refund is due; a payment refunded before its
// confirmation (status refunded, no ledger row) still counts as refunded whole.

#include "desk/reconciliationdesk.h"
#include "reconcilescenario.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

QString findingOf(const EngineFixture &f, const QString &txn)
{
    auto q = Sql::exec(f.orders->db(),
                       QStringLiteral("SELECT kind, status, expected_minor, actual_minor,"
                                      " currency, detail FROM discrepancies WHERE"
                                      " channel_txn_id = ? ORDER BY id"),
                       {txn});
    if (!q)
        return QStringLiteral("(error)");
    QStringList rows;
    while (q->next()) {
        QStringList row;
        for (int i = 0; i < 6; ++i)
            row << q->value(i).toString();
        rows << row.join(QStringLiteral(" | "));
    }
    return rows.isEmpty() ? QStringLiteral("(none)") : rows.join(QStringLiteral("\n"));
}

} // namespace

class TstReconcilePartialRefunds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void partialRefundsAreJudgedByTheLedger_data() { addEngineRows(); }
    void partialRefundsAreJudgedByTheLedger()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("p-match", 10000, "pi_match");     // 40.00 refunded, a 40.00 refund line
        s.paid("p-two", 10000, "pi_two");         // 20.00 then 50.00 in all, lines 20 + 30
        s.paid("p-missing", 10000, "pi_missing"); // 40.00 refunded, no refund line
        s.paid("p-short", 10000, "pi_short");     // 60.00 refunded, a 40.00 refund line
        s.paid("p-recent", 10000, "pi_recent");   // 20.00, then 30.00 more lately; a 20.00 line
        s.paid("p-whole", 10000, "pi_whole");     // refunded whole, a full refund line
        f.clock.set(kT0 + kDay);
        s.partlyRefunded("p-match", 10000, 4000, "pi_match");
        s.partlyRefunded("p-two", 10000, 2000, "pi_two");
        s.partlyRefunded("p-two", 10000, 5000, "pi_two");
        s.partlyRefunded("p-missing", 10000, 4000, "pi_missing");
        s.partlyRefunded("p-short", 10000, 6000, "pi_short");
        s.partlyRefunded("p-recent", 10000, 2000, "pi_recent");
        s.refunded("p-whole", 10000, "pi_whole");
        f.clock.set(kT0 + 5 * kDay - 3600000); // an hour before the run
        s.partlyRefunded("p-recent", 10000, 5000, "pi_recent");

        // The worker's bookings as this test relies on them: partial refunds leave the payment
        // captured, each a ledger row.
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments WHERE status = 'refunded'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 8);
        QCOMPARE(f.count("SELECT -SUM(amount_minor) FROM ledger_entries WHERE kind ="
                         " 'refund_debit' AND channel_txn_id = 'pi_two'"),
                 5000);

        QList<SettlementLine> lines;
        for (const char *pi :
             {"pi_match", "pi_two", "pi_missing", "pi_short", "pi_recent", "pi_whole"})
            lines << line(pi, 10000, 320, kT0 + kDay);
        lines << refundLine("pi_match", 4000, kT0 + 2 * kDay)
              << refundLine("pi_two", 2000, kT0 + 2 * kDay)
              << refundLine("pi_two", 3000, kT0 + 3 * kDay)
              << refundLine("pi_short", 4000, kT0 + 2 * kDay)
              << refundLine("pi_recent", 2000, kT0 + 2 * kDay)
              << refundLine("pi_whole", 10000, kT0 + 2 * kDay);
        s.importStatement(lines, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);

        const ReconcileReport r = s.reconcile();
        // Partly refunded and settled as booked: matched, nothing said about it.
        QCOMPARE(findingOf(f, "pi_match"), QStringLiteral("(none)"));
        QCOMPARE(findingOf(f, "pi_two"), QStringLiteral("(none)"));
        QCOMPARE(findingOf(f, "pi_whole"), QStringLiteral("(none)"));
        // The last refund is an hour old: the line of its 30.00 is not due yet.
        QCOMPARE(findingOf(f, "pi_recent"), QStringLiteral("(none)"));
        // Booked partial refunds the channel has not reported, or reported otherwise.
        QCOMPARE(findingOf(f, "pi_missing"),
                 QStringLiteral("refund_not_settled | open | -4000 | 0 | USD | refunded"
                                " 2026-01-02 00:00 UTC, no refund line"));
        QCOMPARE(findingOf(f, "pi_short"),
                 QStringLiteral("amount_mismatch | open | -6000 | -4000 | USD | refund lines"
                                " return 40.00 USD, OncePay refunded 60.00 USD"));
        QCOMPARE(r.counts.value("unknown_settlement"), 0);
        QCOMPARE(r.counts.value("refund_not_settled"), 1);
        QCOMPARE(r.counts.value("amount_mismatch"), 1);
        QCOMPARE(r.findings.size(), 2);
        QCOMPARE(r.eligible, 6);
        QCOMPARE(r.matched, 4);

        // The desk dates the partial refund's exception by its booking (payments.refunded_at
        // stays empty while the payment is captured).
        const ReconciliationDesk desk(*f.orders, f.clock);
        DiscrepancyFilter missing;
        missing.kind = DiscrepancyKind::RefundNotSettled;
        const auto rows = desk.discrepancies(missing, kFinance);
        QVERIFY(rows.ok());
        QCOMPARE(rows->size(), 1);
        QCOMPARE(rows->first().payment.status, QStringLiteral("captured"));
        QCOMPARE(rows->first().agedFromMs, kT0 + kDay);

        // Two days on, the recent refund is due: its missing 30.00 is an amount mismatch; the
        // missing 40.00's line arrives and resolves its refund_not_settled.
        s.importStatement({refundLine("pi_missing", 4000, kT0 + 6 * kDay)}, "week2.csv");
        f.clock.set(kT0 + 7 * kDay);
        const ReconcileReport later = s.reconcile();
        QCOMPARE(findingOf(f, "pi_recent"),
                 QStringLiteral("amount_mismatch | open | -5000 | -2000 | USD | refund lines"
                                " return 20.00 USD, OncePay refunded 50.00 USD"));
        QCOMPARE(findingOf(f, "pi_missing"),
                 QStringLiteral("refund_not_settled | resolved | -4000 | 0 | USD | refunded"
                                " 2026-01-02 00:00 UTC, no refund line"));
        QCOMPARE(later.resolved, 1);
        QCOMPARE(later.counts.value("unknown_settlement"), 0);
    }

    // A refund the channel reported before the payment was confirmed: the order goes back to
    // pending_payment, payments.status is refunded and nothing is in the ledger (nothing was
    // credited). Its refund line is OncePay's refund, not one it never booked.
    void refundBeforeConfirmationStillCounts_data() { addEngineRows(); }
    void refundBeforeConfirmationStillCounts()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("p-unconf", 10000, "pi_unconf");
        // As PaymentEffects::markRefunded leaves it.
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE payments SET status = 'refunded', refunded_at = ?"
                                         " WHERE channel_txn_id = 'pi_unconf'"),
                          {kT0 + kDay})
                    .ok());
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("DELETE FROM ledger_entries WHERE order_id = 'p-unconf'"))
                    .ok());
        s.importStatement({line("pi_unconf", 10000, 320, kT0 + kDay),
                           refundLine("pi_unconf", 10000, kT0 + 2 * kDay)},
                          "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("unknown_settlement"), 0);
        QCOMPARE(r.counts.value("amount_mismatch"), 0);
        QCOMPARE(r.counts.value("refund_not_settled"), 0);
    }
};

QTEST_GUILESS_MAIN(TstReconcilePartialRefunds)
#include "tst_reconcile_partial_refunds.moc"
