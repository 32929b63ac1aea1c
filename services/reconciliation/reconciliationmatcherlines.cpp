// The matcher's rules for the lines beside a payment's charge: its refund lines, the lines of
// kinds it does not match (chargebacks, adjustments, kinds it does not know), and the
// not_settled / refund_not_settled discrepancies a later line settles, written off or not.

#include "reconciliationmatcher.h"

#include "reconciliationfinding.h"

#include "core/money.h"
#include "settlement/settlementline.h"

#include <algorithm>
#include <vector>

namespace OncePay {

using Internal::finding;
using Internal::minute;
using Internal::refundKey;

// OncePay's own refunds (the ledger's refund_debit rows the channel's refund callbacks booked,
// partial ones added up: PaymentFact::refundedMinor) against the channel's refund lines: what
// OncePay booked as refunded must settle, for that amount (partial refund lines add up), and a
// refund OncePay never booked is money the channel returned behind its back. Lines returning
// less than booked while the last refund is recent are not due yet, as no line at all is not. Stale
// captures owed back are refund_due, not this. Lines are summed as signed (a refund takes money:
// negative); a line that gives money back is no refund and counts against the others, never as
// money returned. Lines in another currency than the payment's are a currency_mismatch of the
// refund, never added to or compared with it: one per currency, each with the signed sum of all
// its lines (a second or third foreign currency loses no money from the exceptions). The first
// currency (its lowest line id) keeps the ":refund" key; another is keyed ":<currency>:refund".
// Lines that net to zero moved no money: a refund and its reversal for a payment OncePay has no
// refund of is nothing to report, and a currency whose lines net to zero has no mismatch.
void ReconciliationMatcher::checkRefund(const Slot &s, MatchOutcome &out, bool *matched) const
{
    if (s.refundedMinor <= 0 && s.refunds < 0)
        return; // the common case: nothing refunded on either side
    const PaymentFact p = m_store.payment(s);
    const qint64 booked = std::max<qint64>(p.refundedMinor, 0);
    const QString refundSuffix = QStringLiteral("refund");
    qint64 returned = 0;         // minus the signed sum of the lines in the payment's currency
    const Line *first = nullptr; // lowest id in the payment's currency
    struct Foreign {
        quint16 currency = 0;
        const Line *first = nullptr; // its lowest id
        qint64 gross = 0;            // the signed sum of its lines
    };
    std::vector<Foreign> foreign; // by their first line's id
    for (qint32 e = s.refunds; e >= 0; e = m_store.extra(e).next) {
        const Line &r = m_store.extra(e);
        if (r.currency != s.currency) {
            auto it = std::find_if(foreign.begin(), foreign.end(),
                                   [&](const Foreign &x) { return x.currency == r.currency; });
            if (it == foreign.end())
                it = foreign.insert(foreign.end(), Foreign{r.currency, &r, 0});
            it->gross += r.grossMinor;
            if (r.id < it->first->id)
                it->first = &r;
            continue;
        }
        returned -= r.grossMinor;
        if (!first || r.id < first->id)
            first = &r;
    }
    std::sort(foreign.begin(), foreign.end(),
              [](const Foreign &a, const Foreign &b) { return a.first->id < b.first->id; });
    bool refundedForeign = false; // some other currency's lines moved money
    for (const Foreign &x : foreign) {
        if (x.gross == 0)
            continue;
        const QString currency = text(x.currency);
        Finding f = finding(DiscrepancyKind::CurrencyMismatch, p.channel, p.channelTxnId,
                            x.first == foreign.front().first ? refundSuffix
                                                             : currency + u':' + refundSuffix);
        f.orderId = p.orderId;
        f.settlementLineId = x.first->id;
        f.hasAmounts = true;
        f.expectedMinor = -booked;
        f.expectedCurrency = p.currency;
        f.actualMinor = x.gross;
        f.currency = currency;
        f.detail =
            QStringLiteral("refund lines return %1, OncePay refunded %2: different"
                           " currencies, no difference computed")
                .arg(Currency::format(-x.gross, f.currency), Currency::format(booked, p.currency));
        out.findings << f;
        *matched = false;
        refundedForeign = true;
    }
    if (booked == 0) {
        if (!first || returned == 0)
            return; // no line, or lines that net to zero: nothing was refunded
        Finding f =
            finding(DiscrepancyKind::UnknownSettlement, p.channel, p.channelTxnId, refundSuffix);
        f.orderId = p.orderId;
        f.settlementLineId = first->id;
        f.hasAmounts = true;
        f.expectedMinor = 0;
        f.actualMinor = -returned;
        f.currency = p.currency;
        f.detail = QStringLiteral("the channel refunded %1; OncePay has no refund of this payment")
                       .arg(Currency::format(returned, f.currency));
        out.findings << f;
        *matched = false;
        return;
    }
    if (!first && refundedForeign)
        return; // refunded in another currency only: the currency_mismatch above says it
    // No refund line at all is refund_not_settled, never not_settled: the money left and the
    // channel has not said so, which finance must not read as a capture not paid out.
    Finding f = finding(first ? DiscrepancyKind::AmountMismatch : DiscrepancyKind::RefundNotSettled,
                        p.channel, p.channelTxnId, refundSuffix);
    f.orderId = p.orderId;
    f.hasAmounts = true;
    f.expectedMinor = -booked;
    f.currency = p.currency;
    const bool due = p.refundedAtMs + m_settings.unsettledAfterMs <= m_now;
    if (!first) {
        if (!due)
            return; // refunded recently: its line is not due yet
        f.detail = QStringLiteral("refunded %1 UTC, no refund line").arg(minute(p.refundedAtMs));
        out.findings << f;
        *matched = false;
        return;
    }
    if (returned == booked || (returned < booked && !due))
        return; // all settled, or the rest refunded recently: its line is not due yet
    f.settlementLineId = first->id;
    f.actualMinor = -returned;
    f.detail =
        QStringLiteral("refund lines return %1, OncePay refunded %2")
            .arg(Currency::format(returned, f.currency), Currency::format(booked, p.currency));
    out.findings << f;
    *matched = false;
}

// Every line of a payment that is neither a charge nor a refund is reported, one finding per
// line, and the payment is no longer counted as matched: a chargeback takes money back (or
// returns it), a fee line or a kind unknown is no part of the charge, and none may pass
// unseen. An adjustment in the charge's currency is part of the charge (settlementline.h: a
// partial capture's reversal, a hold and its release): added to `charge` when there is one,
// so that the amount and fee checks judge the sum and name the adjustments when it differs;
// without a charge to add it to, it is a finding like the others.
int ReconciliationMatcher::checkOtherLines(const Slot &s, MatchOutcome &out, bool *matched,
                                           Line *charge) const
{
    if (s.others < 0)
        return 0;
    int added = 0;
    const PaymentFact p = m_store.payment(s);
    for (qint32 e = s.others; e >= 0; e = m_store.extra(e).next) {
        const Line &l = m_store.extra(e);
        if (charge && l.currency == charge->currency &&
            text(l.kind) == SettlementKind::Adjustment) {
            charge->grossMinor += l.grossMinor;
            charge->feeMinor += l.feeMinor;
            ++added;
            continue;
        }
        out.findings << otherLineFinding(m_store.line(s, l), &p);
        *matched = false;
    }
    return added;
}

Finding ReconciliationMatcher::otherLineFinding(const LineFact &l, const PaymentFact *p)
{
    const bool chargeback = l.kind == SettlementKind::Chargeback;
    Finding f =
        finding(chargeback ? DiscrepancyKind::Chargeback : DiscrepancyKind::SettlementAdjustment,
                l.channel, l.channelTxnId, QString::number(l.id));
    f.settlementLineId = l.id;
    f.hasAmounts = true;
    f.expectedMinor = 0; // a write-off of the default amount books what the line took
    f.actualMinor = l.grossMinor;
    f.currency = l.currency;
    const QString amount =
        Currency::format(chargeback ? qAbs(l.grossMinor) : l.grossMinor, l.currency);
    const QString fee = Currency::format(l.feeMinor, l.currency);
    if (p) {
        f.orderId = p->orderId;
        f.expectedCurrency = p->currency;
        const QString payment = Currency::format(p->amountMinor, p->currency);
        if (chargeback)
            f.detail = (l.grossMinor < 0
                            ? QStringLiteral("the channel took back %1 (fee %2) for a dispute on"
                                             " this payment of %3")
                            : QStringLiteral("the channel returned %1 (fee %2) for a dispute on"
                                             " this payment of %3"))
                           .arg(amount, fee, payment);
        else
            f.detail = QStringLiteral("%1 line of %2 (fee %3) on this payment of %4:"
                                      " reconciliation does not match such lines, review it")
                           .arg(l.kind, amount, fee, payment);
        return f;
    }
    if (chargeback)
        f.detail = (l.grossMinor < 0 ? QStringLiteral("the channel took back %1 (fee %2) for a"
                                                      " dispute on a transaction OncePay has no"
                                                      " payment for")
                                     : QStringLiteral("the channel returned %1 (fee %2) for a"
                                                      " dispute on a transaction OncePay has no"
                                                      " payment for"))
                       .arg(amount, fee);
    else
        f.detail = QStringLiteral("%1 line of %2 (fee %3) for a transaction OncePay has no"
                                  " payment for: reconciliation does not match such lines,"
                                  " review it")
                       .arg(l.kind, amount, fee);
    return f;
}

// A not_settled (refund_not_settled) discrepancy is settled once its payment has a charge line
// (its booked refund a refund line). Open, it is resolved; written off, the write-off stands
// against money that came in after all: a settled_after_write_off finding carries the amount
// written off (actual, expected 0) so that finance reverses it. Its key is the written-off
// one's behind the kind, so each written-off discrepancy raises it once, whatever the re-runs.
qint64 ReconciliationMatcher::settlingLine(const OpenNotSettled &d, const Slot &s) const
{
    const QString slotChannel = text(s.channel), slotTxn = m_store.string(s.txn);
    const bool charged = s.hasCharge || s.settled;
    if (d.key == finding(DiscrepancyKind::NotSettled, slotChannel, slotTxn).key && charged)
        return s.hasCharge ? s.charge.id : 0;
    if (d.key == refundKey(slotChannel, slotTxn) && charged && takesMoney(s.orderState) &&
        s.refundedMinor > 0 && s.refunds >= 0) {
        qint64 lineId = 0;
        for (qint32 e = s.refunds; e >= 0; e = m_store.extra(e).next)
            if (!lineId || m_store.extra(e).id < lineId)
                lineId = m_store.extra(e).id;
        return lineId;
    }
    return -1; // not settled yet
}

void ReconciliationMatcher::settledOrWrittenOff(const OpenNotSettled &d, qint64 lineId,
                                                MatchOutcome &out) const
{
    if (!d.writtenOff) {
        out.settledKeys.insert(d.key);
        return;
    }
    Finding f;
    f.kind = DiscrepancyKind::SettledAfterWriteOff;
    f.key = f.kind + u':' + d.key;
    f.channel = d.channel;
    f.channelTxnId = d.channelTxnId;
    f.orderId = d.orderId;
    f.settlementLineId = lineId;
    f.hasAmounts = true;
    f.expectedMinor = 0;
    f.actualMinor = d.writeOffMinor;
    f.currency = d.writeOffCurrency;
    const QString amount = Currency::format(d.writeOffMinor, d.writeOffCurrency);
    f.detail = lineId ? QStringLiteral("written off %1 (discrepancy #%2), but the channel has"
                                       " settled it since (settlement line %3): reverse the"
                                       " write-off")
                            .arg(amount, QString::number(d.id), QString::number(lineId))
                      : QStringLiteral("written off %1 (discrepancy #%2), but the channel has"
                                       " settled it since: reverse the write-off")
                            .arg(amount, QString::number(d.id));
    out.findings << f;
}

} // namespace OncePay
