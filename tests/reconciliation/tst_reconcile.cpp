// Reconciliation on SQLite, PostgreSQL and MariaDB: payments made through the real engine,
// a Stripe statement with one line per discrepancy kind, the minimal-intervention rule
// (explained fee change auto-fixed, unexplained ones not), idempotent re-runs, coverage,
// resolution of a late settlement, cancellation; every refusal to start a run audited, with
// nothing else written.

#include "auth/staffservice.h"
#include "desk/reconciliationdesk.h"
#include "enginefixture.h"
#include "investigation/orderpicturequery.h"

#include "reconciliation/reconciler.h"
#include "settlement/feeschedule.h"
#include "settlement/formats/statementformat.h"
#include "settlement/settlementimporter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kT0 = 1767225600000; // 2026-01-01T00:00:00Z, the fixture's clock
constexpr qint64 kDay = 86400000;
const Actor kFinance{QStringLiteral("fin-1"), QStringLiteral("finance")};

SettlementLine refundLine(const QString &pi, qint64 returned, qint64 settledAt)
{
    SettlementLine l;
    l.channelTxnId = pi;
    l.kind = SettlementKind::Refund;
    l.grossMinor = -returned;
    l.netMinor = -returned;
    l.currency = QStringLiteral("USD");
    l.settledAtMs = settledAt;
    l.initiatedAtMs = settledAt;
    l.reference = QStringLiteral("refund");
    return l;
}

SettlementLine line(const QString &pi, qint64 gross, qint64 fee, qint64 settledAt,
                    const QString &currency = QStringLiteral("USD"))
{
    SettlementLine l;
    l.channelTxnId = pi;
    l.kind = SettlementKind::Charge;
    l.grossMinor = gross;
    l.feeMinor = fee;
    l.netMinor = gross - fee;
    l.currency = currency;
    l.settledAtMs = settledAt;
    l.initiatedAtMs = kT0;
    l.reference = QStringLiteral("order, with comma");
    return l;
}

// What a run writes, and every audit row but a refusal's: a refusal must leave it as it was.
QList<qint64> footprint(const EngineFixture &f)
{
    QList<qint64> out;
    for (const char *sql :
         {"SELECT COUNT(*) FROM reconciliation_runs", "SELECT COUNT(*) FROM discrepancies",
          "SELECT COUNT(*) FROM settlement_matches", "SELECT COUNT(*) FROM ledger_entries",
          "SELECT COUNT(*) FROM audit_outbox WHERE action <> 'reconciliation.refused'"})
        out << f.count(QString::fromLatin1(sql));
    return out;
}

// The newest reconciliation.refused audit row: its actor, role, reason and after_json fields.
QJsonObject lastRefusal(const EngineFixture &f)
{
    auto q = Sql::exec(f.orders->db(),
                       QStringLiteral("SELECT actor, actor_role, entity_kind, reason, after_json"
                                      " FROM audit_outbox WHERE action = 'reconciliation.refused'"
                                      " ORDER BY id DESC"));
    if (!q || !q->next())
        return {};
    QJsonObject o = QJsonDocument::fromJson(q->value(4).toString().toUtf8()).object();
    o.insert(QStringLiteral("actor"), q->value(0).toString());
    o.insert(QStringLiteral("actor_role"), q->value(1).toString());
    o.insert(QStringLiteral("entity_kind"), q->value(2).toString());
    o.insert(QStringLiteral("message"), q->value(3).toString());
    return o;
}

class Scenario {
public:
    explicit Scenario(EngineFixture &f)
        : m_f(f)
    {}

    void paid(const QString &id, qint64 amount, const QString &pi)
    {
        m_f.createOrder(id, amount);
        m_f.pay(id, 1, "a-" + id);
        m_f.deliver(StripeEvents::paymentIntentSucceeded(
            m_f.params(id, "a-" + id, amount, "USD", "evt_" + id, pi)));
        m_f.drain();
    }

