// A refund the channel has not reported is not a payment the channel has not settled, on
// SQLite, PostgreSQL and MariaDB: its own kind (refund_not_settled) in the run's report, the
// desk's list, kind filter and counts, the order page's exceptions and the fix offered; a
// later statement resolves either; rows recorded before the kind existed move to it
// (migration 0009). And a refund owed on a capture of the period is an exception when that
// capture settles after the period's end, as a payment's settlement is looked for then too.

#include "db/migrator.h"
#include "desk/reconciliationdesk.h"
#include "fixes/fixlabels.h"
#include "fixes/fixrules.h"
#include "fixes/fixtargets.h"
#include "investigation/orderpicturequery.h"
#include "oldschema.h"
#include "reconcilescenario.h"
#include "reconciliation/reconciliationreport.h"
#include "settlement/formats/statementformat.h"

#include <QFile>
#include <QJsonArray>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

QString kindOfTxn(const EngineFixture &f, const QString &txn)
{
    auto k = Sql::scalar(f.orders->db(),
                         QStringLiteral("SELECT kind FROM discrepancies WHERE channel_txn_id = ?"),
                         {txn});
    return k ? k->toString() : QStringLiteral("(error)");
}

} // namespace

class TstReconcileRefundKinds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refundNotReportedIsToldFromPaymentNotSettled_data() { addEngineRows(); }
    void refundNotReportedIsToldFromPaymentNotSettled()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("c-missing", 10000, "pi_c-missing"); // captured; the channel settles nothing
        s.paid("r-missing", 12000, "pi_r-missing"); // settled, refunded; no refund line
        f.clock.set(kT0 + kDay);
        s.refunded("r-missing", 12000, "pi_r-missing");
        s.importStatement({line("pi_r-missing", 12000, 378, kT0 + kDay)}, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);

        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("not_settled"), 1);
        QCOMPARE(r.counts.value("refund_not_settled"), 1);
        QCOMPARE(r.findings.size(), 2);
        QCOMPARE(kindOfTxn(f, "pi_c-missing"), QStringLiteral("not_settled"));
        QCOMPARE(kindOfTxn(f, "pi_r-missing"), QStringLiteral("refund_not_settled"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key ="
                         " 'refund_not_settled:stripe:pi_r-missing:refund' AND expected_minor ="
                         " -12000 AND order_id = 'r-missing' AND status = 'open'"),
                 1);

        // The CLI's report names each by its own kind.
        const QString text = ReconciliationReportFormat::text(r, 50);
        QVERIFY2(text.contains("refund_not_settled stripe pi_r-missing"), qPrintable(text));
        QVERIFY2(text.contains(" not_settled stripe pi_c-missing"), qPrintable(text));
        QVERIFY2(!text.contains(" not_settled stripe pi_r-missing"), qPrintable(text));
        QStringList jsonKinds;
        for (const QJsonValue &v : ReconciliationReportFormat::json(r).value("findings").toArray())
            jsonKinds << v.toObject().value("kind").toString();
        jsonKinds.sort();
        QCOMPARE(jsonKinds, QStringList({"not_settled", "refund_not_settled"}));

        // The desk: its kind filter, its counts, and the refund's side of the pair.
        const ReconciliationDesk desk(*f.orders, f.clock);
        auto byKind = [&](const QString &kind) {
            DiscrepancyFilter filter;
            filter.kind = kind;
            filter.statuses = {QStringLiteral("open")};
            QStringList txns;
            const auto rows = desk.discrepancies(filter, kFinance);
            for (const DiscrepancyRow &d : rows.value())
                txns << d.channelTxnId;
            return txns;
        };
        QCOMPARE(byKind("not_settled"), QStringList{"pi_c-missing"});
        QCOMPARE(byKind("refund_not_settled"), QStringList{"pi_r-missing"});
        const auto summary = desk.summary(kFinance);
        QVERIFY(summary.ok());
        QCOMPARE(summary->openByKind.value("not_settled"), 1);
        QCOMPARE(summary->openByKind.value("refund_not_settled"), 1);
        DiscrepancyFilter refundOnly;
        refundOnly.kind = DiscrepancyKind::RefundNotSettled;
        const DiscrepancyRow refund = desk.discrepancies(refundOnly, kFinance)->value(0);
        QCOMPARE(refund.payment.refundedAt, kT0 + kDay);
        QCOMPARE(refund.agedFromMs, kT0 + kDay); // from the refund, not the capture
        QCOMPARE(refund.detail, QStringLiteral("refunded 2026-01-02 00:00 UTC, no refund line"));

        // Every kind the desk's filter offers has words of its own, the two apart.
        QVERIFY(DiscrepancyKind::all().contains(DiscrepancyKind::RefundNotSettled));
        QStringList labels;
        for (const QString &k : DiscrepancyKind::all()) {
            QVERIFY2(Labels::discrepancyKind(k) != k, qPrintable(k));
            QVERIFY2(!labels.contains(Labels::discrepancyKind(k)), qPrintable(k));
            labels << Labels::discrepancyKind(k);
        }

        // The order page's exceptions.
        const auto picture = OrderPictureQuery(*f.orders).load("r-missing", kFinance);
        QVERIFY(picture.ok());
        QCOMPARE(picture->discrepancies.size(), 1);
        QCOMPARE(picture->discrepancies.first().kind, QStringLiteral("refund_not_settled"));

        // The fixes offered: a write-off of the refund's amount, never a fee adjustment.
        const FixTargetState target{.targetKind = QStringLiteral("discrepancy"),
                                    .targetId = QString::number(refund.id),
                                    .status = refund.status,
                                    .discrepancyKind = refund.kind};
        QVERIFY(fixFits(FixKind::WriteOff, target, {.nowMs = f.clock.nowMs()}).ok());
        QVERIFY(!fixFits(FixKind::AdjustFee, target, {.nowMs = f.clock.nowMs()}).ok());
        FixProposal writeOff;
        writeOff.kind = FixKind::WriteOff;
        writeOff.targetId = QString::number(refund.id);
        writeOff.reasonCode = QStringLiteral("settlement_correction");
        writeOff.comment = QStringLiteral("the channel will not report it");
        const auto planned = FixTargets(*f.orders, f.clock).plan(writeOff);
        QVERIFY2(planned.ok(), planned.ok() ? "" : qPrintable(planned.error().message));
        QCOMPARE(planned->amountMinor, std::optional<qint64>(-12000));
        QCOMPARE(planned->currency, QStringLiteral("USD"));

        // A later statement brings both lines: each resolves, nothing new opens.
        s.importStatement({line("pi_c-missing", 10000, 320, kT0 + 6 * kDay),
                           refundLine("pi_r-missing", 12000, kT0 + 6 * kDay)},
                          "late.csv");
        f.clock.set(kT0 + 7 * kDay);
        const ReconcileReport late = s.reconcile();
        QCOMPARE(late.resolved, 2);
        QCOMPARE(late.opened, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'resolved'"), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 2);
    }

    // A database whose runs recorded a refund not reported as not_settled (key ending in
    // ":refund"): migration 0009 moves those rows, open or not, to refund_not_settled under
    // the key a run now makes, and leaves every other row, its id and its status as they were.
    void rowsRecordedBeforeTheKindMoveToIt_data() { addEngineRows(); }
    void rowsRecordedBeforeTheKindMoveToIt()
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
        QCOMPARE(migrateThrough(*c, 8), 8);
        const QList<std::pair<QString, QString>> before{
            {"not_settled:stripe:pi_a", "open"},
            {"not_settled:stripe:pi_b:refund", "open"},
            {"not_settled:stripe:pi_c:refund", "resolved"},
            {"amount_mismatch:stripe:pi_d:refund", "open"},
            {"refund_due:stripe:pi_e", "written_off"}};
        for (const auto &[key, status] : before)
            QVERIFY(run(QStringLiteral("INSERT INTO discrepancies (discrepancy_key, kind, channel,"
                                       " channel_txn_id, status, first_run_id, last_run_id,"
                                       " opened_at) VALUES ('%1', '%2', 'stripe', '%3', '%4',"
                                       " 1, 1, 0)")
                            .arg(key, key.section(u':', 0, 0), key.section(u':', 2, 2), status)));
        auto rows = [&] {
            QStringList out;
            auto q = Sql::exec(c->db(), QStringLiteral("SELECT id, discrepancy_key, kind, status"
                                                       " FROM discrepancies ORDER BY id"));
            while (q && q->next())
                out << QStringLiteral("%1 %2 %3 %4")
                           .arg(q->value(0).toString(), q->value(1).toString(),
                                q->value(2).toString(), q->value(3).toString());
            return out;
        };
        const QStringList old = rows();
        QCOMPARE(old.size(), 5);
        // The highest id deleted before migrating: only the AUTOINCREMENT counter (SQLite's
        // sqlite_sequence, which the rebuilt table must carry over) still remembers it.
        const qint64 highest = old.last().section(u' ', 0, 0).toLongLong();
        QVERIFY(run(QStringLiteral("DELETE FROM discrepancies WHERE id = %1").arg(highest)));

        auto migrated = Migrator::migrate(*c);
        QVERIFY2(migrated.ok(), migrated.ok() ? "" : qPrintable(migrated.error().message));
        QCOMPARE(migrated->before, 8);
        QVERIFY(migrated->applied.contains(QStringLiteral("0009_refund_not_settled")));
        const QString id = old.first().section(u' ', 0, 0);
        const qint64 first = id.toLongLong();
        QCOMPARE(rows(),
                 QStringList({
                     QStringLiteral("%1 not_settled:stripe:pi_a not_settled open").arg(first),
                     QStringLiteral("%1 refund_not_settled:stripe:pi_b:refund"
                                    " refund_not_settled open")
                         .arg(first + 1),
                     QStringLiteral("%1 refund_not_settled:stripe:pi_c:refund"
                                    " refund_not_settled resolved")
                         .arg(first + 2),
                     QStringLiteral("%1 amount_mismatch:stripe:pi_d:refund"
                                    " amount_mismatch open")
                         .arg(first + 3),
                 }));
        QCOMPARE(highest, first + 4);
        // The kind's CHECK still refuses what is no kind; a new row numbers on after the old.
        QVERIFY(!Sql::exec(c->db(), QStringLiteral("INSERT INTO discrepancies (discrepancy_key,"
                                                   " kind, channel, status, first_run_id,"
                                                   " last_run_id, opened_at) VALUES ('x', 'bogus',"
                                                   " 'stripe', 'open', 1, 1, 0)"))
                     .ok());
        QVERIFY(run(QStringLiteral("INSERT INTO discrepancies (discrepancy_key, kind, channel,"
                                   " status, first_run_id, last_run_id, opened_at) VALUES"
                                   " ('refund_not_settled:stripe:pi_f:refund',"
                                   " 'refund_not_settled', 'stripe', 'open', 1, 1, 0)")));
        // Its id is above every id ever given, the deleted one's too: an id is never reused
        // (fix requests and audit rows name discrepancies by id). (PostgreSQL's sequence spent
        // a number on the refused row.)
        auto next =
            Sql::scalar(c->db(), QStringLiteral("SELECT id FROM discrepancies WHERE"
                                                " discrepancy_key ="
                                                " 'refund_not_settled:stripe:pi_f:refund'"));
        QVERIFY(next.ok());
        QVERIFY2(
            next->toLongLong() > highest,
            qPrintable(
                QStringLiteral("next id %1, deleted %2").arg(next->toLongLong()).arg(highest)));
        if (c->dialect() == Dialect::Sqlite) { // the table was built again: its indexes too
            auto n = Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM sqlite_master"
                                                         " WHERE type = 'index' AND name IN"
                                                         " ('discrepancies_status',"
                                                         " 'discrepancies_order',"
                                                         " 'discrepancies_txn')"));
            QCOMPARE(n->toInt(), 3);
        }
    }

    // The seeds' stale capture, made on the period's first day and settled (Stripe, T+2)
    // after the one-day period: the refund owed on it is an exception of that period's run,
    // as a payment of the period is matched to a line settled after it. The next period's run
    // finds the same exception, not a second one.
    void refundOwedShowsWhenItsCaptureSettlesAfterThePeriod_data() { addEngineRows(); }
    void refundOwedShowsWhenItsCaptureSettlesAfterThePeriod()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.staleThenPaid("o-stale", 7000, "pi_stale", "pi_paid");
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL"), 1);
        s.importStatement({line("pi_paid", 7000, 233, kT0 + 2 * kDay),
                           line("pi_stale", 7000, 233, kT0 + 2 * kDay)},
                          "week1.csv");
        f.clock.set(kT0 + 3 * kDay);

        ReconcileOptions day1;
        day1.fromMs = kT0;
        day1.toMs = kT0 + kDay;
        const ReconcileReport first = s.reconcile({}, day1);
        QCOMPARE(first.counts.value("refund_due"), 1);
        QCOMPARE(first.counts.value("unknown_settlement"), 0);
        QCOMPARE(first.matched, 1); // pi_paid, settled after the period too
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE kind = 'refund_due' AND"
                         " channel_txn_id = 'pi_stale' AND status = 'open' AND order_id ="
                         " 'o-stale' AND actual_minor = 7000"),
                 1);
        // The line's date is named as Stripe means it: available in the balance, T+2.
        DiscrepancyFilter due;
        due.kind = DiscrepancyKind::RefundDue;
        const DiscrepancyRow owed =
            ReconciliationDesk(*f.orders, f.clock).discrepancies(due, kFinance)->value(0);
        QCOMPARE(owed.line.settledAt, kT0 + 2 * kDay);
        QCOMPARE(owed.line.settledAtMeaning, SettledAt::FundsAvailable);
        // What finance compares: the desk's open refund_due with the refunds owed.
        const auto summary = ReconciliationDesk(*f.orders, f.clock).summary(kFinance);
        QCOMPARE(summary->refundsOwed, 1);
        QCOMPARE(summary->openByKind.value("refund_due"),
                 f.count("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL"));

        // A day before the capture owns no part of it.
        ReconcileOptions before;
        before.fromMs = kT0 - kDay;
        before.toMs = kT0;
        QCOMPARE(s.reconcile({}, before).findings.size(), 0);

        ReconcileOptions next;
        next.fromMs = kT0 + kDay;
        next.toMs = kT0 + 3 * kDay;
        const ReconcileReport again = s.reconcile({}, next);
        QCOMPARE(again.counts.value("refund_due"), 1);
        QCOMPARE(again.opened, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 1);
    }

    // What each channel's settled date is, as the desk names it: the channels' statements do
    // not date a line by the same moment (settlementline.h, SettledAt).
    void eachChannelNamesItsSettledDate()
    {
        auto meaning = [](const char *channel, const QString &kind) {
            const StatementFormat *format = StatementFormat::forChannel(channel);
            return format ? format->settledAtMeaning(kind) : QStringLiteral("(no format)");
        };
        QCOMPARE(meaning("stripe", SettlementKind::Charge), SettledAt::FundsAvailable);
        QCOMPARE(meaning("paypal", SettlementKind::Charge), SettledAt::Completed);
        QCOMPARE(meaning("kakaopay", SettlementKind::Charge), SettledAt::PayoutDate);
        QCOMPARE(meaning("fedapay", SettlementKind::Charge), SettledAt::Approved);
        QCOMPARE(meaning("fedapay", SettlementKind::Refund), SettledAt::Refunded);
    }
};

QTEST_GUILESS_MAIN(TstReconcileRefundKinds)
#include "tst_reconcile_refund_kinds.moc"
