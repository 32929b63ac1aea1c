// What a reconciliation run must never let pass unseen, on SQLite, PostgreSQL and MariaDB:
// a chargeback against a payment (its own discrepancy, whichever period's run reads it), a
// line of a kind the matcher does not match (an adjustment, a kind it does not know), money
// that settles after its not_settled was written off (settled_after_write_off, once), a
// capture booked late in a narrow window (no false not_settled), refund lines summed with
// their signs, and a currency mismatch kept in its two currencies (migration 0012).

#include "auth/staffservice.h"
#include "db/migrator.h"
#include "fixes/fixservice.h"
#include "oldschema.h"
#include "reconcilescenario.h"
#include "reconciliation/reconciliationreport.h"

#include <QFile>
#include <QJsonArray>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

constexpr qint64 kHour = 3600000;

qint64 lineId(const EngineFixture &f, const QString &txn, const QString &kind)
{
    return f.count(QStringLiteral("SELECT MIN(id) FROM settlement_lines WHERE channel_txn_id ="
                                  " '%1' AND kind = '%2'")
                       .arg(txn, kind));
}

const Actor fay{QStringLiteral("fay"), QStringLiteral("finance")};
const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};

void addFinance(EngineFixture &f)
{
    StaffService staff(*f.orders, f.clock);
    for (const Actor &a : {fay, fin})
        QVERIFY(staff
                    .add({a.id, a.id, StaffRole::Finance}, QStringLiteral("correct horse battery"),
                         Actor::system(QStringLiteral("test")))
                    .ok());
}

// A write-off of a discrepancy as finance makes it: proposed by one person, approved by another.
void writeOff(EngineFixture &f, qint64 discrepancy)
{
    FixService fixes(*f.orders, f.clock);
    FixProposal p;
    p.kind = QStringLiteral("write_off");
    p.targetId = QString::number(discrepancy);
    p.reasonCode = QStringLiteral("settlement_correction");
    p.comment = QStringLiteral("the channel will not pay it");
    p.origin = QStringLiteral("test@localhost");
    auto proposed = fixes.propose(p, fay);
    QVERIFY2(proposed.ok(), proposed.ok() ? "" : qPrintable(proposed.error().message));
    auto approved = fixes.approve(proposed->id, proposed->changeSha256, QString(),
                                  QStringLiteral("test@localhost"), fin);
    QVERIFY2(approved.ok(), approved.ok() ? "" : qPrintable(approved.error().message));
    QCOMPARE(approved->status, FixStatus::Applied);
}

// A new row's id is above every id ever given (fix requests and audit rows name discrepancies
// by id): the deleted highest one's too.
bool idAbove(const Connection &c, const char *key, qint64 highest)
{
    auto id = Sql::scalar(c.db(), QStringLiteral("SELECT id FROM discrepancies WHERE"
                                                 " discrepancy_key = '%1'")
                                      .arg(QLatin1String(key)));
    if (!id || id->toLongLong() <= highest) {
        qWarning("new id %lld, deleted %lld", id ? id->toLongLong() : -1, highest);
        return false;
    }
    return true;
}

qint64 idOf(const EngineFixture &f, const QString &key)
{
    return f.count(
        QStringLiteral("SELECT id FROM discrepancies WHERE discrepancy_key = '%1'").arg(key));
}

} // namespace

