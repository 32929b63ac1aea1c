#include "reconciliationmatcher.h"

#include "reconciliationfinding.h"

#include "core/money.h"
#include "settlement/formats/statementformat.h"
#include "settlement/settlementline.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <limits>

namespace OncePay {

QStringList DiscrepancyKind::all()
{
    return {NotSettled,  RefundNotSettled,     UnknownSettlement,   AmountMismatch,
            FeeMismatch, CurrencyMismatch,     DuplicateSettlement, RefundDue,
            Chargeback,  SettlementAdjustment, SettledAfterWriteOff};
}

namespace {

using Internal::finding;
using Internal::minute;
using Internal::refundKey;

QJsonObject ruleJson(const FeeRule &r)
{
    return {{QStringLiteral("fee_schedule_id"), QString::number(r.id)},
            {QStringLiteral("effective_from"), QString::number(r.effectiveFromMs)},
            {QStringLiteral("rate_ppm"), QString::number(r.ratePpm)},
            {QStringLiteral("fixed_minor"), QString::number(r.fixedMinor)}};
}

} // namespace

ReconciliationMatcher::ReconciliationMatcher(ReconcileSettings settings, FeeSchedule fees,
                                             QList<ClosedPeriodFact> closed,
                                             QHash<QString, RefundObligationFact> obligations,
                                             qint64 nowMs, qint64 fromMs, qint64 toMs)
    : m_settings(settings)
    , m_fees(std::move(fees))
    , m_closed(std::move(closed))
    , m_obligations(std::move(obligations))
    , m_now(nowMs)
    , m_store(fromMs, toMs)
{
    // A refund owed on a capture of the period (its obligation made in the period) belongs to
    // the period as a payment captured in it does: its line is looked for past the period's
    // end, as far as the run reads lines (Reconciler::kSettlementLookaheadMs), so a capture
    // made near the end and settled after it (Stripe's T+2, KakaoPay's D+3) is no owed refund
    // that reconciliation never shows.
    QList<std::pair<QString, QString>> ofPeriod;
    for (auto it = m_obligations.cbegin(); it != m_obligations.cend(); ++it)
        if (it->createdAtMs >= fromMs && it->createdAtMs < toMs) {
            const qsizetype cut = it.key().indexOf(QChar(0x1f));
            ofPeriod.append({it.key().left(cut), it.key().mid(cut + 1)});
        }
    m_store.keepLinesOf(ofPeriod);
}

const FeeRule *ReconciliationMatcher::ruleAt(quint16 channel, quint16 currency, qint64 atMs) const
{
    const QList<FeeRule> *rules = nullptr;
    bool cached = false;
    for (const FeeRules &r : m_feeRules)
        if (r.channel == channel && r.currency == currency) {
            rules = r.rules;
            cached = true;
            break;
        }
    if (!cached) {
        rules = m_fees.rulesFor(text(channel), text(currency));
        m_feeRules.push_back({channel, currency, rules});
    }
    if (!rules)
        return nullptr;
    const FeeRule *found = nullptr;
    for (const FeeRule &r : *rules) { // sorted by effective date
        if (r.effectiveFromMs > atMs)
            break;
        found = &r;
    }
    return found;
}

bool ReconciliationMatcher::takesMoney(quint16 state) const
{
    return m_takesMoney[state];
}

bool ReconciliationMatcher::inClosedPeriod(qint64 atMs) const
{
    return std::any_of(m_closed.begin(), m_closed.end(), [&](const ClosedPeriodFact &c) {
        return atMs >= c.fromMs && atMs < c.toMs;
    });
}

MatchOutcome ReconciliationMatcher::finish(const QHash<QString, PaymentFact> &settledElsewhere,
                                           const QList<OpenNotSettled> &openNotSettled) const
{
    // "paid", "refunded" and "paid_unconfirmed" orders are the ones that take money.
    m_takesMoney.assign(m_store.atomCount(), false);
    for (size_t i = 0; i < m_takesMoney.size(); ++i) {
        const QString &t = text(quint16(i));
        m_takesMoney[i] = t == u"paid" || t == u"refunded" || t == u"paid_unconfirmed";
    }
    MatchOutcome out;
    for (const Slot &s : m_store.slots())
        classifyPayment(s, out);

    // Open (or written-off) not_settled and refund_not_settled discrepancies whose charge
    // (refund) line is here now: matched to its payment of the period, or a line of the
    // period whose payment is of another (the period its line settles in sees it).
    QHash<QString, qint64> unmatchedLine; // kind:channel:txn[:refund] key -> lowest line id
    if (!openNotSettled.isEmpty())
        for (const LineFact &l : m_store.unmatchedLines()) {
            QString key;
            if (l.kind == SettlementKind::Charge)
                key = finding(DiscrepancyKind::NotSettled, l.channel, l.channelTxnId).key;
            else if (l.kind == SettlementKind::Refund)
                key = refundKey(l.channel, l.channelTxnId);
            else
                continue;
            qint64 &id = unmatchedLine[key];
            if (!id || l.id < id)
                id = l.id;
        }
    for (const OpenNotSettled &d : openNotSettled) {
        const QByteArray channel = d.channel.toUtf8(), txn = d.channelTxnId.toUtf8();
        const int ch = m_store.findAtom(utf8View(channel));
        const qsizetype at = ch < 0 ? -1 : m_store.find(quint16(ch), utf8View(txn));
        const qint64 line =
            at >= 0 ? settlingLine(d, m_store.slots()[size_t(at)]) : unmatchedLine.value(d.key, -1);
        if (line >= 0)
            settledOrWrittenOff(d, line, out);
    }

    // Lines of the period (and of captures owed back since it) that belong to no payment of
    // the period. A line of a kind the matcher does not match (a chargeback, an adjustment)
    // is a finding of its own whichever period its payment is of: chargebacks come weeks
    // after the capture, and no run of the capture's period may ever read them.
    QHash<QString, const LineFact *> firstCharge;
    QSet<QString> refunded;
    for (const LineFact &l : m_store.unmatchedLines()) {
        const QString key = keyOf(l.channel, l.channelTxnId);
        const auto elsewhere = settledElsewhere.constFind(key);
        if (l.kind != SettlementKind::Charge && l.kind != SettlementKind::Refund) {
            out.findings << otherLineFinding(
                l, elsewhere == settledElsewhere.constEnd() ? nullptr : &*elsewhere);
            continue;
        }
        if (elsewhere != settledElsewhere.constEnd())
            continue; // its payment was captured before the period: that period's business
        if (l.kind == SettlementKind::Refund)
            refunded.insert(key);
        const LineFact *&first = firstCharge[key];
        if (!first || (first->kind != SettlementKind::Charge && l.kind == SettlementKind::Charge) ||
            (first->kind == l.kind && l.id < first->id))
            first = &l;
    }
    for (auto it = firstCharge.cbegin(); it != firstCharge.cend(); ++it) {
        const LineFact &l = **it;
        const auto obligation = m_obligations.constFind(it.key());
        if (obligation != m_obligations.constEnd()) {
            if (refunded.contains(it.key()))
                continue; // the channel already returned the money: the obligation is met
            Finding f = finding(DiscrepancyKind::RefundDue, l.channel, l.channelTxnId);
            f.orderId = obligation->orderId;
            f.settlementLineId = l.id;
            f.hasAmounts = true;
            f.expectedMinor = 0;
            f.actualMinor = l.grossMinor;
            f.currency = l.currency;
            f.detail = QStringLiteral(
                "captured money OncePay rejected (stale attempt) has settled; refund it");
            out.findings << f;
            continue;
        }
        Finding f = finding(DiscrepancyKind::UnknownSettlement, l.channel, l.channelTxnId);
        f.settlementLineId = l.id;
        f.hasAmounts = true;
        f.actualMinor = l.grossMinor;
        f.currency = l.currency;
        f.detail =
            QStringLiteral("%1 line for a transaction OncePay has no payment for").arg(l.kind);
        out.findings << f;
    }
    std::sort(out.findings.begin(), out.findings.end(),
              [](const Finding &a, const Finding &b) { return a.key < b.key; });
    return out;
}

void ReconciliationMatcher::classifyPayment(const Slot &s, MatchOutcome &out) const
{
    bool matched = true;
    // Chargebacks and lines of kinds not matched are findings, settled or not; a settled
    // payment's adjustments (a partial capture's reversal, a hold and its release) are added to
    // its charge, and the comparisons below say so when they differ.
    Line l = s.charge;
    const qint64 chargeGross = l.grossMinor;
    const int adjustments =
        checkOtherLines(s, out, &matched, s.hasCharge && takesMoney(s.orderState) ? &l : nullptr);
    if (adjustments > 0)
        ++out.adjusted;
    if (!s.hasCharge && s.settled) {
        // Matched by an earlier run to a charge line this run did not read (settled before the
        // lines it reads): settled, not a capture the channel has not paid out.
        ++out.eligible;
        if (takesMoney(s.orderState))
            checkRefund(s, out, &matched);
        if (matched)
            ++out.matched;
        return;
    }
    if (!s.hasCharge) {
        if (s.capturedAtMs + m_settings.unsettledAfterMs > m_now) {
            ++out.notYetDue; // expected, not yet due: not an exception
            return;
        }
        ++out.eligible;
        const PaymentFact p = m_store.payment(s);
        Finding f = finding(DiscrepancyKind::NotSettled, p.channel, p.channelTxnId);
        f.orderId = p.orderId;
        f.hasAmounts = true;
        f.expectedMinor = p.amountMinor;
        f.currency = p.currency;
        f.detail =
            QStringLiteral("captured %1 UTC, no settlement line").arg(minute(p.capturedAtMs));
        out.findings << f;
        return;
    }
    ++out.eligible;
    if (!s.settled)
        out.newlySettled.emplace_back(s.id, s.charge.id);
    for (qint32 e = s.extraCharges; e >= 0; e = m_store.extra(e).next) {
        const Line &extra = m_store.extra(e);
        const PaymentFact p = m_store.payment(s);
        Finding f = finding(DiscrepancyKind::DuplicateSettlement, p.channel, p.channelTxnId,
                            QString::number(extra.id));
        f.orderId = p.orderId;
        f.settlementLineId = extra.id;
        f.hasAmounts = true;
        f.expectedMinor = 0;
        f.actualMinor = extra.grossMinor;
        f.currency = text(extra.currency);
        f.detail = QStringLiteral("settled again (first settlement line %1)").arg(l.id);
        out.findings << f;
    }
    if (!takesMoney(s.orderState)) {
        const PaymentFact p = m_store.payment(s);
        const bool owed = m_obligations.contains(keyOf(p.channel, p.channelTxnId));
        if (owed && s.refunds >= 0)
            return;
        Finding f = finding(owed ? DiscrepancyKind::RefundDue : DiscrepancyKind::UnknownSettlement,
                            p.channel, p.channelTxnId);
        f.orderId = p.orderId;
        f.settlementLineId = l.id;
        f.hasAmounts = true;
        f.actualMinor = l.grossMinor;
        f.currency = text(l.currency);
        f.detail = QStringLiteral("settled, but order %1 is %2").arg(p.orderId, p.orderState);
        out.findings << f;
        return;
    }
    checkRefund(s, out, &matched);
    if (l.currency != s.orderCurrency) {
        // Amounts in different currencies do not compare: each is kept in its own currency
        // (expected in the order's, actual in the line's), and no difference is made of them.
        const PaymentFact p = m_store.payment(s);
        Finding f = finding(DiscrepancyKind::CurrencyMismatch, p.channel, p.channelTxnId);
        f.orderId = p.orderId;
        f.settlementLineId = l.id;
        f.hasAmounts = true;
        f.expectedMinor = p.orderAmountMinor;
        f.expectedCurrency = p.orderCurrency;
        f.actualMinor = l.grossMinor;
        f.currency = text(l.currency);
        f.detail = QStringLiteral("settled %1, order %2: different currencies, no difference"
                                  " computed")
                       .arg(Currency::format(l.grossMinor, f.currency),
                            Currency::format(p.orderAmountMinor, p.orderCurrency));
        out.findings << f;
        return;
    }
    if (l.grossMinor != s.orderAmountMinor) {
        const PaymentFact p = m_store.payment(s);
        Finding f = finding(DiscrepancyKind::AmountMismatch, p.channel, p.channelTxnId);
        f.orderId = p.orderId;
        f.settlementLineId = l.id;
        f.hasAmounts = true;
        f.expectedMinor = p.orderAmountMinor;
        f.actualMinor = l.grossMinor;
        f.currency = text(l.currency);
        f.detail = adjustments > 0
                       ? QStringLiteral("settled %1 (charge %2, adjustments %3), order %4")
                             .arg(Currency::format(l.grossMinor, f.currency),
                                  Currency::format(chargeGross, f.currency),
                                  Currency::format(l.grossMinor - chargeGross, f.currency),
                                  Currency::format(p.orderAmountMinor, f.currency))
                       : QStringLiteral("settled %1, order %2")
                             .arg(Currency::format(l.grossMinor, f.currency),
                                  Currency::format(p.orderAmountMinor, f.currency));
        out.findings << f;
        matched = false;
    }
    checkFee(s, l, out, &matched);
    if (matched)
        ++out.matched;
}

// The minimal-intervention rule, v2 (kFeeRuleVersion). A channel fixes its fee when it makes
// the charge (Stripe at the balance transaction's creation, KakaoPay at the 거래일시), so the
// fee answers to the schedule in force at the line's transaction time — never at settled_at,
// which is days later for Stripe (available_on) and KakaoPay (정산일). OncePay's own
// expectation is the schedule at captured_at, when its worker booked the capture; a known fee
// change between the channel's charge and that booking is what explains a difference, and only
// that is corrected automatically. A line whose transaction time cannot carry that explanation
// is judged at captured_at: no change can be shown to explain anything there, so only the
// capture skew's leeway applies, and a difference is an exception whose detail says why —
// the line has no transaction time (imported before migration 0010), its transaction time
// precedes every fee schedule, or it is after OncePay booked the capture (beyond the skew: a
// channel cannot charge what OncePay has not captured yet, so that time explains nothing).
// A missing schedule never silences the check: a channel and currency with schedules but none
// in force at captured_at is an exception too; only one with no schedule at all is not judged.
void ReconciliationMatcher::checkFee(const Slot &s, const Line &charge, MatchOutcome &out,
                                     bool *matched) const
{
    const FeeRule *atCapture = ruleAt(s.channel, charge.currency, s.capturedAtMs);
    if (!atCapture) {
        if (!ruleAt(s.channel, charge.currency, std::numeric_limits<qint64>::max()))
            return; // no schedule for this channel and currency at all: nothing to judge by
        const PaymentFact p = m_store.payment(s);
        const LineFact l = m_store.line(s, charge);
        Finding f = finding(DiscrepancyKind::FeeMismatch, p.channel, p.channelTxnId);
        f.orderId = p.orderId;
        f.settlementLineId = l.id;
        f.currency = l.currency;
        f.actualMinor = l.feeMinor;
        f.detail = QStringLiteral("fee %1: no fee schedule was in force at captured_at")
                       .arg(Currency::format(l.feeMinor, l.currency));
        out.findings << f;
        *matched = false;
        return;
    }
    enum class Basis { Transaction, NoTransactionTime, BeforeSchedules, AfterBooking };
    const FeeRule *atCharge = nullptr;
    Basis basis = Basis::NoTransactionTime;
    if (charge.transactedAtMs > 0) {
        atCharge = ruleAt(s.channel, charge.currency, charge.transactedAtMs);
        basis = charge.transactedAtMs > s.capturedAtMs + m_settings.captureSkewMs
                    ? Basis::AfterBooking
                : !atCharge ? Basis::BeforeSchedules
                            : Basis::Transaction;
    }
    const bool hasTxnTime = basis == Basis::Transaction;
    if (!hasTxnTime)
        atCharge = atCapture;
    const qint64 expected = Fees::feeFor(charge.grossMinor, *atCapture); // the books' view
    const qint64 owed = Fees::feeFor(charge.grossMinor, *atCharge);      // the charge's fee
    bool explained = false;
    bool tooEarly = false; // right for a schedule too long before the booking
    if (hasTxnTime) {
        if (charge.feeMinor == owed) {
            if (owed == expected)
                return;
            // Booked across a fee change within the capture skew: the lag the setting allows
            // between the channel's charge and our worker, now measured, not assumed.
            if (qAbs(s.capturedAtMs - charge.transactedAtMs) <= m_settings.captureSkewMs)
                return;
            // Only a booking lag explains it, and a lag of days is none (kFeeExplainMaxLagMs).
            tooEarly = s.capturedAtMs - charge.transactedAtMs > kFeeExplainMaxLagMs;
            explained = !tooEarly;
        }
    } else {
        if (charge.feeMinor == expected)
            return;
        // The channel stamps a capture before our worker records it: a fee that is right for
        // the schedule in force shortly before captured_at is right, not a mismatch — unless
        // the line itself says the channel charged after the booking.
        const FeeRule *beforeCapture =
            ruleAt(s.channel, charge.currency, s.capturedAtMs - m_settings.captureSkewMs);
        if (basis != Basis::AfterBooking && m_settings.captureSkewMs > 0 && beforeCapture &&
            beforeCapture->id != atCapture->id &&
            Fees::feeFor(charge.grossMinor, *beforeCapture) == charge.feeMinor)
            return;
    }
    const PaymentFact p = m_store.payment(s);
    const LineFact l = m_store.line(s, charge);
    Finding f = finding(DiscrepancyKind::FeeMismatch, p.channel, p.channelTxnId);
    f.orderId = p.orderId;
    f.settlementLineId = l.id;
    f.hasAmounts = true;
    // What finance compares the fee with: the schedule at the charge when the line says when
    // that was; the books' expectation when it does not, and for a correction (its adjustment
    // brings the books' expectation to what the channel rightly took).
    f.expectedMinor = explained || tooEarly || !hasTxnTime ? expected : owed;
    f.actualMinor = l.feeMinor;
    const qint64 diff = l.feeMinor - f.expectedMinor;
    __extension__ typedef __int128 Int128;
    const bool withinTolerance =
        Int128(qAbs(diff)) * 1000000 <= Int128(m_settings.feeTolerancePpm) * qAbs(l.grossMinor);
    const bool closed = inClosedPeriod(p.capturedAtMs);
    f.currency = l.currency;
    if (explained && withinTolerance && !closed) {
        f.autoFix = true;
        f.feeScheduleId = atCharge->id;
        f.adjustmentMinor = expected - l.feeMinor;
        const StatementFormat *format = StatementFormat::forChannel(p.channel);
        const QJsonObject evidence{
            {QStringLiteral("rule_id"), kFeeRuleId},
            {QStringLiteral("rule_version"), kFeeRuleVersion},
            {QStringLiteral("tolerance_ppm"), QString::number(m_settings.feeTolerancePpm)},
            {QStringLiteral("capture_skew_ms"), QString::number(m_settings.captureSkewMs)},
            {QStringLiteral("payment"),
             QJsonObject{{QStringLiteral("id"), QString::number(p.id)},
                         {QStringLiteral("order_id"), p.orderId},
                         {QStringLiteral("channel"), p.channel},
                         {QStringLiteral("channel_txn_id"), p.channelTxnId},
                         {QStringLiteral("amount_minor"), QString::number(p.amountMinor)},
                         {QStringLiteral("currency"), p.currency},
                         {QStringLiteral("captured_at"), QString::number(p.capturedAtMs)}}},
            {QStringLiteral("settlement_line"),
             QJsonObject{{QStringLiteral("id"), QString::number(l.id)},
                         {QStringLiteral("gross_minor"), QString::number(l.grossMinor)},
                         {QStringLiteral("fee_minor"), QString::number(l.feeMinor)},
                         {QStringLiteral("currency"), l.currency},
                         {QStringLiteral("settled_at"), QString::number(l.settledAtMs)},
                         {QStringLiteral("transacted_at"), QString::number(l.transactedAtMs)}}},
            // The moment the fee was judged at, and where it came from.
            {QStringLiteral("fee_basis"),
             QJsonObject{{QStringLiteral("source"), QStringLiteral("transaction_time")},
                         {QStringLiteral("at"), QString::number(l.transactedAtMs)},
                         {QStringLiteral("column"),
                          format ? format->transactedAtColumn(l.kind) : QString()}}},
            {QStringLiteral("schedule_at_capture"), ruleJson(*atCapture)},
            {QStringLiteral("schedule_at_transaction"), ruleJson(*atCharge)},
            {QStringLiteral("expected_fee_minor"), QString::number(expected)},
            {QStringLiteral("actual_fee_minor"), QString::number(l.feeMinor)}};
        f.evidenceJson = QString::fromUtf8(QJsonDocument(evidence).toJson(QJsonDocument::Compact));
        f.detail =
            QStringLiteral("fee %1 instead of %2: the %3 schedule change (rate %4 ppm) explains it")
                .arg(Currency::format(l.feeMinor, l.currency),
                     Currency::format(expected, l.currency))
                .arg(atCharge->id)
                .arg(atCharge->ratePpm);
    } else {
        *matched = false;
        f.detail =
            QStringLiteral("fee %1 instead of %2 (%3)")
                .arg(Currency::format(l.feeMinor, l.currency),
                     Currency::format(f.expectedMinor, l.currency),
                     closed ? QStringLiteral("period closed")
                     : basis == Basis::AfterBooking
                         ? QStringLiteral("the channel's transaction time is after OncePay"
                                          " booked the capture: judged at captured_at")
                     : tooEarly ? QStringLiteral("the channel's transaction time is more than %1 h"
                                                 " before OncePay booked the capture: not"
                                                 " explained by a fee change")
                                      .arg(kFeeExplainMaxLagMs / 3600000)
                     : basis == Basis::BeforeSchedules
                         ? QStringLiteral("the settlement line's transaction time precedes"
                                          " every fee schedule: judged at captured_at")
                     : !withinTolerance ? QStringLiteral("beyond the %1 ppm tolerance")
                                              .arg(m_settings.feeTolerancePpm)
                     : hasTxnTime ? QStringLiteral("no fee schedule change explains it")
                                  : QStringLiteral("the settlement line has no transaction"
                                                   " time: judged at captured_at"));
    }
    out.findings << f;
}

} // namespace OncePay