    // The channel's refund callback: OncePay books the refund (payments.status = refunded).
    void refunded(const QString &id, qint64 amount, const QString &pi)
    {
        m_f.deliver(StripeEvents::chargeRefunded(
            m_f.params(id, "a-" + id, amount, "USD", "evt_r" + id, pi)));
        m_f.drain();
    }

    // The seeds' incident: the old attempt's success arrives after a rollback.
    void staleThenPaid(const QString &id, qint64 amount, const QString &stalePi, const QString &pi)
    {
        m_f.createOrder(id, amount);
        m_f.pay(id, 1, "a1-" + id);
        m_f.deliver(StripeEvents::paymentIntentFailed(
            m_f.params(id, "a1-" + id, amount, "USD", "evt_f" + id, stalePi)));
        m_f.drain();
        QVERIFY(m_f.service->rollback(id, 3, CauseKind::Request, "rb", Actor::platform(), "retry")
                    .ok());
        m_f.deliver(StripeEvents::paymentIntentSucceeded(
            m_f.params(id, "a1-" + id, amount, "USD", "evt_l" + id, stalePi)));
        m_f.drain();
        m_f.pay(id, 4, "a2-" + id);
        m_f.deliver(StripeEvents::paymentIntentSucceeded(
            m_f.params(id, "a2-" + id, amount, "USD", "evt_s" + id, pi)));
        m_f.drain();
    }

    void importStatement(const QList<SettlementLine> &lines, const QString &name)
    {
        const StatementFormat *stripe = StatementFormat::forChannel("stripe");
        auto r =
            SettlementImporter(*m_f.orders, m_f.clock)
                .importData("stripe", name, stripe->write(lines, {kT0, kT0 + 14 * kDay}), kFinance);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
    }

    void importFees()
    {
        auto rules = Fees::parseCsv("channel,currency,effective_from,rate_percent,fixed\n"
                                    "stripe,USD,2025-12-01,2.9,0.30\n"
                                    "stripe,USD,2026-01-02,2.95,0.30\n");
        QVERIFY(rules.ok());
        QVERIFY(FeeScheduleStore(*m_f.orders, m_f.clock).import(*rules, kFinance).ok());
    }