class TstReconcileChargebacks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Finding 1: a Stripe dispute on a matched payment (gross -45.66, fee 15.00) is a chargeback
    // discrepancy with the amount taken back, and the payment is no longer counted as matched;
    // a kind nobody knows is a finding too, each once however often the period is run again.
    // Adjustments are part of their charge (settlementline.h): a partial capture's reversal
    // and a hold with its release match; a hold alone is an amount mismatch that names it; an
    // adjustment with no charge to add it to is a finding of its own.
    void chargebacksAndOtherLinesAreFindings_data() { addEngineRows(); }
    void chargebacksAndOtherLinesAreFindings()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-cb", 4566, "pi_cb");
        s.paid("o-hold", 28127, "pi_hold");
        s.paid("o-pcr", 4566, "pi_pcr");
        s.paid("o-holdonly", 10000, "pi_holdonly");
        s.paid("o-nocharge", 3000, "pi_nocharge");
        const QString adjustment = SettlementKind::Adjustment;
        storeLines(
            f,
            {line("pi_cb", 4566, 0, kT0 + 2 * kDay), line("pi_hold", 28127, 0, kT0 + 2 * kDay),
             line("pi_pcr", 5566, 0, kT0 + 2 * kDay), line("pi_holdonly", 10000, 0, kT0 + 2 * kDay),
             lineOf("pi_cb", SettlementKind::Chargeback, -4566, 1500, kT0 + 20 * kDay),
             lineOf("pi_hold", adjustment, -28127, 0, kT0 + 3 * kDay),
             lineOf("pi_hold", adjustment, 28127, 0, kT0 + 4 * kDay),
             lineOf("pi_hold", QStringLiteral("mystery"), -100, 0, kT0 + 4 * kDay),
             lineOf("pi_pcr", adjustment, -1000, 0, kT0 + 2 * kDay),
             lineOf("pi_holdonly", adjustment, -10000, 0, kT0 + 3 * kDay),
             lineOf("pi_nocharge", adjustment, -500, 0, kT0 + 3 * kDay),
             lineOf("pi_nobody", SettlementKind::Chargeback, -2000, 1500, kT0 + 5 * kDay)},
            "disputes");
        f.clock.set(kT0 + 30 * kDay);

        const ReconcileReport r = s.reconcile({}, window(kT0, kT0 + 10 * kDay));
        QCOMPARE(r.counts.value("chargeback"), 2);
        QCOMPARE(r.counts.value("settlement_adjustment"), 2);
        QCOMPARE(r.counts.value("amount_mismatch"), 1);
        QCOMPARE(r.counts.value("not_settled"), 1);
        QCOMPARE(r.counts.value("unknown_settlement"), 0);
        QCOMPARE(r.findings.size(), 6);
        QCOMPARE(r.eligible, 5);
        QCOMPARE(r.matched, 1); // pi_pcr
        QCOMPARE(r.adjusted, 3);
        QCOMPARE(r.opened, 6);
        const qint64 cb = lineId(f, "pi_cb", "chargeback");
        QCOMPARE(discrepancyRow(f, QStringLiteral("chargeback:stripe:pi_cb:%1").arg(cb)),
                 QStringLiteral("chargeback | open | o-cb | 0 | USD | -4566 | USD | the channel"
                                " took back 45.66 USD (fee 15.00 USD) for a dispute on this"
                                " payment of 45.66 USD"));
        QCOMPARE(f.count("SELECT settlement_line_id FROM discrepancies WHERE kind = 'chargeback'"
                         " AND order_id = 'o-cb'"),
                 cb);
        const qint64 nobody = lineId(f, "pi_nobody", "chargeback");
        QCOMPARE(discrepancyRow(f, QStringLiteral("chargeback:stripe:pi_nobody:%1").arg(nobody)),
                 QStringLiteral("chargeback | open | - | 0 | USD | -2000 | USD | the channel took"
                                " back 20.00 USD (fee 15.00 USD) for a dispute on a transaction"
                                " OncePay has no payment for"));
        const qint64 mystery = lineId(f, "pi_hold", "mystery");
        QCOMPARE(discrepancyRow(
                     f, QStringLiteral("settlement_adjustment:stripe:pi_hold:%1").arg(mystery)),
                 QStringLiteral("settlement_adjustment | open | o-hold | 0 | USD | -100 | USD |"
                                " mystery line of -1.00 USD (fee 0.00 USD) on this payment of"
                                " 281.27 USD: reconciliation does not match such lines, review"
                                " it"));
        const qint64 alone = lineId(f, "pi_nocharge", "adjustment");
        QCOMPARE(discrepancyRow(
                     f, QStringLiteral("settlement_adjustment:stripe:pi_nocharge:%1").arg(alone)),
                 QStringLiteral("settlement_adjustment | open | o-nocharge | 0 | USD | -500 | USD"
                                " | adjustment line of -5.00 USD (fee 0.00 USD) on this payment"
                                " of 30.00 USD: reconciliation does not match such lines, review"
                                " it"));
        QCOMPARE(discrepancyRow(f, "amount_mismatch:stripe:pi_holdonly"),
                 QStringLiteral("amount_mismatch | open | o-holdonly | 10000 | USD | 0 | USD |"
                                " settled 0.00 USD (charge 100.00 USD, adjustments -100.00 USD),"
                                " order 100.00 USD"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE order_id IN ('o-pcr')"), 0);
        // The CLI's report names each, and the payments whose charge took adjustments.
        const QString text = ReconciliationReportFormat::text(r, 50);
        QVERIFY2(text.contains("chargeback stripe pi_cb expected 0.00 USD, actual -45.66 USD"),
                 qPrintable(text));
        QVERIFY2(text.contains("payments whose charge took adjustment lines (added to it) 3"),
                 qPrintable(text));

        // Again, and over a wider period: nothing new.
        const ReconcileReport again = s.reconcile({}, window(kT0, kT0 + 10 * kDay));
        QCOMPARE(again.opened, 0);
        QCOMPARE(again.stillOpen, 6);
        QCOMPARE(s.reconcile({}, window(kT0 - kDay, kT0 + 29 * kDay)).opened, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 6);
    }

    // A chargeback arrives weeks after its payment's period was reconciled, later than that
    // run's lookahead: the run of the period the line settles in reports it, with its payment's
    // order and currency, although the payment is not of that period.
    void aLateChargebackIsReportedByItsOwnPeriod_data() { addEngineRows(); }
    void aLateChargebackIsReportedByItsOwnPeriod()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-late-cb", 4566, "pi_late_cb");
        storeLines(f, {line("pi_late_cb", 4566, 0, kT0 + 2 * kDay)}, "week1");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport first = s.reconcile({}, window(kT0, kT0 + kDay));
        QCOMPARE(first.matched, 1);
        QCOMPARE(first.findings.size(), 0);

        storeLines(f,
                   {lineOf("pi_late_cb", SettlementKind::Chargeback, -4566, 1500, kT0 + 80 * kDay),
                    lineOf("pi_late_cb", SettlementKind::Chargeback, 4566, -1500, kT0 + 95 * kDay)},
                   "dispute");
        f.clock.set(kT0 + 100 * kDay);
        const ReconcileReport later = s.reconcile({}, window(kT0 + 79 * kDay, kT0 + 96 * kDay));
        QCOMPARE(later.counts.value("chargeback"), 2);
        QCOMPARE(later.counts.value("unknown_settlement"), 0);
        const qint64 taken = lineId(f, "pi_late_cb", "chargeback");
        QCOMPARE(discrepancyRow(f, QStringLiteral("chargeback:stripe:pi_late_cb:%1").arg(taken)),
                 QStringLiteral("chargeback | open | o-late-cb | 0 | USD | -4566 | USD | the"
                                " channel took back 45.66 USD (fee 15.00 USD) for a dispute on"
                                " this payment of 45.66 USD"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE kind = 'chargeback' AND"
                         " actual_minor = 4566 AND order_id = 'o-late-cb' AND detail = 'the"
                         " channel returned 45.66 USD (fee -15.00 USD) for a dispute on this"
                         " payment of 45.66 USD'"),
                 1);
        // The first period run again (its lookahead does not reach the lines): nothing new.
        QCOMPARE(s.reconcile({}, window(kT0, kT0 + kDay)).opened, 0);
        QCOMPARE(s.reconcile({}, window(kT0 + 79 * kDay, kT0 + 96 * kDay)).opened, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 2);
    }

    // Finding 6: refund lines add up with their signs. OncePay refunded 100.00; the channel's
    // lines take 120.00 and give 20.00 back: 100.00 returned, no exception. A refund line that
    // gives money is no money returned.
    void refundLinesAddUpWithTheirSigns_data() { addEngineRows(); }
    void refundLinesAddUpWithTheirSigns()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-net", 10000, "pi_net");
        s.paid("o-plus", 10000, "pi_plus");
        f.clock.set(kT0 + kDay);
        s.refunded("o-net", 10000, "pi_net");
        s.refunded("o-plus", 10000, "pi_plus");
        storeLines(f,
                   {line("pi_net", 10000, 0, kT0 + kDay), line("pi_plus", 10000, 0, kT0 + kDay),
                    lineOf("pi_net", SettlementKind::Refund, -12000, 0, kT0 + 2 * kDay),
                    lineOf("pi_net", SettlementKind::Refund, 2000, 0, kT0 + 2 * kDay),
                    lineOf("pi_plus", SettlementKind::Refund, 10000, 0, kT0 + 2 * kDay)},
                   "refunds");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("amount_mismatch"), 1);
        QCOMPARE(r.findings.size(), 1);
        QCOMPARE(r.matched, 1); // pi_net
        QCOMPARE(discrepancyRow(f, "amount_mismatch:stripe:pi_plus:refund"),
                 QStringLiteral("amount_mismatch | open | o-plus | -10000 | USD | 10000 | USD |"
                                " refund lines return -100.00 USD, OncePay refunded 100.00 USD"));
    }

    // Finding 5: a 34,200 JPY order settled as 160.00 USD keeps each amount in its currency,
    // says both, and nothing subtracts one from the other; a refund line in another currency
    // is a currency mismatch of the refund, not a refund of the wrong amount.
    void aCurrencyMismatchKeepsBothCurrencies_data() { addEngineRows(); }
    void aCurrencyMismatchKeepsBothCurrencies()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.createOrder("o-yen", 34200, "JPY");
        f.pay("o-yen", 1, "a-o-yen");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-yen", "a-o-yen", 34200, "JPY", "evt_o-yen", "pi_yen")));
        f.drain();
        s.paid("o-eur", 10000, "pi_eur");
        f.clock.set(kT0 + kDay);
        s.refunded("o-eur", 10000, "pi_eur");
        storeLines(f,
                   {line("pi_yen", 16000, 0, kT0 + kDay), line("pi_eur", 10000, 0, kT0 + kDay),
                    lineOf("pi_eur", SettlementKind::Refund, -9300, 0, kT0 + 2 * kDay, "EUR")},
                   "currencies");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("currency_mismatch"), 2);
        QCOMPARE(r.counts.value("amount_mismatch"), 0);
        QCOMPARE(r.counts.value("refund_not_settled"), 0);
        QCOMPARE(r.findings.size(), 2);
        QCOMPARE(discrepancyRow(f, "currency_mismatch:stripe:pi_yen"),
                 QStringLiteral("currency_mismatch | open | o-yen | 34200 | JPY | 16000 | USD |"
                                " settled 160.00 USD, order 34200 JPY: different currencies, no"
                                " difference computed"));
        QCOMPARE(discrepancyRow(f, "currency_mismatch:stripe:pi_eur:refund"),
                 QStringLiteral("currency_mismatch | open | o-eur | -10000 | USD | -9300 | EUR |"
                                " refund lines return 93.00 EUR, OncePay refunded 100.00 USD:"
                                " different currencies, no difference computed"));
        const QString text = ReconciliationReportFormat::text(r, 50);
        QVERIFY2(text.contains("currency_mismatch stripe pi_yen expected 34200 JPY, actual 160.00"
                               " USD"),
                 qPrintable(text));
        bool found = false;
        for (const QJsonValue &v : ReconciliationReportFormat::json(r).value("findings").toArray())
            if (v.toObject().value("channel_txn_id").toString() == u"pi_yen") {
                found = true;
                QCOMPARE(v.toObject().value("expected_currency").toString(), QStringLiteral("JPY"));
                QCOMPARE(v.toObject().value("currency").toString(), QStringLiteral("USD"));
            }
        QVERIFY(found);
        // Every other row with amounts names its expected amount's currency too.
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE expected_currency IS NULL"), 0);
    }

    // Finding 8: a daily run over 2026-01-02 for a capture OncePay booked at 00:30 (its callback
    // late) whose line the channel dates 2026-01-01 23:01 finds it settled; and a payment an
    // earlier run matched to a line long before its capture stays settled in a run that does
    // not read that line.
    void aNarrowWindowSeesLinesJustBeforeIt_data() { addEngineRows(); }
    void aNarrowWindowSeesLinesJustBeforeIt()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.clock.set(kT0 + kDay + kHour / 2);
        s.paid("o-late-cb", 10000, "pi_late_callback");
        f.clock.set(kT0 + 5 * kDay);
        s.paid("o-long", 10000, "pi_long");
        storeLines(f,
                   {line("pi_late_callback", 10000, 0, kT0 + kDay - kHour + 60000),
                    line("pi_long", 10000, 0, kT0 + kDay)},
                   "week1");
        f.clock.set(kT0 + 10 * kDay);
        const ReconcileReport day = s.reconcile({}, window(kT0 + kDay, kT0 + 2 * kDay));
        QCOMPARE(day.counts.value("not_settled"), 0);
        QCOMPARE(day.findings.size(), 0);
        QCOMPARE(day.matched, 1);
        QCOMPARE(day.markedSettled, 1);

        QCOMPARE(s.reconcile({}, window(kT0, kT0 + 10 * kDay)).markedSettled, 1); // pi_long
        const ReconcileReport fifth = s.reconcile({}, window(kT0 + 5 * kDay, kT0 + 6 * kDay));
        QCOMPARE(fifth.findings.size(), 0);
        QCOMPARE(fifth.eligible, 1);
        QCOMPARE(fifth.matched, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 0);
    }

    // Finding 3: a capture written off as not settled (245.00) and a refund written off as not
    // reported (-120.00) whose lines arrive later: each raises settled_after_write_off with the
    // amount written off — in the run of the days the lines settle in as in the payments'
    // period's — once, however often either is run again; the written-off discrepancies stay
    // as finance left them.
    void aWriteOffIsReportedWhenTheMoneyArrives_data() { addEngineRows(); }
    void aWriteOffIsReportedWhenTheMoneyArrives()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-wo", 24500, "pi_wo");
        s.paid("o-rwo", 12000, "pi_rwo");
        f.clock.set(kT0 + kDay);
        s.refunded("o-rwo", 12000, "pi_rwo");
        storeLines(f, {line("pi_rwo", 12000, 0, kT0 + kDay)}, "week1");
        f.clock.set(kT0 + 5 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("not_settled"), 1);
        QCOMPARE(r.counts.value("refund_not_settled"), 1);
        const qint64 capture = idOf(f, "not_settled:stripe:pi_wo");
        const qint64 refund = idOf(f, "refund_not_settled:stripe:pi_rwo:refund");
        addFinance(f);
        writeOff(f, capture);
        writeOff(f, refund);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'written_off'"), 2);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE kind = 'write_off'"),
                 24500 - 12000);

        storeLines(
            f,
            {line("pi_wo", 24500, 0, kT0 + 6 * kDay), refundLine("pi_rwo", 12000, kT0 + 6 * kDay)},
            "late");
        f.clock.set(kT0 + 7 * kDay);
        // The run of the days the lines settle in sees them, though the payments are not its.
        const ReconcileReport late = s.reconcile({}, window(kT0 + 6 * kDay, kT0 + 7 * kDay));
        QCOMPARE(late.counts.value("settled_after_write_off"), 2);
        QCOMPARE(late.opened, 2);
        QCOMPARE(late.resolved, 0);
        const qint64 captureLine = lineId(f, "pi_wo", "charge");
        const qint64 refundLineId = lineId(f, "pi_rwo", "refund");
        QCOMPARE(discrepancyRow(f, "settled_after_write_off:not_settled:stripe:pi_wo"),
                 QStringLiteral("settled_after_write_off | open | o-wo | 0 | USD | 24500 | USD |"
                                " written off 245.00 USD (discrepancy #%1), but the channel has"
                                " settled it since (settlement line %2): reverse the write-off")
                     .arg(capture)
                     .arg(captureLine));
        QCOMPARE(
            discrepancyRow(f, "settled_after_write_off:refund_not_settled:stripe:pi_rwo:refund"),
            QStringLiteral("settled_after_write_off | open | o-rwo | 0 | USD | -12000 | USD"
                           " | written off -120.00 USD (discrepancy #%1), but the channel"
                           " has settled it since (settlement line %2): reverse the"
                           " write-off")
                .arg(refund)
                .arg(refundLineId));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'written_off'"), 2);

        // Again: over the whole time and the payments' day (found on the payments), and over
        // the late lines' days: once each.
        const ReconcileReport whole = s.reconcile();
        QCOMPARE(whole.counts.value("settled_after_write_off"), 2);
        QCOMPARE(whole.opened, 0);
        const ReconcileReport capturedDay = s.reconcile({}, window(kT0, kT0 + kDay));
        QCOMPARE(capturedDay.counts.value("settled_after_write_off"), 2);
        QCOMPARE(capturedDay.opened, 0);
        QCOMPARE(s.reconcile({}, window(kT0 + 6 * kDay, kT0 + 7 * kDay)).opened, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE kind ="
                         " 'settled_after_write_off'"),
                 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 4);
    }

    // Migration 0012 on a database whose runs recorded a currency mismatch with its expected
    // amount under the line's currency: the row takes its order's currency as expected
    // currency, every other row with amounts its own; ids stay, the new kinds are accepted,
    // a kind that is none is still refused, and (SQLite, whose table is built again) the
    // AUTOINCREMENT counter and the three indexes carry over.
    void migration0012KeepsRowsAndNamesExpectedCurrency_data() { addEngineRows(); }
    void migration0012KeepsRowsAndNamesExpectedCurrency()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = Connection::open(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        auto run = [&](const QString &sql) {
            auto r = Sql::exec(c->db(), sql);
            if (!r)
                qWarning("%s: %s", qPrintable(sql), qPrintable(r.error().message));
            return r.ok();
        };
        const int before = migrateThrough(*c, 11);
        QCOMPARE(before, 11);
        QVERIFY(run(QStringLiteral("INSERT INTO orders (order_id, customer_ref, amount_minor,"
                                   " currency, state, version, created_at, updated_at) VALUES"
                                   " ('o-yen', 'c', 34200, 'JPY', 'paid', 3, 0, 0)")));
        const QStringList rows{
            "'currency_mismatch:stripe:pi_yen', 'currency_mismatch', 'pi_yen', 'o-yen', 34200,"
            " 16000, 'USD'",
            "'not_settled:stripe:pi_a', 'not_settled', 'pi_a', 'o-a', 1000, 0, 'EUR'",
            "'fee_mismatch:stripe:pi_b', 'fee_mismatch', 'pi_b', 'o-b', NULL, NULL, 'USD'",
            "'refund_due:stripe:pi_c', 'refund_due', 'pi_c', NULL, 0, 500, 'USD'"};
        for (const QString &values : rows)
            QVERIFY(run(QStringLiteral("INSERT INTO discrepancies (discrepancy_key, kind,"
                                       " channel_txn_id, order_id, expected_minor, actual_minor,"
                                       " currency, channel, status, first_run_id, last_run_id,"
                                       " opened_at) VALUES (%1, 'stripe', 'open', 1, 1, 0)")
                            .arg(values)));
        auto dump = [&] {
            QStringList out;
            auto q = Sql::exec(c->db(),
                               QStringLiteral("SELECT id, kind, COALESCE(expected_currency, '-'),"
                                              " currency FROM discrepancies ORDER BY id"));
            while (q && q->next())
                out << QStringLiteral("%1 %2 %3 %4")
                           .arg(q->value(0).toString(), q->value(1).toString(),
                                q->value(2).toString(), q->value(3).toString());
            return out;
        };
        const qint64 first =
            Sql::scalar(c->db(), QStringLiteral("SELECT MIN(id) FROM discrepancies"))->toLongLong();
        const qint64 highest = first + 3;
        QVERIFY(run(QStringLiteral("DELETE FROM discrepancies WHERE id = %1").arg(highest)));

        auto migrated = Migrator::migrate(*c);
        QVERIFY2(migrated.ok(), migrated.ok() ? "" : qPrintable(migrated.error().message));
        QCOMPARE(migrated->before, before);
        QVERIFY(migrated->applied.contains(QStringLiteral("0012_chargebacks_expected_currency")));
        QCOMPARE(dump(), QStringList({QStringLiteral("%1 currency_mismatch JPY USD").arg(first),
                                      QStringLiteral("%1 not_settled EUR EUR").arg(first + 1),
                                      QStringLiteral("%1 fee_mismatch - USD").arg(first + 2)}));
        for (const char *kind : {"chargeback", "settlement_adjustment", "settled_after_write_off"})
            QVERIFY(run(QStringLiteral("INSERT INTO discrepancies (discrepancy_key, kind, channel,"
                                       " status, first_run_id, last_run_id, opened_at) VALUES"
                                       " ('%1:x', '%1', 'stripe', 'open', 1, 1, 0)")
                            .arg(QLatin1String(kind))));
        QVERIFY(!Sql::exec(c->db(), QStringLiteral("INSERT INTO discrepancies (discrepancy_key,"
                                                   " kind, channel, status, first_run_id,"
                                                   " last_run_id, opened_at) VALUES ('y',"
                                                   " 'bogus', 'stripe', 'open', 1, 1, 0)"))
                     .ok());
        QVERIFY(idAbove(*c, "chargeback:x", highest));
        if (c->dialect() == Dialect::Sqlite) {
            auto n = Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM sqlite_master"
                                                         " WHERE type = 'index' AND name IN"
                                                         " ('discrepancies_status',"
                                                         " 'discrepancies_order',"
                                                         " 'discrepancies_txn')"));
            QCOMPARE(n->toInt(), 3);
        }
    }
};

QTEST_GUILESS_MAIN(TstReconcileChargebacks)
#include "tst_reconcile_chargebacks.moc"
