#pragma once

// The in-memory heart of reconciliation: a hash join of payment records (build side) against
// settlement lines (probe side, streamed) by channel + channel transaction id, then the
// classification of every difference, refunds included: a channel's refund lines must
// return exactly what OncePay refunded, and only that. No SQL here, so the rules are testable on
// their own and the join costs one pass over each side.
//
// Rows come in as UTF-8 views (straight from SQLite's buffers on the native path) and are kept
// compactly: numbers in a flat array, the order id and transaction id bytes in one arena,
// channel/currency/kind/state as small ids of shared strings, and the index is open
// addressing over the transaction id bytes. A matched payment with nothing to report costs
// no allocation; QStrings are made only for findings.
// Thread contract: one matcher per run, used on one thread.

#include "reconciliationtypes.h"

#include "settlement/feeschedule.h"

#include <QHash>
#include <QSet>

#include <string_view>
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
    // discrepancy_key of every not_settled finding (charge or refund) whose line is here now,
    // among the keys handed to finish() (the open not_settled discrepancies)
    QSet<QString> settledKeys;
    qint64 eligible = 0;
    qint64 matched = 0;
    qint64 notYetDue = 0;
};

// An open not_settled discrepancy, as finish() needs it to tell whether it is settled now.
struct OpenNotSettled {
    QString key; // discrepancy_key
    QString channel;
    QString channelTxnId;
};

// A row as UTF-8 views; the matcher copies what it keeps before returning.
struct PaymentView {
    qint64 id = 0;
    std::string_view orderId;
    std::string_view channel;
    std::string_view channelTxnId;
    qint64 amountMinor = 0;
    std::string_view currency;
    bool refunded = false;
    bool settled = false;
    qint64 capturedAtMs = 0;
    qint64 refundedAtMs = 0;
    qint64 orderAmountMinor = 0;
    std::string_view orderCurrency;
    std::string_view orderState;
};

struct LineView {
    qint64 id = 0;
    std::string_view channel;
    std::string_view channelTxnId;
    std::string_view kind;
    qint64 grossMinor = 0;
    qint64 feeMinor = 0;
    std::string_view currency;
    qint64 settledAtMs = 0;
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

    void reserve(qsizetype payments); // the build side's size, when known: no rehash
    void addPayment(const PaymentView &p);
    void addLine(const LineView &l);
    void addPayment(const PaymentFact &p); // converts to UTF-8 (the QtSql path)
    void addLine(const LineFact &l);

    // Settled-in-period lines that matched no payment of the period; the caller removes those
    // whose payment lies outside the period (settledElsewhere) before finish().
    const QList<LineFact> &unmatchedLines() const { return m_unmatched; }
    MatchOutcome finish(const QSet<QString> &settledElsewhere,
                        const QList<OpenNotSettled> &openNotSettled = {}) const;

private:
    struct Text {
        size_t at = 0;
        quint32 size = 0;
    };
    struct Line { // a settlement line matched to a payment
        qint64 id = 0;
        qint64 grossMinor = 0;
        qint64 feeMinor = 0;
        qint64 settledAtMs = 0;
        quint16 currency = 0;
        quint16 kind = 0;
        qint32 next = -1; // the slot's next extra charge or refund (m_extra)
    };
    struct Slot {
        qint64 id = 0;
        qint64 amountMinor = 0;
        qint64 capturedAtMs = 0;
        qint64 refundedAtMs = 0;
        qint64 orderAmountMinor = 0;
        Text orderId;
        Text txn;
        quint16 channel = 0;
        quint16 currency = 0;
        quint16 orderCurrency = 0;
        quint16 orderState = 0;
        bool refunded = false;
        bool settled = false;
        bool hasCharge = false;
        Line charge;              // first charge line (lowest id)
        qint32 extraCharges = -1; // lists in m_extra
        qint32 refunds = -1;
    };
    struct FeeRules {
        quint16 channel = 0;
        quint16 currency = 0;
        const QList<FeeRule> *rules = nullptr;
    };

    quint16 atom(std::string_view utf8);       // interned
    int findAtom(std::string_view utf8) const; // -1 when never seen
    const QString &text(quint16 atom) const { return m_atoms[atom].second; }
    Text store(std::string_view utf8);
    std::string_view bytes(Text t) const { return {m_arena.data() + t.at, t.size}; }
    QString string(Text t) const;
    static size_t hashOf(quint16 channel, std::string_view txn);
    // The slot of (channel, txn), or -1; `bucket` gets where it would go.
    qsizetype find(quint16 channel, std::string_view txn, size_t hash, size_t *bucket) const;
    qsizetype find(quint16 channel, std::string_view txn) const;
    void grow();
    PaymentFact payment(const Slot &s) const;
    LineFact line(const Slot &s, const Line &l) const;
    const FeeRule *ruleAt(quint16 channel, quint16 currency, qint64 atMs) const;

    void classifyPayment(const Slot &s, MatchOutcome &out) const;
    void checkFee(const Slot &s, MatchOutcome &out, bool *matched) const;
    void checkRefund(const Slot &s, MatchOutcome &out, bool *matched) const;
    bool inClosedPeriod(qint64 atMs) const;
    bool takesMoney(quint16 state) const;

    ReconcileSettings m_settings;
    FeeSchedule m_fees;
    QList<ClosedPeriodFact> m_closed;
    QHash<QString, RefundObligationFact> m_obligations;
    qint64 m_now;
    qint64 m_from;
    qint64 m_to;
    // Low-cardinality text (channel, currency, kind, order state): UTF-8 and its shared QString.
    std::vector<std::pair<QByteArray, QString>> m_atoms;
    std::vector<bool> m_takesMoney; // by order state atom
    mutable std::vector<FeeRules> m_feeRules;
    std::vector<char> m_arena;
    std::vector<Slot> m_slots;
    std::vector<Line> m_extra;
    struct Bucket {
        qint32 slot = 0; // slot + 1, 0 = empty
        quint32 tag = 0; // high bits of the key's hash: most mismatches never touch the slot
    };
    std::vector<Bucket> m_index; // open addressing, linear probing
    QList<LineFact> m_unmatched;
    quint16 m_charge = 0, m_refund = 0;
};

} // namespace OncePay
