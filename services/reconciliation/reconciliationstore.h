#pragma once

// The compact in-memory store behind the reconciliation matcher: payment records of the
// period (build side) in a hash table by channel + channel transaction id, and the settlement
// lines (probe side, streamed) attached to their payment as they arrive; lines of the period
// that find no payment are kept aside as LineFacts. No rules about differences here: the
// matcher classifies what the store holds.
//
// Rows come in as UTF-8 views (straight from SQLite's buffers on the native path) and are kept
// compactly: numbers in a flat array, the order id and transaction id bytes in one arena,
// channel/currency/kind/state as small ids ("atoms") of shared strings, and the index is open
// addressing over the transaction id bytes. Adding a row allocates nothing but the amortised
// growth of these arrays; QStrings are made only on request (payment(), line(), string()).
// Thread contract: one store per run, used on one thread.

#include "reconciliationtypes.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

#include <string_view>
#include <utility>
#include <vector>

namespace OncePay {

// A row as UTF-8 views; the store copies what it keeps before returning.
struct PaymentView {
    qint64 id = 0;
    std::string_view orderId;
    std::string_view channel;
    std::string_view channelTxnId;
    qint64 amountMinor = 0;
    std::string_view currency;
    qint64 refundedMinor = 0; // PaymentFact::refundedMinor
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
    qint64 transactedAtMs = 0; // 0: none
};

// The bytes of a QByteArray as a view (valid while the array lives unchanged).
inline std::string_view utf8View(const QByteArray &b)
{
    return {b.constData(), size_t(b.size())};
}

class ReconciliationStore {
public:
    struct Text { // bytes in the arena
        size_t at = 0;
        quint32 size = 0;
    };
    struct Line { // a settlement line matched to a payment
        qint64 id = 0;
        qint64 grossMinor = 0;
        qint64 feeMinor = 0;
        qint64 settledAtMs = 0;
        qint64 transactedAtMs = 0; // the channel's transaction time, 0 when none
        quint16 currency = 0;
        quint16 kind = 0;
        qint32 next = -1; // the slot's next extra charge, refund or other line (extra())
    };
    struct Slot { // a payment and the lines that matched it
        qint64 id = 0;
        qint64 amountMinor = 0;
        qint64 capturedAtMs = 0;
        qint64 refundedAtMs = 0;
        qint64 refundedMinor = 0;
        qint64 orderAmountMinor = 0;
        Text orderId;
        Text txn;
        quint16 channel = 0;
        quint16 currency = 0;
        quint16 orderCurrency = 0;
        quint16 orderState = 0;
        bool settled = false;
        bool hasCharge = false;
        Line charge;              // first charge line (lowest id)
        qint32 extraCharges = -1; // lists in extra()
        qint32 refunds = -1;
        qint32 others = -1; // chargebacks, adjustments and kinds the matcher does not know
    };

    // Lines settled in [fromMs, toMs) that match no payment are kept for unmatchedLines().
    ReconciliationStore(qint64 fromMs, qint64 toMs);
    // Also keep, whenever they settled, the unmatched lines of these transactions (channel,
    // channel transaction id): captures of the period with no payment row, a refund owed on
    // each, whose line may settle after the period as a payment's may.
    void keepLinesOf(const QList<std::pair<QString, QString>> &transactions);

    void reserve(qsizetype payments); // the build side's size, when known: no rehash
    void addPayment(const PaymentView &p);
    void addLine(const LineView &l);
    void addPayment(const PaymentFact &p); // converts to UTF-8 (the QtSql path)
    void addLine(const LineFact &l);

    // Settled-in-period lines of every kind that matched no payment (and those of
    // keepLinesOf()'s transactions), in arrival order.
    const QList<LineFact> &unmatchedLines() const { return m_unmatched; }

    const std::vector<Slot> &slots() const { return m_slots; }
    const Line &extra(qint32 at) const { return m_extra[size_t(at)]; }
    // The slot of (channel, txn), or -1.
    qsizetype find(quint16 channel, std::string_view txn) const;
    // Asks the CPU for the index bucket of (channel, txn) — or, with `slot`, for the payment its
    // first bucket points at, once the bucket itself is cached — a few rows before addPayment()
    // or addLine() needs it: the table is far larger than the caches, so each of those would
    // otherwise wait for memory once or twice. Changes nothing.
    void prefetch(std::string_view channel, std::string_view txn, bool slot) const;

    int findAtom(std::string_view utf8) const; // -1 when never seen
    size_t atomCount() const { return m_atoms.size(); }
    const QString &text(quint16 atom) const { return m_atoms[atom].second; }
    QString string(Text t) const;
    PaymentFact payment(const Slot &s) const;
    LineFact line(const Slot &s, const Line &l) const;

private:
    quint16 atom(std::string_view utf8); // interned
    Text store(std::string_view utf8);
    std::string_view bytes(Text t) const { return {m_arena.data() + t.at, t.size}; }
    static size_t hashOf(quint16 channel, std::string_view txn);
    // The slot of (channel, txn), or -1; `bucket` gets where it would go.
    qsizetype find(quint16 channel, std::string_view txn, size_t hash, size_t *bucket) const;
    void grow();
    bool kept(const LineView &l) const; // a line of keepLinesOf()'s transactions

    qint64 m_from;
    qint64 m_to;
    // Low-cardinality text (channel, currency, kind, order state): UTF-8 and its shared QString.
    std::vector<std::pair<QByteArray, QString>> m_atoms;
    std::vector<char> m_arena;
    std::vector<Slot> m_slots;
    std::vector<Line> m_extra;
    struct Bucket {
        qint32 slot = 0; // slot + 1, 0 = empty
        quint32 tag = 0; // high bits of the key's hash: most mismatches never touch the slot
    };
    std::vector<Bucket> m_index; // open addressing, linear probing
    QList<LineFact> m_unmatched;
    QSet<QByteArray> m_keepTxns;         // keepLinesOf(): transaction ids, UTF-8
    QSet<QByteArray> m_keepTransactions; // and channel + U+001F + transaction id
    quint16 m_charge = 0, m_refund = 0;
};

} // namespace OncePay
