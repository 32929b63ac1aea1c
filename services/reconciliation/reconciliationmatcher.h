#pragma once

// The in-memory heart of reconciliation: a hash join of payment records (build side) against
// settlement lines (probe side, streamed) by channel + channel transaction id, then the
// classification of every difference, refunds included: a channel's refund lines must
// return exactly what OncePay refunded, and only that. No SQL here, so the rules are testable on their own
// and the join costs one pass over each side.
// Thread contract: one matcher per run, used on one thread.

#include "reconciliationtypes.h"

#include "settlement/feeschedule.h"

#include <QHash>
#include <QSet>

#include <vector>

namespace OncePay {

struct RefundObligationFact {
    QString orderId;
    qint64 amountMinor = 0;
    QString currency;
};

struct ClosedPeriodFact {
    qint64 fromMs = 0;
    qint64 toMs = 0;
};

struct MatchOutcome {
    QList<Finding> findings;
    QList<qint64> newlySettledPaymentIds; // were pending, now have a charge line
    // discrepancy_key of every not_settled finding (charge or refund) whose line is here now
    QSet<QString> settledKeys;
    qint64 eligible = 0;
    qint64 matched = 0;
    qint64 notYetDue = 0;
};

class ReconciliationMatcher {
public:
    ReconciliationMatcher(ReconcileSettings settings, FeeSchedule fees,
                          QList<ClosedPeriodFact> closed,
                          QHash<QString, RefundObligationFact> obligations, qint64 nowMs,
                          qint64 fromMs, qint64 toMs);

    static QString keyOf(const QString &channel, const QString &txn)
    {
        return channel + QChar(0x1f) + txn;
    }

    void reserve(qsizetype payments); // the build side's size, when known: no rehash, no moves
    void addPayment(PaymentFact p);
    void addLine(const LineFact &l);

    // Settled-in-period lines that matched no payment of the period; the caller removes those
    // whose payment lies outside the period (settledElsewhere) before finish().
    const QList<LineFact> &unmatchedLines() const { return m_unmatched; }
    MatchOutcome finish(const QSet<QString> &settledElsewhere) const;

private:
    struct Slot {
        PaymentFact payment;
        LineFact charge; // first charge line (lowest id)
        QList<LineFact> extraCharges;
        QList<LineFact> refunds;
        bool hasCharge = false;
    };

    void classifyPayment(const Slot &s, MatchOutcome &out) const;
    void checkFee(const Slot &s, MatchOutcome &out, bool *matched) const;
    void checkRefund(const Slot &s, MatchOutcome &out, bool *matched) const;
    bool inClosedPeriod(qint64 atMs) const;

    ReconcileSettings m_settings;
    FeeSchedule m_fees;
    QList<ClosedPeriodFact> m_closed;
    QHash<QString, RefundObligationFact> m_obligations;
    qint64 m_now;
    qint64 m_from;
    qint64 m_to;
    std::vector<Slot> m_slots;
    QHash<QString, qsizetype> m_index;
    QList<LineFact> m_unmatched;
};

} // namespace OncePay
