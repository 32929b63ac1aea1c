// The reconciliation desk and the order page on the discrepancies of migration 0012, on
// SQLite, PostgreSQL and MariaDB: a chargeback, a settlement adjustment and a settlement after
// a write-off age from their line's settled_at (the money movement), not from the run that
// found them, in the row, the age filter and the order; and an expected amount is shown in
// COALESCE(expected_currency, currency), the currency reconciliation recorded it in, never the
// payment's taken for it.

#include "desk/reconciliationdesk.h"
#include "investigation/orderpicturequery.h"
#include "reconcilescenario.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

// A discrepancy row as a run writes it.
bool insertDiscrepancy(EngineFixture &f, const QString &key, const QString &kind,
                       const QVariant &lineId, qint64 expected, qint64 actual,
                       const QString &currency, const QVariant &expectedCurrency)
{
    auto r = Sql::exec(
        f.orders->db(),
        QStringLiteral("INSERT INTO discrepancies (discrepancy_key, kind, channel,"
                       " channel_txn_id, order_id, settlement_line_id,"
                       " expected_minor, actual_minor, currency, expected_currency,"
                       " status, detail, first_run_id, last_run_id, opened_at)"
                       " VALUES (?, ?, 'stripe', 'pi_cb', 'o-cb', ?, ?, ?, ?, ?,"
                       " 'open', 'written by the test', 1, 1, ?)"),
        {key, kind, lineId, expected, actual, currency, expectedCurrency, f.clock.nowMs()});
    if (!r)
        qWarning("%s", qPrintable(r.error().message));
    return r.ok();
}

DiscrepancyRow rowOfKind(const ReconciliationDesk &desk, const QString &kind)
{
    DiscrepancyFilter filter;
    filter.kind = kind;
    const auto rows = desk.discrepancies(filter, kFinance);
    if (!rows || rows->size() != 1) {
        qWarning("%s: %lld rows", qPrintable(kind), rows ? qint64(rows->size()) : -1LL);
        return {};
    }
    return rows->first();
}

} // namespace

class TstReconcileDeskKinds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void newKindsAgeFromTheirLine_data() { addEngineRows(); }
    void newKindsAgeFromTheirLine()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-cb", 10000, "pi_cb"); // captured at kT0
        storeLines(f,
                   {lineOf("pi_cb", SettlementKind::Charge, 10000, 0, kT0 + kDay),
                    lineOf("pi_cb", SettlementKind::Chargeback, -10000, 0, kT0 + 20 * kDay),
                    lineOf("pi_cb", SettlementKind::Adjustment, 500, 0, kT0 + 25 * kDay, "EUR")},
                   "disputes.csv");
        f.clock.set(kT0 + 30 * kDay);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value(DiscrepancyKind::Chargeback), 1);
        QCOMPARE(r.counts.value(DiscrepancyKind::SettlementAdjustment), 1);
        // A settlement after a write-off as a run records it: the line that settled the money.
        const qint64 charge = f.count("SELECT id FROM settlement_lines WHERE kind = 'charge'");
        QVERIFY(insertDiscrepancy(f, "settled_after_write_off:not_settled:stripe:pi_cb",
                                  DiscrepancyKind::SettledAfterWriteOff, charge, 0, 10000,
                                  QStringLiteral("USD"), QStringLiteral("USD")));

        const ReconciliationDesk desk(*f.orders, f.clock);
        const DiscrepancyRow chargeback = rowOfKind(desk, DiscrepancyKind::Chargeback);
        const DiscrepancyRow adjustment = rowOfKind(desk, DiscrepancyKind::SettlementAdjustment);
        const DiscrepancyRow after = rowOfKind(desk, DiscrepancyKind::SettledAfterWriteOff);
        QCOMPARE(chargeback.agedFromMs, kT0 + 20 * kDay);
        QCOMPARE(chargeback.ageMs, 10 * kDay);
        QCOMPARE(adjustment.agedFromMs, kT0 + 25 * kDay);
        QCOMPARE(after.agedFromMs, kT0 + kDay);
        QCOMPARE(after.ageMs, 29 * kDay);

        // The age filter and the order use the same moment: oldest money first, and at least
        // a week old leaves the adjustment (5 days) out.
        DiscrepancyFilter all;
        QStringList order;
        const auto allRows = desk.discrepancies(all, kFinance);
        QVERIFY(allRows.ok());
        for (const DiscrepancyRow &d : *allRows)
            order << d.kind;
        QCOMPARE(order,
                 QStringList({"settled_after_write_off", "chargeback", "settlement_adjustment"}));
        DiscrepancyFilter week;
        week.minAgeMs = 7 * kDay;
        QStringList old;
        const auto weekRows = desk.discrepancies(week, kFinance);
        QVERIFY(weekRows.ok());
        for (const DiscrepancyRow &d : *weekRows)
            old << d.kind;
        QCOMPARE(old, QStringList({"settled_after_write_off", "chargeback"}));
    }

    void expectedAmountsInTheirOwnCurrency_data() { addEngineRows(); }
    void expectedAmountsInTheirOwnCurrency()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-cb", 10000, "pi_cb"); // a USD payment
        // A currency mismatch: expected in the order's currency as recorded (JPY here), settled
        // in EUR; and a row with no expected_currency, whose expected amount is in its own.
        QVERIFY(insertDiscrepancy(f, "currency_mismatch:stripe:pi_cb", "currency_mismatch",
                                  QVariant(), 10000, 9300, QStringLiteral("EUR"),
                                  QStringLiteral("JPY")));
        f.clock.advance(1000);
        QVERIFY(insertDiscrepancy(f, "duplicate_settlement:stripe:pi_cb:9", "duplicate_settlement",
                                  QVariant(), 0, 9300, QStringLiteral("EUR"), QVariant()));

        const ReconciliationDesk desk(*f.orders, f.clock);
        const DiscrepancyRow mismatch = rowOfKind(desk, QStringLiteral("currency_mismatch"));
        QCOMPARE(mismatch.payment.currency, QStringLiteral("USD"));
        QCOMPARE(mismatch.currency, QStringLiteral("EUR"));
        QCOMPARE(mismatch.expectedCurrency(), QStringLiteral("JPY"));
        QCOMPARE(mismatch.differenceMinor(), std::optional<qint64>());
        const DiscrepancyRow duplicate = rowOfKind(desk, QStringLiteral("duplicate_settlement"));
        QCOMPARE(duplicate.expectedCurrency(), QStringLiteral("EUR"));
        QCOMPARE(duplicate.differenceMinor(), std::optional<qint64>(9300));

        const auto picture = OrderPictureQuery(*f.orders).load("o-cb", kFinance);
        QVERIFY(picture.ok());
        QCOMPARE(picture->discrepancies.size(), 2);
        QCOMPARE(picture->discrepancies.at(0).kind, QStringLiteral("currency_mismatch"));
        QCOMPARE(picture->discrepancies.at(0).currency, QStringLiteral("EUR"));
        QCOMPARE(picture->discrepancies.at(0).expectedCurrency, QStringLiteral("JPY"));
        QCOMPARE(picture->discrepancies.at(1).expectedCurrency, QStringLiteral("EUR"));
        for (const TimelineEntry &e : picture->timeline)
            if (e.toState == u"currency_mismatch")
                QCOMPARE(e.expectedCurrency, QStringLiteral("JPY"));
    }
};

QTEST_GUILESS_MAIN(TstReconcileDeskKinds)
#include "tst_reconcile_desk_kinds.moc"
