#include "reconciliationstore.h"

#include "settlement/settlementline.h"

#include <cstring>
#include <functional>

namespace OncePay {

ReconciliationStore::ReconciliationStore(qint64 fromMs, qint64 toMs)
    : m_from(fromMs)
    , m_to(toMs)
{
    m_charge = atom(utf8View(SettlementKind::Charge.toUtf8()));
    m_refund = atom(utf8View(SettlementKind::Refund.toUtf8()));
    m_index.assign(1024, Bucket{});
}

quint16 ReconciliationStore::atom(std::string_view utf8)
{
    const int found = findAtom(utf8);
    if (found >= 0)
        return quint16(found);
    QByteArray bytes(utf8.data(), qsizetype(utf8.size()));
    QString text = QString::fromUtf8(bytes);
    m_atoms.emplace_back(std::move(bytes), std::move(text));
    Q_ASSERT(m_atoms.size() < 65536);
    return quint16(m_atoms.size() - 1);
}

int ReconciliationStore::findAtom(std::string_view utf8) const
{
    for (size_t i = 0; i < m_atoms.size(); ++i) {
        const QByteArray &a = m_atoms[i].first;
        if (size_t(a.size()) == utf8.size() &&
            (utf8.empty() || std::memcmp(a.constData(), utf8.data(), utf8.size()) == 0))
            return int(i);
    }
    return -1;
}

ReconciliationStore::Text ReconciliationStore::store(std::string_view utf8)
{
    Text t{m_arena.size(), quint32(utf8.size())};
    m_arena.insert(m_arena.end(), utf8.begin(), utf8.end());
    return t;
}

QString ReconciliationStore::string(Text t) const
{
    return QString::fromUtf8(m_arena.data() + t.at, qsizetype(t.size));
}

size_t ReconciliationStore::hashOf(quint16 channel, std::string_view txn)
{
    return std::hash<std::string_view>{}(txn) ^ (size_t(channel + 1) * 0x9E3779B97F4A7C15ULL);
}

qsizetype ReconciliationStore::find(quint16 channel, std::string_view txn, size_t hash,
                                    size_t *bucket) const
{
    const size_t mask = m_index.size() - 1;
    const quint32 tag = quint32(hash >> 32);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const Bucket &b = m_index[i];
        if (b.slot == 0) {
            if (bucket)
                *bucket = i;
            return -1;
        }
        if (b.tag != tag)
            continue;
        const Slot &s = m_slots[size_t(b.slot - 1)];
        if (s.channel == channel && bytes(s.txn) == txn)
            return b.slot - 1;
    }
}

qsizetype ReconciliationStore::find(quint16 channel, std::string_view txn) const
{
    return find(channel, txn, hashOf(channel, txn), nullptr);
}

void ReconciliationStore::prefetch(std::string_view channel, std::string_view txn, bool slot) const
{
    const int a = findAtom(channel);
    if (a < 0)
        return;
    const size_t hash = hashOf(quint16(a), txn);
    const Bucket &b = m_index[hash & (m_index.size() - 1)];
    if (!slot)
        __builtin_prefetch(&b);
    else if (b.slot != 0 && b.tag == quint32(hash >> 32))
        __builtin_prefetch(&m_slots[size_t(b.slot - 1)]);
}

void ReconciliationStore::grow()
{
    std::vector<Bucket> index(m_index.size() * 2);
    const size_t mask = index.size() - 1;
    for (size_t k = 0; k < m_slots.size(); ++k) {
        const Slot &s = m_slots[k];
        const size_t hash = hashOf(s.channel, bytes(s.txn));
        size_t i = hash & mask;
        while (index[i].slot != 0)
            i = (i + 1) & mask;
        index[i] = {qint32(k + 1), quint32(hash >> 32)};
    }
    m_index = std::move(index);
}

void ReconciliationStore::reserve(qsizetype payments)
{
    m_slots.reserve(size_t(payments));
    m_arena.reserve(size_t(payments) * 32);
    size_t want = 1024;
    while (want < size_t(payments) * 2)
        want *= 2;
    if (want > m_index.size()) {
        m_index.assign(want / 2, Bucket{}); // grow() doubles it and re-inserts what is there
        grow();
    }
}

void ReconciliationStore::addPayment(const PaymentView &p)
{
    if ((m_slots.size() + 1) * 2 > m_index.size())
        grow();
    Slot s;
    s.id = p.id;
    s.amountMinor = p.amountMinor;
    s.capturedAtMs = p.capturedAtMs;
    s.refundedAtMs = p.refundedAtMs;
    s.orderAmountMinor = p.orderAmountMinor;
    s.channel = atom(p.channel);
    s.currency = atom(p.currency);
    s.orderCurrency = atom(p.orderCurrency);
    s.orderState = atom(p.orderState);
    s.refundedMinor = p.refundedMinor;
    s.settled = p.settled;
    const size_t hash = hashOf(s.channel, p.channelTxnId);
    size_t bucket = 0;
    const qsizetype existing = find(s.channel, p.channelTxnId, hash, &bucket);
    s.orderId = store(p.orderId);
    s.txn = store(p.channelTxnId);
    if (existing >= 0) { // (channel, channel_txn_id) is unique; the last one wins, as before
        m_slots[size_t(existing)] = s;
        return;
    }
    m_slots.push_back(s);
    m_index[bucket] = {qint32(m_slots.size()), quint32(hash >> 32)};
}

