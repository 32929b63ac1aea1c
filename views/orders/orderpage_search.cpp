// The order page's search and hits: the search box answered (by its look-ahead or a read), the
// hit list, and the order a hit or a hand-over opens. The rest of OrderPage is in orderpage.cpp.

#include "orderpage.h"

#include "common/backgroundquery.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "orders/searchlookahead.h"

#include <QLineEdit>
#include <QTableView>

namespace OncePay {

void OrderPage::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

void OrderPage::search(const QString &term)
{
    if (m_search->text() != term)
        m_search->setText(term);
    const quint64 generation = ++m_generation;
    const QString trimmed = term.trimmed();
    // What the box looked up as it was typed or pasted answers the search if it may
    // (searchlookahead.h); if that lookup is still on its way, the search waits for it.
    std::optional<SearchLookAhead::Answer> answer;
    switch (m_lookAhead->take(
        trimmed, &answer,
        [this, generation, trimmed](const std::optional<SearchLookAhead::Answer> &a) {
            if (generation != m_generation)
                return; // another read superseded this search
            if (!a)
                return readSearch(generation, trimmed);
            m_reading = false;
            updateBusy();
            showHits(trimmed, *a);
        })) {
    case SearchLookAhead::Take::Answer:
        m_reading = false; // what was in flight is superseded, as by any new read
        updateBusy();
        showHits(trimmed, *answer);
        return;
    case SearchLookAhead::Take::Wait: beginWait(tr("Searching…")); return;
    case SearchLookAhead::Take::Read: break;
    }
    beginWait(tr("Searching…"));
    readSearch(generation, trimmed);
}

void OrderPage::readSearch(quint64 generation, const QString &term)
{
    const Actor actor = m_actor;
    runBackgroundQuery<QList<OrderHit>>(
        this, m_orders, QStringLiteral("search"),
        [term, actor](const Connection &c) { return OrderSearch(c).search(term, actor); },
        [this, generation, term](const Result<QList<OrderHit>> &r) {
            if (generation != m_generation)
                return;
            m_reading = false;
            updateBusy();
            showHits(term, r);
        });
}

void OrderPage::showHits(const QString &term, const Result<QList<OrderHit>> &r)
{
    if (!r) { // as for no hit: nothing of an earlier search stays on the page
        m_hits->setRows({});
        m_hitTable->hide();
        showNoOrder();
        setStatus(errorText(r.error()), true);
        Q_EMIT failed(m_status->text());
        Q_EMIT searched(0);
        return;
    }
    // Orders first; after them, callbacks that name an order which does not exist (a ghost
    // order's dead letters) — alone, or beside orders found by a transaction id that another
    // channel also carries (OrderSearch::search).
    QList<OrderHit> orders, unknown;
    for (const OrderHit &h : *r) {
        if (h.matchedBy == MatchKind::UnknownOrderCallback) {
            unknown << h;
            continue;
        }
        orders << h; // a transaction hit names its channel in the list (OrderHitModel)
    }
    // No order: said as such, not as "nothing found".
    if (orders.isEmpty() && !unknown.isEmpty()) {
        m_hits->setRows({});
        m_hitTable->hide();
        showNoOrder();
        setStatus(unknownOrderText(unknown), true);
        Q_EMIT searched(0);
        return;
    }
    // Beside a ghost order's callback a single order is not opened at once: the reader
    // chooses, having read both.
    const bool choose = orders.size() > 1 || !unknown.isEmpty();
    // With a list to choose from, no order is on the page: its detail goes first. Showing a
    // widget lays its window out at once (QWidget::setVisible activates every layout above
    // it), which with the previous order's detail still there took 1–2 ms.
    if (choose || orders.isEmpty())
        showNoOrder();
    m_hits->setRows(orders);
    m_hitTable->setVisible(choose);
    if (choose) // a single hit opens at once; its list stays hidden
        m_hitTable->resizeColumnsToContents();
    if (orders.isEmpty()) {
        setStatus(tr("No order matches “%1”.").arg(term), true);
    } else if (!unknown.isEmpty()) {
        setStatus(tr("%n order(s) match “%1”; choose one. It also matches callbacks for"
                     " orders that do not exist:",
                     nullptr, int(orders.size()))
                          .arg(term) +
                      QLatin1Char('\n') + unknownOrderText(unknown),
                  true);
    } else if (orders.size() > 1) {
        setStatus(tr("%n orders match; choose one.", nullptr, int(orders.size())));
    }
    Q_EMIT searched(int(orders.size()));
    // A single hit opens at once — after the search has answered: asking for the order wakes
    // a pool thread, which took the GUI thread's CPU for up to 1 ms before `searched` was
    // emitted.
    if (!choose && orders.size() == 1)
        openOrder(orders.first().order.orderId);
}

QString OrderPage::unknownOrderText(const QList<OrderHit> &hits)
{
    constexpr int kShown = 5;
    QStringList lines;
    for (const OrderHit &h : hits) {
        if (lines.size() == kShown) {
            lines << tr("… and %n more callback(s) for unknown orders.", nullptr,
                        int(hits.size()) - kShown);
            break;
        }
        const UnknownOrderCallback &c = h.callback;
        const QString head = c.orderRef.isEmpty()
                                 ? tr("Callback %1 (transaction %2) belongs to no order")
                                       .arg(c.callbackId, c.channelTxnId)
                                 : tr("Callback %1 names order %2, which does not exist")
                                       .arg(c.callbackId, c.orderRef);
        const QString state =
            tr("%1 after %n attempt(s)", nullptr, c.attempts).arg(Labels::messageStatus(c.status));
        lines << (c.lastError.isEmpty() ? tr("%1: %2.").arg(head, state)
                                        : tr("%1: %2 — last error: %3")
                                              .arg(head, state, Labels::engineText(c.lastError)));
    }
    return lines.join(QLatin1Char('\n'));
}

void OrderPage::openOrder(const QString &orderId)
{
    const quint64 generation = ++m_generation;
    beginWait(tr("Loading order %1…").arg(orderId));
    const Actor actor = m_actor;
    runBackgroundQuery<OrderPicture>(
        this, m_orders, QStringLiteral("order"),
        [orderId, actor](const Connection &c) { return OrderPictureQuery(c).load(orderId, actor); },
        [this, generation, orderId](const Result<OrderPicture> &r) {
            if (generation != m_generation)
                return;
            if (!r && r.error().code == ErrorCode::NotFound)
                return explainMissingOrder(generation, orderId, r.error());
            m_reading = false;
            updateBusy();
            if (!r) {
                showNoOrder();
                setStatus(errorText(r.error()), true);
                Q_EMIT failed(m_status->text());
                return;
            }
            showPicture(*r);
            Q_EMIT orderLoaded(r->order.orderId);
        });
}

void OrderPage::explainMissingOrder(quint64 generation, const QString &orderId,
                                    const Error &notFound)
{
    // An order handed over (a fix's "Open order", the stuck list) that does not exist may be
    // one that only callbacks name: the page says which, and what became of them.
    const Actor actor = m_actor;
    runBackgroundQuery<QList<OrderHit>>(
        this, m_orders, QStringLiteral("search"),
        [orderId, actor](const Connection &c) { return OrderSearch(c).search(orderId, actor); },
        [this, generation, notFound](const Result<QList<OrderHit>> &r) {
            if (generation != m_generation)
                return;
            m_reading = false;
            updateBusy();
            showNoOrder();
            if (r && !r->isEmpty() && r->first().matchedBy == MatchKind::UnknownOrderCallback) {
                setStatus(unknownOrderText(*r), true);
            } else {
                setStatus(errorText(notFound), true);
            }
            Q_EMIT failed(m_status->text());
        });
}

void OrderPage::showOrder(const QString &orderId)
{
    m_search->setText(orderId);
    m_hits->setRows({}); // a list of an earlier search does not stay beside it
    m_hitTable->hide();
    openOrder(orderId);
}

} // namespace OncePay
