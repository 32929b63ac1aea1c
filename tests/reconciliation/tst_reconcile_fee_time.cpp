// The fee rule judges a fee at the channel's transaction time (fee.schedule_change v2), on
// SQLite, PostgreSQL and MariaDB: a channel fixes its fee when it makes the charge (Stripe's
// balance transaction created), not when the money settles (available_on, two days later). A
// fee-schedule change between a charge and its settlement: the old-rate fee is accepted, a
// new-rate fee on the old charge is an exception. Rule v1 explained the new rate by the
// settlement date's schedule and corrected it automatically, and let the capture skew accept an
// old-rate fee on a charge made after the change.

#include "desk/reconciliationdesk.h"
#include "reconcilescenario.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

constexpr qint64 kHour = 3600000;
constexpr qint64 kChange = kT0 + kDay; // 2026-01-02, from 2.9 % + 0.30 to 2.95 % + 0.30

SettlementLine charged(const QString &pi, qint64 fee, qint64 transactedAt)
{
    SettlementLine l = line(pi, 20000, fee, transactedAt + 2 * kDay); // available_on: T+2
    l.transactedAtMs = transactedAt;
    return l;
}

} // namespace

class TstReconcileFeeTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void feeIsJudgedWhenTheChannelMadeTheCharge_data() { addEngineRows(); }
    void feeIsJudgedWhenTheChannelMadeTheCharge()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        // Charged and booked on 2026-01-01, settled on 2026-01-03, after the change.
        f.clock.set(kT0 + 12 * kHour);
        s.paid("o-old-rate", 20000, "pi_old_rate");
        s.paid("o-new-rate", 20000, "pi_new_rate");
        // Charged an hour after the change, booked a minute later: within the capture skew.
        f.clock.set(kChange + kHour + 60000);
        s.paid("o-after", 20000, "pi_after");
        // Charged four hours before the change; the callback reached OncePay 12 hours later.
        f.clock.set(kChange + 8 * kHour);
        s.paid("o-late", 20000, "pi_late");
        s.importFees();
        s.importStatement({charged("pi_old_rate", 610, kT0 + 12 * kHour - 120000),
                           charged("pi_new_rate", 620, kT0 + 12 * kHour - 60000),
                           charged("pi_after", 610, kChange + kHour),
                           charged("pi_late", 610, kChange - 4 * kHour)},
                          "feetime.csv");
        // What each line keeps beside its settlement date: Stripe's created_utc.
        QCOMPARE(f.count("SELECT transacted_at FROM settlement_lines WHERE channel_txn_id ="
                         " 'pi_late'"),
                 kChange - 4 * kHour);
        QCOMPARE(f.count("SELECT settled_at FROM settlement_lines WHERE channel_txn_id ="
                         " 'pi_late'"),
                 kChange - 4 * kHour + 2 * kDay);

        f.clock.set(kT0 + 6 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("fee_mismatch"), 3);
        QCOMPARE(r.autoFixed, 1);
        QCOMPARE(r.opened, 2);
        QCOMPARE(r.matched, 2); // old rate, and the late booking (corrected)

        auto one = [&](const char *sql) { return f.count(QString::fromLatin1(sql)); };
        // The old-rate fee of a charge made before the change: right, nothing to say.
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_old_rate'"), 0);
        // The new rate on that charge: the channel took 0.10 too much; no correction.
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_new_rate'"
                     " AND kind = 'fee_mismatch' AND status = 'open' AND expected_minor = 610"
                     " AND actual_minor = 620 AND rule_id IS NULL"),
                 1);
        // The old rate on a charge made after the change is no booking lag to forgive.
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_after'"
                     " AND kind = 'fee_mismatch' AND status = 'open' AND expected_minor = 620"
                     " AND actual_minor = 610"),
                 1);
        // OncePay booked it after the change (expecting 6.20); Stripe charged it before, at
        // 6.10: the known change explains it, corrected by rule v2 with the schedule at the
        // charge (2.9 %).
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_late' AND"
                     " status = 'auto_fixed' AND rule_id = 'fee.schedule_change' AND"
                     " rule_version = 2 AND expected_minor = 620 AND actual_minor = 610 AND"
                     " fee_schedule_id = (SELECT id FROM fee_schedules WHERE rate_ppm = 29000)"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 1);
        QCOMPARE(one("SELECT amount_minor FROM ledger_entries WHERE kind = 'fee_adjustment' AND"
                     " channel_txn_id = 'pi_late'"),
                 10);
        auto after =
            Sql::scalar(f.orders->db(), "SELECT after_json FROM audit_outbox WHERE action ="
                                        " 'reconciliation.fee_auto_fixed'");
        QVERIFY(after.ok());
        const QJsonObject audited = QJsonDocument::fromJson(after->toString().toUtf8()).object();
        QCOMPARE(audited.value("rule_version").toInt(), 2);
        const QJsonObject evidence =
            QJsonDocument::fromJson(audited.value("evidence").toString().toUtf8()).object();
        const QJsonObject basis = evidence.value("fee_basis").toObject();
        QCOMPARE(basis.value("source").toString(), QStringLiteral("transaction_time"));
        QCOMPARE(basis.value("column").toString(), QStringLiteral("created_utc"));
        QCOMPARE(basis.value("at").toString(), QString::number(kChange - 4 * kHour));
        QCOMPARE(evidence.value("schedule_at_transaction").toObject().value("rate_ppm").toString(),
                 QStringLiteral("29000"));
        QCOMPARE(evidence.value("schedule_at_capture").toObject().value("rate_ppm").toString(),
                 QStringLiteral("29500"));

        // The desk shows each line's transaction time beside its settlement date.
        auto shown = ReconciliationDesk(*f.orders, f.clock).discrepancies({}, kFinance);
        QVERIFY2(shown.ok(), shown.ok() ? "" : qPrintable(shown.error().message));
        QCOMPARE(shown->size(), 3);
        for (const DiscrepancyRow &d : *shown) {
            QVERIFY(d.line.present);
            QCOMPARE(d.line.settledAt, d.line.transactedAt + 2 * kDay);
        }
        QVERIFY(std::any_of(shown->begin(), shown->end(), [](const DiscrepancyRow &d) {
            return d.channelTxnId == u"pi_late" && d.line.transactedAt == kChange - 4 * kHour;
        }));

        // Again: nothing new, the correction stays as it was.
        const ReconcileReport again = s.reconcile();
        QCOMPARE(again.opened, 0);
        QCOMPARE(again.autoFixed, 0);
        QCOMPARE(one("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 1);
    }

    // Within the capture skew a new-rate fee on a charge the channel made a minute after the
    // change, booked by OncePay a minute before it, is right: no finding, no correction.
    // A transaction time before every fee schedule does not silence the check: the line is
    // judged at captured_at and a wrong fee is an exception. A transaction time after OncePay
    // booked the capture (beyond the skew) explains nothing: an exception, never a correction.
    void transactionTimesThatExplainNothing_data() { addEngineRows(); }
    void transactionTimesThatExplainNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.clock.set(kT0 + 12 * kHour);
        s.paid("o-prehistory", 20000, "pi_prehistory"); // booked at the old rate (6.10)
        s.paid("o-future", 20000, "pi_future");         // booked at the old rate (6.10)
        f.clock.set(kChange - 60000);
        s.paid("o-skew", 20000, "pi_skew"); // booked a minute before the change
        s.importFees();
        auto made = [](const QString &pi, qint64 fee, qint64 transactedAt, qint64 settledAt) {
            SettlementLine l = line(pi, 20000, fee, settledAt);
            l.transactedAtMs = transactedAt;
            return l;
        };
        s.importStatement(
            {// 9.99 where 6.10 is due; created_utc two months before the first schedule
             made("pi_prehistory", 999, kT0 - 60 * kDay, kT0 + 2 * kDay),
             // the new rate; the channel says it charged three days after OncePay booked it
             made("pi_future", 620, kChange + 2 * kDay, kChange + 4 * kDay),
             // the new rate, charged a minute after the change: within the skew
             made("pi_skew", 620, kChange + 60000, kChange + 2 * kDay)},
            "explain-nothing.csv");
        f.clock.set(kT0 + 8 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("fee_mismatch"), 2);
        QCOMPARE(r.autoFixed, 0);
        QCOMPARE(r.opened, 2);
        QCOMPARE(r.matched, 1); // pi_skew only

        auto one = [&](const char *sql) { return f.count(QString::fromLatin1(sql)); };
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_skew'"), 0);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_prehistory'"
                     " AND kind = 'fee_mismatch' AND status = 'open' AND expected_minor = 610"
                     " AND actual_minor = 999 AND rule_id IS NULL"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_future'"
                     " AND kind = 'fee_mismatch' AND status = 'open' AND expected_minor = 610"
                     " AND actual_minor = 620 AND rule_id IS NULL"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 0);
        auto detail = [&](const char *pi) {
            for (const Finding &x : r.findings)
                if (x.key.contains(QLatin1String(pi)))
                    return x.detail;
            return QString();
        };
        QCOMPARE(
            detail("pi_prehistory"),
            QStringLiteral("fee 9.99 USD instead of 6.10 USD (the settlement line's transaction"
                           " time precedes every fee schedule: judged at captured_at)"));
        QCOMPARE(
            detail("pi_future"),
            QStringLiteral("fee 6.20 USD instead of 6.10 USD (the channel's transaction time is"
                           " after OncePay booked the capture: judged at captured_at)"));
    }

    // A charge 82 h before its booking at the old rate, booked after the change: a lag beyond
    // the channels' three days of webhook retries is no late callback (an authorisation
    // captured later, where the channel takes its fee at the capture, or a wrong time), so the
    // change does not explain it: an exception, no correction. Within 72 h (pi_day, 60 h) it
    // still does.
    void aLagOfDaysExplainsNothing_data() { addEngineRows(); }
    void aLagOfDaysExplainsNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.clock.set(kChange + 12 * kHour);
        s.paid("o-days", 20000, "pi_days");
        s.paid("o-day", 20000, "pi_day");
        s.importFees();
        s.importStatement({charged("pi_days", 610, kChange - 70 * kHour),
                           charged("pi_day", 610, kChange - 48 * kHour)},
                          "lag.csv");
        f.clock.set(kT0 + 8 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.autoFixed, 1);
        QCOMPARE(r.opened, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_days'"
                         " AND kind = 'fee_mismatch' AND status = 'open' AND expected_minor = 620"
                         " AND actual_minor = 610 AND rule_id IS NULL"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_day'"
                         " AND status = 'auto_fixed' AND rule_version = 2"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment' AND"
                         " channel_txn_id = 'pi_days'"),
                 0);
        for (const Finding &x : r.findings)
            if (x.key.contains(QLatin1String("pi_days")))
                QCOMPARE(x.detail, QStringLiteral("fee 6.10 USD instead of 6.20 USD (the channel's"
                                                  " transaction time is more than 72 h before"
                                                  " OncePay booked the capture: not explained by a"
                                                  " fee change)"));
    }

    // A channel and currency with fee schedules, none of them in force when OncePay booked
    // the capture: the fee cannot be judged, and that is an exception, not a match.
    void noScheduleAtCaptureIsAnException_data() { addEngineRows(); }
    void noScheduleAtCaptureIsAnException()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.clock.set(kT0 - 45 * kDay); // 2025-11-17, before the first schedule (2025-12-01)
        s.paid("o-early", 20000, "pi_early");
        s.importFees();
        s.importStatement({charged("pi_early", 999, kT0 - 45 * kDay - 60000)}, "early.csv");
        f.clock.set(kT0 + 8 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("fee_mismatch"), 1);
        QCOMPARE(r.matched, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE channel_txn_id = 'pi_early'"
                         " AND kind = 'fee_mismatch' AND status = 'open' AND rule_id IS NULL"),
                 1);
        QCOMPARE(r.findings.value(0).detail,
                 QStringLiteral("fee 9.99 USD: no fee schedule was in force at captured_at"));
    }

    // A correction rule v1 made stays v1: a later run neither rewrites nor repeats it.
    void correctionsOfRuleOneKeepTheirVersion_data() { addEngineRows(); }
    void correctionsOfRuleOneKeepTheirVersion()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        f.clock.set(kChange + 8 * kHour);
        s.paid("o-late", 20000, "pi_late");
        s.importFees();
        s.importStatement({charged("pi_late", 610, kChange - 4 * kHour)}, "v1.csv");
        f.clock.set(kT0 + 6 * kDay);
        QCOMPARE(s.reconcile().autoFixed, 1);
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE discrepancies SET rule_version = 1").ok());
        const ReconcileReport again = s.reconcile();
        QCOMPARE(again.autoFixed, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'auto_fixed' AND"
                         " rule_version = 1"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'fee_adjustment'"), 1);
    }
};

QTEST_GUILESS_MAIN(TstReconcileFeeTime)
#include "tst_reconcile_fee_time.moc"