void ReconciliationStore::addPayment(const PaymentFact &p)
{
    const QByteArray orderId = p.orderId.toUtf8(), channel = p.channel.toUtf8(),
                     txn = p.channelTxnId.toUtf8(), currency = p.currency.toUtf8(),
                     orderCurrency = p.orderCurrency.toUtf8(), state = p.orderState.toUtf8();
    PaymentView view;
    view.id = p.id;
    view.orderId = utf8View(orderId);
    view.channel = utf8View(channel);
    view.channelTxnId = utf8View(txn);
    view.amountMinor = p.amountMinor;
    view.currency = utf8View(currency);
    view.refundedMinor = p.refundedMinor;
    view.settled = p.settled;
    view.capturedAtMs = p.capturedAtMs;
    view.refundedAtMs = p.refundedAtMs;
    view.orderAmountMinor = p.orderAmountMinor;
    view.orderCurrency = utf8View(orderCurrency);
    view.orderState = utf8View(state);
    addPayment(view);
}

void ReconciliationStore::keepLinesOf(const QList<std::pair<QString, QString>> &transactions)
{
    for (const auto &[channel, txn] : transactions) {
        m_keepTxns.insert(txn.toUtf8());
        m_keepTransactions.insert((channel + QChar(0x1f) + txn).toUtf8());
    }
}

bool ReconciliationStore::kept(const LineView &l) const
{
    if (m_keepTxns.isEmpty())
        return false;
    // Most lines are no such transaction's: looked up by their id's bytes, without a copy.
    const QByteArray txn =
        QByteArray::fromRawData(l.channelTxnId.data(), qsizetype(l.channelTxnId.size()));
    if (!m_keepTxns.contains(txn))
        return false;
    QByteArray key(l.channel.data(), qsizetype(l.channel.size()));
    key += '\x1f';
    key += txn;
    return m_keepTransactions.contains(key);
}

void ReconciliationStore::addLine(const LineView &l)
{
    const quint16 channel = atom(l.channel);
    const quint16 kind = atom(l.kind);
    const qsizetype at = find(channel, l.channelTxnId);
    if (at < 0) {
        const bool inPeriod = l.settledAtMs >= m_from && l.settledAtMs < m_to;
        if (inPeriod || kept(l)) { // every kind: none is dropped unseen
            LineFact f;
            f.id = l.id;
            f.channel = text(channel);
            f.channelTxnId =
                QString::fromUtf8(l.channelTxnId.data(), qsizetype(l.channelTxnId.size()));
            f.kind = text(kind);
            f.grossMinor = l.grossMinor;
            f.feeMinor = l.feeMinor;
            f.currency = text(atom(l.currency));
            f.settledAtMs = l.settledAtMs;
            f.transactedAtMs = l.transactedAtMs;
            m_unmatched << f;
        }
        return;
    }
    Slot &s = m_slots[size_t(at)];
    Line line;
    line.id = l.id;
    line.grossMinor = l.grossMinor;
    line.feeMinor = l.feeMinor;
    line.settledAtMs = l.settledAtMs;
    line.transactedAtMs = l.transactedAtMs;
    line.currency = atom(l.currency);
    line.kind = kind;
    auto push = [&](qint32 &head, const Line &x) {
        m_extra.push_back(x);
        m_extra.back().next = head;
        head = qint32(m_extra.size() - 1);
    };
    if (kind != m_charge && kind != m_refund) {
        push(s.others, line); // a chargeback, an adjustment, a kind unknown: reported
    } else if (kind == m_refund) {
        push(s.refunds, line);
    } else if (!s.hasCharge) {
        s.charge = line;
        s.hasCharge = true;
    } else if (line.id < s.charge.id) {
        push(s.extraCharges, s.charge);
        s.charge = line;
    } else {
        push(s.extraCharges, line);
    }
}

void ReconciliationStore::addLine(const LineFact &l)
{
    const QByteArray channel = l.channel.toUtf8(), txn = l.channelTxnId.toUtf8(),
                     kind = l.kind.toUtf8(), currency = l.currency.toUtf8();
    LineView view;
    view.id = l.id;
    view.channel = utf8View(channel);
    view.channelTxnId = utf8View(txn);
    view.kind = utf8View(kind);
    view.grossMinor = l.grossMinor;
    view.feeMinor = l.feeMinor;
    view.currency = utf8View(currency);
    view.settledAtMs = l.settledAtMs;
    view.transactedAtMs = l.transactedAtMs;
    addLine(view);
}

PaymentFact ReconciliationStore::payment(const Slot &s) const
{
    PaymentFact p;
    p.id = s.id;
    p.orderId = string(s.orderId);
    p.channel = text(s.channel);
    p.channelTxnId = string(s.txn);
    p.amountMinor = s.amountMinor;
    p.currency = text(s.currency);
    p.refundedMinor = s.refundedMinor;
    p.settled = s.settled;
    p.capturedAtMs = s.capturedAtMs;
    p.refundedAtMs = s.refundedAtMs;
    p.orderAmountMinor = s.orderAmountMinor;
    p.orderCurrency = text(s.orderCurrency);
    p.orderState = text(s.orderState);
    return p;
}

LineFact ReconciliationStore::line(const Slot &s, const Line &l) const
{
    LineFact f;
    f.id = l.id;
    f.channel = text(s.channel);
    f.channelTxnId = string(s.txn);
    f.kind = text(l.kind);
    f.grossMinor = l.grossMinor;
    f.feeMinor = l.feeMinor;
    f.currency = text(l.currency);
    f.settledAtMs = l.settledAtMs;
    f.transactedAtMs = l.transactedAtMs;
    return f;
}

} // namespace OncePay
