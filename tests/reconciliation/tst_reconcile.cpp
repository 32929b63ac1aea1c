// Reconciliation on SQLite, PostgreSQL and MariaDB: payments made through the real engine,
// a Stripe statement with one line per discrepancy kind, the minimal-intervention rule
// (explained fee change auto-fixed, unexplained ones not), idempotent re-runs, coverage,
// resolution of a late settlement, refunds against the channel's refund lines, the capture
// skew setting, a period's own payments. Starting and stopping runs: tst_reconcile_runs; a
// refund not reported told apart from a payment not settled: tst_reconcile_refund_kinds.

#include "desk/reconciliationdesk.h"
#include "investigation/orderpicturequery.h"
#include "reconcilescenario.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

class TstReconcile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classifiesFixesAndIsIdempotent_data() { addEngineRows(); }
    void classifiesFixesAndIsIdempotent()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-ok", 10000, "pi_ok");
        s.paid("o-unexplained", 20000, "pi_unexplained");
        s.paid("o-beyond", 20000, "pi_beyond");
        s.paid("o-amount", 30000, "pi_amount");
        s.paid("o-currency", 10000, "pi_currency");
        s.paid("o-dup", 10000, "pi_dup");
        s.paid("o-missing", 10000, "pi_missing");
        s.staleThenPaid("o-stale", 7000, "pi_stale", "pi_paid");
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL"), 1);
        // Charged by Stripe on 2026-01-01 (the line's created_utc), before the 2026-01-02 fee
        // change; its callback reached OncePay 32 hours later, after the change.
        const qint64 explainedBooked = kT0 + kDay + 8 * 3600000;
        f.clock.set(explainedBooked);
        s.paid("o-explained", 20000, "pi_explained");
        s.importFees();

        const qint64 settled = kT0 + 2 * kDay; // after the 2026-01-02 fee change
        s.importStatement(
            {line("pi_ok", 10000, 320, settled),
             line("pi_explained", 20000, 610, settled),   // old rate: 580 + 30, as charged
             line("pi_unexplained", 20000, 611, settled), // +1, within tolerance
             line("pi_beyond", 20000, 900, settled), line("pi_amount", 29000, 871, settled),
             line("pi_currency", 10000, 320, settled, "EUR"), line("pi_dup", 10000, 320, settled),
             line("pi_dup", 10000, 320, settled), line("pi_paid", 7000, 233, settled),
             line("pi_stale", 7000, 233, settled), line("pi_ghost", 5000, 175, settled)},
            "week1.csv");

        // A payment captured an hour ago: expected, not yet due.
        f.clock.set(kT0 + 9 * kDay + 23 * 3600000);
        s.paid("o-recent", 10000, "pi_recent");
        f.clock.set(kT0 + 10 * kDay);

        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.status, QStringLiteral("finished"));
        QCOMPARE(r.counts.value("not_settled"), 1);
        QCOMPARE(r.counts.value("unknown_settlement"), 1);
        QCOMPARE(r.counts.value("amount_mismatch"), 1);
        QCOMPARE(r.counts.value("fee_mismatch"), 3);
        QCOMPARE(r.counts.value("currency_mismatch"), 1);
        QCOMPARE(r.counts.value("duplicate_settlement"), 1);
        QCOMPARE(r.counts.value("refund_due"), 1);
        QCOMPARE(r.autoFixed, 1);
        QCOMPARE(r.opened, 8);
        QCOMPARE(r.notYetDue, 1);
        QCOMPARE(r.eligible, 9);
        QCOMPARE(r.matched, 4); // ok, explained (auto-fixed), dup's first line, paid
        QCOMPARE(r.coveragePpm, 444444);
        QCOMPARE(r.markedSettled, 8);

        auto kindOf = [&](const char *txn) {
            return f.count(
                QStringLiteral("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = '%1'")
                    .arg(txn));
        };
        QCOMPARE(kindOf("pi_ok"), 0);
        QCOMPARE(kindOf("pi_recent"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_stale' AND "
                         "kind = 'refund_due'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_ghost'"
                         " AND kind = 'unknown_settlement'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_missing' "
                         "AND kind = 'not_settled'"),
                 1);
        QCOMPARE(f.count("SELECT expected_minor FROM discrepancies WHERE kind = 'amount_mismatch'"),
                 30000);
        QCOMPARE(f.count("SELECT actual_minor FROM discrepancies WHERE kind = 'amount_mismatch'"),
                 29000);
        // As the desk shows them: each amount in its own currency, and a difference only
        // where both are in one currency (USD captured, EUR settled: none).
        const Actor reader{QStringLiteral("fin"), QStringLiteral("finance")};
        auto shown = ReconciliationDesk(*f.orders, f.clock).discrepancies({}, reader);
        QVERIFY2(shown.ok(), shown.ok() ? "" : qPrintable(shown.error().message));
        QHash<QString, DiscrepancyRow> byKind;
        for (const DiscrepancyRow &d : *shown)
            byKind.insert(d.kind, d);
        const DiscrepancyRow currency = byKind.value(QStringLiteral("currency_mismatch"));
        QCOMPARE(currency.currency, QStringLiteral("EUR"));
        QCOMPARE(currency.expectedCurrency(), QStringLiteral("USD"));
        QVERIFY(!currency.differenceMinor().has_value());
        const DiscrepancyRow amount = byKind.value(QStringLiteral("amount_mismatch"));
        QCOMPARE(amount.expectedCurrency(), amount.currency);
        QCOMPARE(amount.differenceMinor(), std::optional<qint64>(-1000));

        // Each exception ages from the money movement it is about, not from this run that
        // found it (opened_at, now): the captures and the stale capture's refund obligation
        // on 2026-01-01, ten days ago; the unknown and the duplicate line's settlement two
        // days later. The detail names the capture's moment, not an age frozen at run time.
        const qint64 runAt = kT0 + 10 * kDay;
        const QHash<QString, qint64> agedFrom{
            {"pi_missing", kT0},     {"pi_amount", kT0},
            {"pi_currency", kT0},    {"pi_explained", explainedBooked},
            {"pi_unexplained", kT0}, {"pi_beyond", kT0},
            {"pi_stale", kT0},       {"pi_ghost", settled},
            {"pi_dup", settled}};
        QCOMPARE(shown->size(), agedFrom.size());
        QHash<QString, DiscrepancyRow> byTxn;
        for (const DiscrepancyRow &d : *shown) {
            byTxn.insert(d.channelTxnId, d);
            QCOMPARE(d.openedAt, runAt); // "found": kept as it was
            QVERIFY2(agedFrom.contains(d.channelTxnId), qPrintable(d.channelTxnId));
            QVERIFY2(d.agedFromMs == agedFrom.value(d.channelTxnId),
                     qPrintable(QStringLiteral("%1 %2 ages from %3")
                                    .arg(d.kind, d.channelTxnId)
                                    .arg(d.agedFromMs)));
            QCOMPARE(d.ageMs, (d.closedAt ? d.closedAt : runAt) - d.agedFromMs);
        }
        QCOMPARE(byTxn.value("pi_missing").kind, QStringLiteral("not_settled"));
        QCOMPARE(byTxn.value("pi_missing").ageMs, 10 * kDay);
        QCOMPARE(byTxn.value("pi_stale").kind, QStringLiteral("refund_due"));
        QCOMPARE(byTxn.value("pi_stale").ageMs, 10 * kDay);
        QCOMPARE(byTxn.value("pi_ghost").ageMs, 8 * kDay);
        QCOMPARE(byTxn.value("pi_missing").detail,
                 QStringLiteral("captured 2026-01-01 00:00 UTC, no settlement line"));
        // Oldest money first.
        for (qsizetype i = 1; i < shown->size(); ++i)
            QVERIFY((*shown)[i - 1].agedFromMs <= (*shown)[i].agedFromMs);
        // The age filter counts from the same moment: nine days takes the captures and the
        // obligation, not the lines settled eight days ago; a day more than ten takes none.
        const ReconciliationDesk desk(*f.orders, f.clock);
        DiscrepancyFilter old;
        old.minAgeMs = 9 * kDay;
        auto aged = desk.discrepancies(old, reader);
        QVERIFY(aged.ok());
        QStringList agedTxns;
        for (const DiscrepancyRow &d : *aged)
            agedTxns << d.channelTxnId;
        agedTxns.sort();
        QCOMPARE(agedTxns, QStringList({"pi_amount", "pi_beyond", "pi_currency", "pi_missing",
                                        "pi_stale", "pi_unexplained"}));
        old.minAgeMs = 11 * kDay;
        QCOMPARE(desk.discrepancies(old, reader)->size(), 0);
        old.minAgeMs = 9 * kDay;
        old.statuses = {QStringLiteral("open")};
        old.kind = QStringLiteral("not_settled");
        QCOMPARE(desk.discrepancies(old, reader)->size(), 1);

        // Minimal intervention: only the explained one is corrected, with its evidence: the
        // schedule in force when Stripe made the charge (2.9 %), not the one OncePay's booking
        // fell under (2.95 %).
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'auto_fixed'"), 1);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'auto_fixed' AND "
                    "channel_txn_id ="
                    " 'pi_explained' AND rule_id = 'fee.schedule_change' AND rule_version = 2"
                    " AND fee_schedule_id = (SELECT id FROM fee_schedules WHERE rate_ppm = 29000)"
                    " AND expected_minor = 620 AND actual_minor = 610"),
            1);
        auto digest =
            Sql::scalar(f.orders->db(),
                        "SELECT evidence_sha256 FROM discrepancies WHERE status = 'auto_fixed'");
        QCOMPARE(digest->toString().size(), 64);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE kind = 'fee_mismatch' AND "
                         "status = 'open'"),
                 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 1);
        QCOMPARE(f.count("SELECT amount_minor FROM ledger_entries WHERE kind = 'fee_adjustment'"),
                 10);
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.fee_auto_fixed'"),
            1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.run'"),
                 1);
        // Each payment with a charge line is matched once, to its first charge line, by this run.
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches WHERE run_id = ?", {r.runId}), 8);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches m JOIN payments p ON p.id ="
                         " m.payment_id JOIN settlement_lines s ON s.id = m.settlement_line_id"
                         " WHERE s.channel_txn_id = p.channel_txn_id AND s.kind = 'charge'"
                         " AND s.id = (SELECT MIN(x.id) FROM settlement_lines x WHERE"
                         " x.channel_txn_id = p.channel_txn_id AND x.kind = 'charge')"),
                 8);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches m JOIN payments p ON p.id ="
                         " m.payment_id WHERE p.channel_txn_id IN ('pi_missing', 'pi_recent')"),
                 0);
        // What an agent sees on the order page follows the matches.
        auto settlementOf = [&](const char *txn) {
            const auto order = Sql::scalar(
                f.orders->db(),
                QStringLiteral("SELECT order_id FROM payments WHERE channel_txn_id = '%1'")
                    .arg(txn));
            const auto picture = OrderPictureQuery(*f.orders).load(order->toString(), kFinance);
            return picture && picture->payments.size() == 1
                       ? picture->payments.first().settlementStatus
                       : QStringLiteral("(no picture)");
        };
        QCOMPARE(settlementOf("pi_ok"), QStringLiteral("settled"));
        QCOMPARE(settlementOf("pi_missing"), QStringLiteral("pending"));
        QCOMPARE(f.count("SELECT coverage_ppm FROM reconciliation_runs"), 444444);

        // The same period again: nothing duplicated, last_run_id moves on.
        const ReconcileReport again = s.reconcile();
        QCOMPARE(again.opened, 0);
        QCOMPARE(again.autoFixed, 0);
        QCOMPARE(again.stillOpen, 8);
        QCOMPARE(again.markedSettled, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches"), 8);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 9);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE last_run_id = ?", {again.runId}),
                 9);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE first_run_id = ?", {r.runId}),
                 9);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.run'"),
                 2);

        // The late settlement arrives: the exception resolves itself, coverage rises.
        s.importStatement({line("pi_missing", 10000, 320, kT0 + 9 * kDay)}, "late.csv");
        const ReconcileReport late = s.reconcile();
        QCOMPARE(late.resolved, 1);
        QCOMPARE(late.matched, 5);
        QCOMPARE(late.markedSettled, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches m JOIN payments p ON p.id ="
                         " m.payment_id WHERE p.channel_txn_id = 'pi_missing' AND m.run_id = ?",
                         {late.runId}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE kind = 'not_settled' AND status "
                         "= 'resolved'"),
                 1);
    }

    // The channel's refund lines against OncePay's own refunds: a booked refund must settle
    // for the whole amount (partial lines add up); a refund OncePay never booked is money the
    // channel returned on its own; a late refund line resolves the exception.
    void refundsAreCheckedAgainstOncePaysOwn_data() { addEngineRows(); }
    void refundsAreCheckedAgainstOncePaysOwn()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        for (const char *id : {"r-ok", "r-split", "r-missing", "r-short", "r-unbooked"})
            s.paid(id, 10000, QStringLiteral("pi_") + id);
        f.clock.set(kT0 + kDay);
        for (const char *id : {"r-ok", "r-split", "r-missing", "r-short"})
            s.refunded(id, 10000, QStringLiteral("pi_") + id);
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments WHERE status = 'refunded'"), 4);
        // A refund booked just now: its line is not due yet.
        f.clock.set(kT0 + 5 * kDay);
        s.paid("r-recent", 10000, "pi_r-recent");
        s.refunded("r-recent", 10000, "pi_r-recent");
        s.importFees();

        const qint64 settled = kT0 + kDay; // before the fee change: the list-price fee is right
        QList<SettlementLine> lines;
        for (const char *id : {"r-ok", "r-split", "r-missing", "r-short", "r-unbooked"})
            lines << line(QStringLiteral("pi_") + id, 10000, 320, settled);
        SettlementLine recent = line("pi_r-recent", 10000, 325, kT0 + 5 * kDay);
        recent.transactedAtMs = kT0 + 5 * kDay; // charged after the change: new rate
        lines << recent;
        lines << refundLine("pi_r-ok", 10000, settled + 3600000)
              << refundLine("pi_r-split", 4000, settled + 3600000)
              << refundLine("pi_r-split", 6000, settled + 7200000)
              << refundLine("pi_r-short", 9000, settled + 3600000)
              << refundLine("pi_r-unbooked", 10000, settled + 3600000);
        s.importStatement(lines, "refunds.csv");

        f.clock.set(kT0 + 5 * kDay + 3600000);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("not_settled"), 0);
        QCOMPARE(r.counts.value("refund_not_settled"), 1);
        QCOMPARE(r.counts.value("amount_mismatch"), 1);
        QCOMPARE(r.counts.value("unknown_settlement"), 1);
        QCOMPARE(r.findings.size(), 3);
        QCOMPARE(r.eligible, 6);
        QCOMPARE(r.matched, 3); // r-ok, r-split, r-recent
        auto one = [&](const char *sql) { return f.count(QString::fromLatin1(sql)); };
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key ="
                     " 'refund_not_settled:stripe:pi_r-missing:refund' AND expected_minor = -10000"
                     " AND order_id = 'r-missing' AND status = 'open'"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key ="
                     " 'amount_mismatch:stripe:pi_r-short:refund' AND expected_minor = -10000"
                     " AND actual_minor = -9000"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key ="
                     " 'unknown_settlement:stripe:pi_r-unbooked:refund' AND actual_minor = -10000"
                     " AND order_id = 'r-unbooked' AND settlement_line_id IS NOT NULL"),
                 1);
        // A refund's exceptions age from the refund (booked on 2026-01-02), an unbooked
        // refund's from the channel's refund line; the detail names the refund's moment.
        auto rows = ReconciliationDesk(*f.orders, f.clock).discrepancies({}, kFinance);
        QVERIFY(rows.ok());
        QHash<QString, DiscrepancyRow> byKind;
        for (const DiscrepancyRow &d : *rows)
            byKind.insert(d.kind, d);
        const DiscrepancyRow missing = byKind.value(QStringLiteral("refund_not_settled"));
        QCOMPARE(missing.agedFromMs, kT0 + kDay);
        QCOMPARE(missing.ageMs, 4 * kDay + 3600000);
        QCOMPARE(missing.openedAt, kT0 + 5 * kDay + 3600000);
        QCOMPARE(missing.detail, QStringLiteral("refunded 2026-01-02 00:00 UTC, no refund line"));
        QCOMPARE(byKind.value(QStringLiteral("amount_mismatch")).agedFromMs, kT0 + kDay);
        QCOMPARE(byKind.value(QStringLiteral("unknown_settlement")).agedFromMs, settled + 3600000);
        DiscrepancyFilter fourDays;
        fourDays.minAgeMs = 4 * kDay + 1;
        auto older = ReconciliationDesk(*f.orders, f.clock).discrepancies(fourDays, kFinance);
        QVERIFY(older.ok());
        QCOMPARE(older->size(), 2); // the booked refunds', not the line's (4 days exactly)

        // The missing refund line arrives: the exception resolves, the charge's stays apart.
        f.clock.set(kT0 + 6 * kDay);
        s.importStatement({refundLine("pi_r-missing", 10000, kT0 + 6 * kDay),
                           refundLine("pi_r-recent", 10000, kT0 + 6 * kDay)},
                          "late-refund.csv");
        const ReconcileReport late = s.reconcile();
        QCOMPARE(late.resolved, 1);
        QCOMPARE(late.opened, 0);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key ="
                     " 'refund_not_settled:stripe:pi_r-missing:refund' AND status = 'resolved'"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE status = 'open'"), 2);
    }

    // reconcile.capture_skew_minutes, for a line without the channel's transaction time (one
    // imported before migration 0010): a capture booked after a fee change at the old rate
    // is right when the channel may have captured it before the change, and an exception
    // when the setting says our captured_at is to be trusted. With a transaction time the fee
    // is judged at that moment: tst_reconcile_fee_time.
    void captureSkewIsASetting_data() { addEngineRows(); }
    void captureSkewIsASetting()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.clock.set(kT0 + kDay + 3600000); // an hour after the 2026-01-02 change
        s.paid("o-skew", 20000, "pi_skew");
        s.importFees();
        s.importStatement({line("pi_skew", 20000, 610, kT0 + 3 * kDay)}, "skew.csv"); // old rate
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE settlement_lines SET transacted_at = NULL").ok());
        f.clock.set(kT0 + 4 * kDay);
        QCOMPARE(s.reconcile().findings.size(), 0); // default: 360 minutes
        // migration 0003 seeds the setting (360); the operator tightens it
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE ops_settings SET setting_value = '30'"
                                          " WHERE setting_key = 'reconcile.capture_skew_minutes'")
                    .ok());
        QCOMPARE(f.count(QStringLiteral("SELECT COUNT(*) FROM ops_settings WHERE setting_key ="
                                        " 'reconcile.capture_skew_minutes'")),
                 1);
        const ReconcileReport strict = s.reconcile();
        QCOMPARE(strict.counts.value("fee_mismatch"), 1);
        QCOMPARE(strict.autoFixed, 0);
        QCOMPARE(strict.findings.first().detail,
                 QStringLiteral("fee 6.10 USD instead of 6.20 USD (the settlement line has no"
                                " transaction time: judged at captured_at)"));
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE ops_settings SET setting_value = 'soon'"
                                          " WHERE setting_key = 'reconcile.capture_skew_minutes'")
                    .ok());
        auto refused = Reconciler(*f.orders, f.clock, kFinance).run({});
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.contains("reconcile.capture_skew_minutes"));
    }

    // A run for one day reads that day's payments only (on SQLite through payments_captured,
    // the period holding a fifth of them); a run over everything then settles the rest.
    void aPeriodTakesOnlyItsPayments_data() { addEngineRows(); }
    void aPeriodTakesOnlyItsPayments()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        for (const char *id : {"o-1", "o-2", "o-3", "o-4"})
            s.paid(id, 10000, QStringLiteral("pi_") + id);
        f.clock.set(kT0 + 5 * kDay);
        s.paid("o-5", 10000, "pi_o-5");
        QList<SettlementLine> lines;
        for (const char *id : {"o-1", "o-2", "o-3", "o-4"})
            lines << line(QStringLiteral("pi_") + id, 10000, 320, kT0 + kDay);
        lines << line("pi_o-5", 10000, 320, kT0 + 6 * kDay);
        s.importStatement(lines, "two-weeks.csv");
        f.clock.set(kT0 + 8 * kDay);

        ReconcileOptions day5;
        day5.fromMs = kT0 + 5 * kDay;
        day5.toMs = kT0 + 6 * kDay;
        const ReconcileReport one = s.reconcile({}, day5);
        QCOMPARE(one.payments, 1);
        QCOMPARE(one.markedSettled, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches m JOIN payments p ON p.id ="
                         " m.payment_id WHERE p.channel_txn_id = 'pi_o-5'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches"), 1);

        const ReconcileReport all = s.reconcile();
        QCOMPARE(all.payments, 5);
        QCOMPARE(all.markedSettled, 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_matches"), 5);
    }
};

QTEST_GUILESS_MAIN(TstReconcile)
#include "tst_reconcile.moc"
