// Money reconciliation must neither invent nor lose, on SQLite, PostgreSQL and MariaDB: a
// PayPal T00xx debit (a payment the merchant's account sent) imports with its statement and is
// an exception a person reviews; refund lines that net to zero for a payment OncePay never
// refunded are no "unknown refund"; and refund lines in two foreign currencies each keep all
// their money in the currency mismatch.

#include "reconcilescenario.h"

#include <QFile>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

QByteArray paypalReport()
{
    QFile f(QStringLiteral(ONCEPAY_SETTLEMENT_DATA "/STL-20260101.01.009.CSV"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing PayPal report");
    return f.readAll();
}

} // namespace

class TstReconcileUnmatchedMoney : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A purchasing platform buys goods through the PayPal account it sells through: the STL
    // report lists its payment to the supplier as T0006 DR (PayPal books a T00xx code CR for the
    // receiver, DR for the sender). The statement imports — every other line as before — and
    // the debit is an adjustment under its own Transaction ID, which the run reports as a
    // settlement_adjustment with the money it took: never matched to a capture, never dropped.
    // A T00xx credit is still a charge.
    void aPayPalPaymentSentIsAnExceptionNotARefusal_data() { addEngineRows(); }
    void aPayPalPaymentSentIsAnExceptionNotARefusal()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        QByteArray report = paypalReport();
        const QByteArray sent =
            "\"SB\",\"9PS12345AB6789012\",\"\",\"\",\"\",\"T0006\",\"2026/01/01 10:00:00 +0000\","
            "\"2026/01/01 10:00:01 +0000\",\"DR\",12345,\"USD\",\"\",0,\"\",\"supplier order"
            " 77\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\r\n";
        QVERIFY(report.contains("\"SF\",4"));
        report.insert(report.indexOf("\"SF\""), sent);
        report.replace("\"SF\",4", "\"SF\",5");
        auto imported = SettlementImporter(*f.orders, f.clock)
                            .importData("paypal", "STL-20260101.01.009.CSV", report, kFinance);
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        QCOMPARE(imported->lines, 4);          // two charges, a refund, the payment sent
        QCOMPARE(imported->skippedRecords, 1); // the T0400 withdrawal, as before
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE kind = 'charge'"), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE kind = 'adjustment' AND"
                         " channel_txn_id = '9PS12345AB6789012' AND gross_minor = -12345 AND"
                         " line_key = '9PS12345AB6789012:T0006'"),
                 1);
        const qint64 id = f.count("SELECT id FROM settlement_lines WHERE channel_txn_id ="
                                  " '9PS12345AB6789012'");

        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile({}, window(kT0, kT0 + kDay));
        QCOMPARE(r.counts.value("settlement_adjustment"), 1);
        QCOMPARE(
            discrepancyRow(
                f, QStringLiteral("settlement_adjustment:paypal:9PS12345AB6789012:%1").arg(id)),
            QStringLiteral("settlement_adjustment | open | - | 0 | USD | -12345 | USD |"
                           " adjustment line of -123.45 USD (fee 0.00 USD) for a transaction"
                           " OncePay has no payment for: reconciliation does not match such"
                           " lines, review it"));
        // The credit T0006 lines stay charges: OncePay has no payment for them here.
        QCOMPARE(
            discrepancyRow(f, "unknown_settlement:paypal:5TY05013RG002845M").section(" | ", 0, 1),
            QStringLiteral("unknown_settlement | open"));
    }

    // A refund line and its reversal for a payment OncePay never refunded: no money moved, so
    // no "the channel refunded 0.00" exception (the payment matches); a refund line alone is
    // still an unknown refund, and a partly reversed one says what is left.
    void refundLinesNettingToZeroAreNoUnknownRefund_data() { addEngineRows(); }
    void refundLinesNettingToZeroAreNoUnknownRefund()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-zero", 10000, "pi_zero");
        s.paid("o-one", 10000, "pi_one");
        s.paid("o-part", 10000, "pi_part");
        const QString refund = SettlementKind::Refund;
        storeLines(f,
                   {line("pi_zero", 10000, 0, kT0 + kDay), line("pi_one", 10000, 0, kT0 + kDay),
                    line("pi_part", 10000, 0, kT0 + kDay),
                    lineOf("pi_zero", refund, -3000, 0, kT0 + 2 * kDay),
                    lineOf("pi_zero", refund, 3000, 0, kT0 + 3 * kDay),
                    lineOf("pi_one", refund, -3000, 0, kT0 + 2 * kDay),
                    lineOf("pi_part", refund, -3000, 0, kT0 + 2 * kDay),
                    lineOf("pi_part", refund, 1000, 0, kT0 + 3 * kDay)},
                   "reversed refunds");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(discrepancyRow(f, "unknown_settlement:stripe:pi_zero:refund"),
                 QStringLiteral("(none)"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE order_id = 'o-zero'"), 0);
        QCOMPARE(discrepancyRow(f, "unknown_settlement:stripe:pi_one:refund"),
                 QStringLiteral("unknown_settlement | open | o-one | 0 | USD | -3000 | USD | the"
                                " channel refunded 30.00 USD; OncePay has no refund of this"
                                " payment"));
        QCOMPARE(discrepancyRow(f, "unknown_settlement:stripe:pi_part:refund"),
                 QStringLiteral("unknown_settlement | open | o-part | 0 | USD | -2000 | USD | the"
                                " channel refunded 20.00 USD; OncePay has no refund of this"
                                " payment"));
        QCOMPARE(r.findings.size(), 2);
        QCOMPARE(r.matched, 1); // pi_zero
    }

    // OncePay refunded 100.00 USD; the channel's refund lines are in EUR and in GBP, two lines
    // each (and JPY lines that net to zero). Each currency is a currency mismatch of the refund
    // carrying the signed sum of all its lines — the second currency's money is not lost — and
    // the currency whose lines net to zero moved nothing.
    void refundLinesInTwoForeignCurrenciesKeepAllTheirMoney_data() { addEngineRows(); }
    void refundLinesInTwoForeignCurrenciesKeepAllTheirMoney()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-fx", 10000, "pi_fx");
        f.clock.set(kT0 + kDay);
        s.refunded("o-fx", 10000, "pi_fx");
        const QString refund = SettlementKind::Refund;
        storeLines(f,
                   {line("pi_fx", 10000, 0, kT0 + kDay),
                    lineOf("pi_fx", refund, -5000, 0, kT0 + 2 * kDay, "EUR"),
                    lineOf("pi_fx", refund, -2000, 0, kT0 + 2 * kDay, "GBP"),
                    lineOf("pi_fx", refund, -1000, 0, kT0 + 2 * kDay, "GBP"),
                    lineOf("pi_fx", refund, -3000, 0, kT0 + 3 * kDay, "EUR"),
                    lineOf("pi_fx", refund, -700, 0, kT0 + 3 * kDay, "JPY"),
                    lineOf("pi_fx", refund, 700, 0, kT0 + 3 * kDay, "JPY")},
                   "foreign refunds");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("currency_mismatch"), 2);
        QCOMPARE(r.findings.size(), 2);
        QCOMPARE(discrepancyRow(f, "currency_mismatch:stripe:pi_fx:refund"),
                 QStringLiteral("currency_mismatch | open | o-fx | -10000 | USD | -8000 | EUR |"
                                " refund lines return 80.00 EUR, OncePay refunded 100.00 USD:"
                                " different currencies, no difference computed"));
        QCOMPARE(discrepancyRow(f, "currency_mismatch:stripe:pi_fx:GBP:refund"),
                 QStringLiteral("currency_mismatch | open | o-fx | -10000 | USD | -3000 | GBP |"
                                " refund lines return 30.00 GBP, OncePay refunded 100.00 USD:"
                                " different currencies, no difference computed"));
        // Each names the first line of its currency.
        QCOMPARE(f.count("SELECT settlement_line_id FROM discrepancies WHERE discrepancy_key ="
                         " 'currency_mismatch:stripe:pi_fx:GBP:refund'"),
                 f.count("SELECT MIN(id) FROM settlement_lines WHERE currency = 'GBP'"));
        // Both are the refund's exceptions (":refund" keys): aged from the refund, not the capture.
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key LIKE '%:refund'"), 2);
        // Again: nothing new.
        QCOMPARE(s.reconcile().opened, 0);
    }
};

QTEST_GUILESS_MAIN(TstReconcileUnmatchedMoney)
#include "tst_reconcile_unmatched_money.moc"
