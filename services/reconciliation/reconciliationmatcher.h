#pragma once

// The in-memory heart of reconciliation: a hash join of payment records (build side) against
// settlement lines (probe side, streamed) by channel + channel transaction id, then the
// classification of every difference, refunds included: a channel's refund lines must
// return exactly what OncePay refunded, and only that. No SQL here, so the rules are testable on
// their own and the join costs one pass over each side. The rows themselves are kept by a
// ReconciliationStore (reconciliationstore.h); this class holds the rules: fee schedules and
// tolerances, closed periods, refund obligations, what is due when.
// A matched payment with nothing to report costs no allocation; QStrings are made only for
// findings.
// Thread contract: one matcher per run, used on one thread.

#include "reconciliationstore.h"
#include "reconciliationtypes.h"

#include "settlement/feeschedule.h"

#include <QHash>
#include <QSet>

#include <utility>
#include <vector>

namespace OncePay {

struct RefundObligationFact {
    QString orderId;
    qint64 amountMinor = 0;
    QString currency;
    qint64 createdAtMs = 0; // the earliest obligation on the transaction
};

struct ClosedPeriodFact {
    qint64 fromMs = 0;
    qint64 toMs = 0;
};

struct MatchOutcome {
    QList<Finding> findings;
    // Payments with no settlement_matches row yet that now have a charge line: (payment id,
    // its first charge line's id), in payment order.
    QList<std::pair<qint64, qint64>> newlySettled;
    // discrepancy_key of every open not_settled (charge) or refund_not_settled (refund)
    // finding whose line is here now, among those handed to finish(); written-off ones whose
    // line is here are settled_after_write_off findings instead
    QSet<QString> settledKeys;
    qint64 eligible = 0;
    qint64 matched = 0;
    qint64 notYetDue = 0;
    qint64 adjusted = 0; // payments whose charge took adjustment lines
};

// An open or written-off not_settled or refund_not_settled discrepancy, as finish() needs it
// to tell whether it is settled now.
struct OpenNotSettled {
    QString key; // discrepancy_key
    QString channel;
    QString channelTxnId;
    // Written off: what was written off (the applied write-offs' sum), in writeOffCurrency.
    bool writtenOff = false;
    qint64 id = 0;
    QString orderId;
    qint64 writeOffMinor = 0;
    QString writeOffCurrency;
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

    // The build side's size, when known: no rehash.
    void reserve(qsizetype payments) { m_store.reserve(payments); }
    void addPayment(const PaymentView &p) { m_store.addPayment(p); }
    void addLine(const LineView &l) { m_store.addLine(l); }
    void addPayment(const PaymentFact &p) { m_store.addPayment(p); } // converts to UTF-8
    void addLine(const LineFact &l) { m_store.addLine(l); }          // (the QtSql path)
    void prefetch(std::string_view channel, std::string_view txn, bool slot) const
    {
        m_store.prefetch(channel, txn, slot);
    }

    // Settled-in-period lines that matched no payment of the period, and any line of a capture
    // with a refund owed since the period; the caller removes those whose payment lies outside
    // the period (settledElsewhere) before finish().
    const QList<LineFact> &unmatchedLines() const { return m_store.unmatchedLines(); }
    // settledElsewhere: the payments (by keyOf) of unmatched lines captured outside the period.
    MatchOutcome finish(const QHash<QString, PaymentFact> &settledElsewhere,
                        const QList<OpenNotSettled> &openNotSettled = {}) const;

    // The finding of a line of a kind the matcher does not match (a chargeback, an
    // adjustment, a kind it does not know) on payment `p`, or on no payment (null): one per
    // line, never dropped.
    static Finding otherLineFinding(const LineFact &l, const PaymentFact *p);

private:
    using Slot = ReconciliationStore::Slot;
    using Line = ReconciliationStore::Line;
    struct FeeRules {
        quint16 channel = 0;
        quint16 currency = 0;
        const QList<FeeRule> *rules = nullptr;
    };

    const QString &text(quint16 atom) const { return m_store.text(atom); }
    const FeeRule *ruleAt(quint16 channel, quint16 currency, qint64 atMs) const;

    void classifyPayment(const Slot &s, MatchOutcome &out) const;
    void checkFee(const Slot &s, const Line &charge, MatchOutcome &out, bool *matched) const;
    void checkRefund(const Slot &s, MatchOutcome &out, bool *matched) const;
    // Reports every line of s that is neither a charge nor a refund; with `charge`, adds the
    // adjustments in its currency to it instead (returns how many).
    int checkOtherLines(const Slot &s, MatchOutcome &out, bool *matched, Line *charge) const;
    // The line that settles d (0 when the payment's settlement_matches row says so), or -1.
    qint64 settlingLine(const OpenNotSettled &d, const Slot &s) const;
    void settledOrWrittenOff(const OpenNotSettled &d, qint64 lineId, MatchOutcome &out) const;
    bool inClosedPeriod(qint64 atMs) const;
    bool takesMoney(quint16 state) const;

    ReconcileSettings m_settings;
    FeeSchedule m_fees;
    QList<ClosedPeriodFact> m_closed;
    QHash<QString, RefundObligationFact> m_obligations;
    qint64 m_now;
    ReconciliationStore m_store;
    mutable std::vector<bool> m_takesMoney; // by order state atom, filled by finish()
    mutable std::vector<FeeRules> m_feeRules;
};

} // namespace OncePay