    ReconcileReport reconcile(std::function<bool(qint64, qint64)> progress = {},
                              ReconcileOptions o = {})
    {
        o.progress = std::move(progress);
        auto r = Reconciler(*m_f.orders, m_f.clock, kFinance).run(o);
        if (!r)
            qFatal("reconcile: %s", qPrintable(r.error().message));
        return *r;
    }

private:
    EngineFixture &m_f;
};

} // namespace

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
        s.paid("o-explained", 20000, "pi_explained");
        s.paid("o-unexplained", 20000, "pi_unexplained");
        s.paid("o-beyond", 20000, "pi_beyond");
        s.paid("o-amount", 30000, "pi_amount");
        s.paid("o-currency", 10000, "pi_currency");
        s.paid("o-dup", 10000, "pi_dup");
        s.paid("o-missing", 10000, "pi_missing");
        s.staleThenPaid("o-stale", 7000, "pi_stale", "pi_paid");
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL"), 1);
        s.importFees();

        const qint64 settled = kT0 + 2 * kDay; // after the 2026-01-02 fee change
        s.importStatement(
            {line("pi_ok", 10000, 320, settled),
             line("pi_explained", 20000, 620, settled),   // new rate: 590 + 30
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
            {"pi_missing", kT0},   {"pi_amount", kT0},      {"pi_currency", kT0},
            {"pi_explained", kT0}, {"pi_unexplained", kT0}, {"pi_beyond", kT0},
            {"pi_stale", kT0},     {"pi_ghost", settled},   {"pi_dup", settled}};
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
        QCOMPARE(agedTxns, QStringList({"pi_amount", "pi_beyond", "pi_currency", "pi_explained",
                                        "pi_missing", "pi_stale", "pi_unexplained"}));
        old.minAgeMs = 11 * kDay;
        QCOMPARE(desk.discrepancies(old, reader)->size(), 0);
        old.minAgeMs = 9 * kDay;
        old.statuses = {QStringLiteral("open")};
        old.kind = QStringLiteral("not_settled");
        QCOMPARE(desk.discrepancies(old, reader)->size(), 1);

        // Minimal intervention: only the explained one is corrected, with its evidence.
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'auto_fixed'"), 1);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM discrepancies WHERE status = 'auto_fixed' AND "
                    "channel_txn_id ="
                    " 'pi_explained' AND rule_id = 'fee.schedule_change' AND rule_version = 1"
                    " AND fee_schedule_id = (SELECT id FROM fee_schedules WHERE rate_ppm = 29500)"),
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
                 -10);
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
        for (const char *id : {"r-ok", "r-split", "r-missing", "r-short", "r-unbooked", "r-recent"})
            lines << (QString(id) == u"r-recent" // captured after the change: new rate
                          ? line(QStringLiteral("pi_") + id, 10000, 325, kT0 + 5 * kDay)
                          : line(QStringLiteral("pi_") + id, 10000, 320, settled));
        lines << refundLine("pi_r-ok", 10000, settled + 3600000)
              << refundLine("pi_r-split", 4000, settled + 3600000)
              << refundLine("pi_r-split", 6000, settled + 7200000)
              << refundLine("pi_r-short", 9000, settled + 3600000)
              << refundLine("pi_r-unbooked", 10000, settled + 3600000);
        s.importStatement(lines, "refunds.csv");

        f.clock.set(kT0 + 5 * kDay + 3600000);
        const ReconcileReport r = s.reconcile();
        QCOMPARE(r.counts.value("not_settled"), 1);
        QCOMPARE(r.counts.value("amount_mismatch"), 1);
        QCOMPARE(r.counts.value("unknown_settlement"), 1);
        QCOMPARE(r.findings.size(), 3);
        QCOMPARE(r.eligible, 6);
        QCOMPARE(r.matched, 3); // r-ok, r-split, r-recent
        auto one = [&](const char *sql) { return f.count(QString::fromLatin1(sql)); };
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE discrepancy_key ="
                     " 'not_settled:stripe:pi_r-missing:refund' AND expected_minor = -10000"
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
        const DiscrepancyRow missing = byKind.value(QStringLiteral("not_settled"));
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
                     " 'not_settled:stripe:pi_r-missing:refund' AND status = 'resolved'"),
                 1);
        QCOMPARE(one("SELECT COUNT(*) FROM discrepancies WHERE status = 'open'"), 2);
    }

    // reconcile.capture_skew_minutes: a capture booked after a fee change at the old rate
    // is right when the channel may have captured it before the change, and an exception
    // when the setting says our captured_at is to be trusted.
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

    // Every refusal to start a run — a period that ends before it starts, an ops setting that
    // is no number, and from the console a person who may not start one (by role, with no
    // account, disabled) — answers with the error, writes one reconciliation.refused audit
    // row naming the step and the cause, and nothing else. A run that may start then does.
    void refusalsToStartAreAuditedAndChangeNothing_data() { addEngineRows(); }
    void refusalsToStartAreAuditedAndChangeNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-1", 10000, "pi_1");
        s.importStatement({line("pi_1", 10000, 320, kT0 + kDay)}, "refusals.csv");
        StaffService staff(*f.orders, f.clock);
        const Actor op = Actor::system(QStringLiteral("test"));
        for (const auto &[name, role] : QList<std::pair<QString, StaffRole>>{
                 {"amy", StaffRole::Agent}, {"fin", StaffRole::Finance}})
            QVERIFY(staff.add({name, name, role}, "correct horse battery", op).ok());
        f.clock.set(kT0 + 3 * kDay);
        QList<qint64> before = footprint(f);
        const qint64 runsBefore = before.first();
        qint64 refusals = 0;
        auto refused = [&](const Result<ReconcileReport> &r, ErrorCode code, const char *reason,
                           const char *step, const Actor &by) {
            QVERIFY(!r.ok());
            QCOMPARE(r.error().code, code);
            QCOMPARE(r.error().reason, QLatin1String(reason));
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE"
                             " action = 'reconciliation.refused'"),
                     ++refusals);
            const QJsonObject row = lastRefusal(f);
            QCOMPARE(row.value("step").toString(), QLatin1String(step));
            QCOMPARE(row.value("reason").toString(), QLatin1String(reason));
            QCOMPARE(row.value("code").toString(), errorCodeName(code));
            QCOMPARE(row.value("actor").toString(), by.id);
            QCOMPARE(row.value("actor_role").toString(), by.role);
            QCOMPARE(row.value("entity_kind").toString(), QStringLiteral("reconciliation_run"));
            QCOMPARE(row.value("message").toString(), r.error().message);
            QCOMPARE(footprint(f), before);
        };

        ReconcileOptions inverted;
        inverted.fromMs = kT0 + 2 * kDay;
        inverted.toMs = kT0 + kDay;
        refused(Reconciler(*f.orders, f.clock, kFinance).run(inverted), ErrorCode::Invalid,
                "bad_period", "period", kFinance);
        QCOMPARE(lastRefusal(f).value("period_from").toString(), QString::number(inverted.fromMs));
        QCOMPARE(lastRefusal(f).value("period_to").toString(), QString::number(inverted.toMs));

        const QString skew = QStringLiteral("reconcile.capture_skew_minutes");
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE ops_settings SET setting_value = 'soon' WHERE setting_key = ?",
                          {skew})
                    .ok());
        refused(Reconciler(*f.orders, f.clock, kFinance).run({}), ErrorCode::Invalid, "bad_setting",
                "settings", kFinance);
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE ops_settings SET setting_value = '360' WHERE setting_key = ?",
                          {skew})
                    .ok());

        const ReconciliationDesk desk(*f.orders, f.clock);
        const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        const Actor ghost{QStringLiteral("ghost"), QStringLiteral("finance")};
        refused(desk.reconcile({}, amy), ErrorCode::Forbidden, "forbidden", "rights", amy);
        refused(desk.reconcile({}, ghost), ErrorCode::Forbidden, "unknown_staff", "rights", ghost);
        refused(desk.reconcile(inverted, amy), ErrorCode::Forbidden, "forbidden", "rights", amy);
        QVERIFY(staff.disable("fin", op, "left").ok());
        before = footprint(f); // with the disable's own audit row
        refused(desk.reconcile({}, fin), ErrorCode::Forbidden, "staff_disabled", "rights", fin);
        refused(desk.reconcile(inverted, fin), ErrorCode::Forbidden, "staff_disabled", "rights",
                fin);
        QVERIFY(
            Sql::exec(f.orders->db(), "UPDATE staff SET disabled = 0 WHERE username = 'fin'").ok());
        refused(desk.reconcile(inverted, fin), ErrorCode::Invalid, "bad_period", "period", fin);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs"), runsBefore);

        // Allowed, and a good period: the run starts, runs and is recorded as usual.
        auto ran = desk.reconcile({}, fin);
        QVERIFY2(ran.ok(), ran.ok() ? "" : qPrintable(ran.error().message));
        QCOMPARE(ran->markedSettled, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.run'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE"
                         " action = 'reconciliation.refused'"),
                 refusals);
    }

    void nothingFoundIsStillRecordedAndCancelWritesNothing_data() { addEngineRows(); }
    void nothingFoundIsStillRecordedAndCancelWritesNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        const ReconcileReport empty = s.reconcile();
        QCOMPARE(empty.eligible, 0);
        QCOMPARE(empty.coveragePpm, 1000000);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.run'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs WHERE status = 'finished'"), 1);

        s.paid("o-1", 10000, "pi_1");
        f.clock.set(kT0 + 3 * kDay);
        qint64 calls = 0;
        const ReconcileReport cancelled = s.reconcile([&](qint64, qint64) { return ++calls < 1; });
        QCOMPARE(cancelled.status, QStringLiteral("cancelled"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs WHERE status = 'cancelled'"), 1);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.cancelled'"),
            1);
    }
};

QTEST_GUILESS_MAIN(TstReconcile)
#include "tst_reconcile.moc"
