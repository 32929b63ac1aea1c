#include "stuckmodel.h"

#include "common/enginetext.h"
#include "common/labels.h"

namespace OncePay {

StuckModel::StuckModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto add = [this](const QString &title, Cell cell) { addColumn(title, std::move(cell)); };
    const auto cell = [](auto fn) {
        return [fn](const StuckRecord &r, int role) -> QVariant {
            if (role == Qt::DisplayRole)
                return fn(r);
            return {};
        };
    };
    add(tr("Kind"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::stuckKind(r.kind);
        if (role == SortRole)
            return int(r.kind);
        return {};
    });
    add(tr("Age"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::age(r.ageMs);
        if (role == SortRole)
            return r.ageMs;
        if (role == Qt::ToolTipRole)
            return tr("since %1").arg(Labels::time(r.sinceMs));
        return {};
    });
    add(tr("Order"), cell([](const StuckRecord &r) { return r.orderId; }));
    add(tr("Channel"), cell([](const StuckRecord &r) { return r.channel; }));
    add(tr("Status"), cell([](const StuckRecord &r) {
            if (r.kind == StuckKind::OrderInFlight)
                return Labels::orderState(r.status);
            if (r.kind == StuckKind::RefundObligation)
                return tr("to refund");
            if (r.kind == StuckKind::PendingIdempotency)
                return Labels::requestOperation(r.status); // the request's operation
            return Labels::messageStatus(r.status);
        }));
    add(tr("Tries"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.attempts ? QString::number(r.attempts) : QString();
        if (role == SortRole)
            return r.attempts; // 3 before 12 before 100, not as text
        return {};
    });
    add(tr("Amount"), [](const StuckRecord &r, int role) -> QVariant {
        if (!r.hasAmount || r.currency.isEmpty())
            return {};
        if (role == Qt::DisplayRole)
            return Labels::money(r.amountMinor, r.currency);
        if (role == SortRole)
            return Labels::moneySortKey(r.amountMinor, r.currency);
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    });
    add(tr("Reference"), cell([](const StuckRecord &r) {
            return r.callbackId.isEmpty() ? r.reference : r.callbackId;
        }));
    add(tr("Reason / last error"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.kind == StuckKind::PendingIdempotency ? Labels::requestOutcome(r.lastError)
                                                           : Labels::engineText(r.lastError);
        if (role == Qt::ToolTipRole)
            return r.lastError; // as the engine stored it
        return {};
    });
}

QVariant StuckModel::data(const QModelIndex &index, int role) const
{
    if (role == OrderIdRole && index.isValid()) // every cell opens the row's order
        return rowAt(index.row()).orderId;
    return RowTableModel::data(index, role);
}

bool StuckModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_more;
}

void StuckModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        Q_EMIT moreWanted();
}

} // namespace OncePay
