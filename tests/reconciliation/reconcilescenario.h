#pragma once

// What the reconciliation tests share: payments made through the real engine on a Stripe
// account (paid, refunded, the seeds' stale capture after a rollback), Stripe statements
// written in Stripe's layout and imported, a fee schedule with a rate change on 2026-01-02,
// and a run. Used by tst_reconcile, tst_reconcile_runs and tst_reconcile_refund_kinds.

#include "enginefixture.h"

#include "db/sql.h"
#include "reconciliation/reconciler.h"
#include "settlement/feeschedule.h"
#include "settlement/formats/statementformat.h"
#include "settlement/settlementimporter.h"

#include <QCryptographicHash>
#include <QTest>

namespace OncePay::Test::Reconcile {

constexpr qint64 kT0 = 1767225600000; // 2026-01-01T00:00:00Z, the fixture's clock
constexpr qint64 kDay = 86400000;
const Actor kFinance{QStringLiteral("fin-1"), QStringLiteral("finance")};

inline SettlementLine refundLine(const QString &pi, qint64 returned, qint64 settledAt)
{
    SettlementLine l;
    l.channelTxnId = pi;
    l.kind = SettlementKind::Refund;
    l.grossMinor = -returned;
    l.netMinor = -returned;
    l.currency = QStringLiteral("USD");
    l.settledAtMs = settledAt;
    l.transactedAtMs = settledAt;
    l.reference = QStringLiteral("refund");
    return l;
}

inline SettlementLine line(const QString &pi, qint64 gross, qint64 fee, qint64 settledAt,
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
    l.transactedAtMs = kT0;
    l.reference = QStringLiteral("order, with comma");
    return l;
}

// A line of any kind (a chargeback, an adjustment, a kind no format writes) for `pi`.
inline SettlementLine lineOf(const QString &pi, const QString &kind, qint64 gross, qint64 fee,
                             qint64 settledAt, const QString &currency = QStringLiteral("USD"))
{
    SettlementLine l = line(pi, gross, fee, settledAt, currency);
    l.kind = kind;
    return l;
}

inline ReconcileOptions window(qint64 from, qint64 to)
{
    ReconcileOptions o;
    o.fromMs = from;
    o.toMs = to;
    return o;
}

// The discrepancy with `key` as one line ("kind | status | order | expected | expected
// currency | actual | currency | detail"), or "(none)".
inline QString discrepancyRow(const EngineFixture &f, const QString &key)
{
    auto q = Sql::exec(f.orders->db(),
                       QStringLiteral("SELECT kind, status, COALESCE(order_id, '-'),"
                                      " expected_minor, COALESCE(expected_currency, '-'),"
                                      " actual_minor, currency, detail FROM discrepancies"
                                      " WHERE discrepancy_key = ?"),
                       {key});
    if (!q || !q->next())
        return QStringLiteral("(none)");
    QStringList out;
    for (int i = 0; i < 8; ++i)
        out << q->value(i).toString();
    return out.join(QStringLiteral(" | "));
}

// Lines stored as the importer stores a parsed Stripe statement, whatever a format would make
// of them (what a channel's layout calls a dispute or a hold is the formats' business): each
// line's raw record names the file, so the same line in two files is two lines.
inline void storeLines(EngineFixture &f, QList<SettlementLine> lines, const QString &name)
{
    ParsedStatement parsed;
    parsed.channel = QStringLiteral("stripe");
    parsed.periodFromMs = kT0;
    parsed.periodToMs = kT0 + 90 * kDay;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        lines[i].lineNo = int(i) + 2;
        lines[i].raw = QStringLiteral("%1,%2,%3,%4")
                           .arg(name, lines[i].channelTxnId, lines[i].kind)
                           .arg(lines[i].grossMinor);
    }
    parsed.lines = lines;
    SettlementImporter::Prepared p;
    p.channel = QStringLiteral("stripe");
    p.fileName = name;
    p.sha256 = QString::fromLatin1(
        QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).toHex());
    p.parsed = parsed;
    auto r = SettlementImporter(*f.orders, f.clock).commit(p, kFinance);
    QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
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

    // A partial refund: Stripe's charge.refunded with the running total refunded of the
    // capture; the worker books the difference to what is booked as one refund_debit row and
    // leaves payments.status captured until the total reaches the captured amount.
    void partlyRefunded(const QString &id, qint64 captured, qint64 refundedTotal, const QString &pi)
    {
        StripeEvents::Params p =
            m_f.params(id, "a-" + id, captured, "USD",
                       "evt_r" + id + u'-' + QString::number(refundedTotal), pi);
        p.amountRefunded = refundedTotal;
        m_f.deliver(StripeEvents::chargeRefunded(p));
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

} // namespace OncePay::Test::Reconcile
