#include "stuckmodel.h"

#include "common/enginetext.h"
#include "common/labels.h"

namespace OncePay {

StuckModel::StuckModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto cell = [](auto fn) {
        return [fn](const StuckRecord &r, int role) -> QVariant {
            if (role == Qt::DisplayRole)
                return fn(r);
            if (role == OrderIdRole)
                return r.orderId;
            return {};
        };
    };
    addColumn(tr("Kind"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::stuckKind(r.kind);
        if (role == SortRole)
            return int(r.kind);
        if (role == OrderIdRole)
            return r.orderId;
        return {};
    });
    addColumn(tr("Age"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::age(r.ageMs);
        if (role == SortRole)
            return r.ageMs;
        if (role == Qt::ToolTipRole)
            return tr("since %1").arg(Labels::time(r.sinceMs));
        if (role == OrderIdRole)
            return r.orderId;
        return {};
    });
    addColumn(tr("Order"), cell([](const StuckRecord &r) { return r.orderId; }));
    addColumn(tr("Channel"), cell([](const StuckRecord &r) { return r.channel; }));
    addColumn(tr("Status"), cell([](const StuckRecord &r) {
                  if (r.kind == StuckKind::OrderInFlight)
                      return Labels::orderState(r.status);
                  if (r.kind == StuckKind::RefundObligation)
                      return tr("to refund");
                  if (r.kind == StuckKind::PendingIdempotency)
                      return Labels::requestOperation(r.status); // the request's operation
                  return Labels::messageStatus(r.status);
              }));
    addColumn(tr("Tries"), cell([](const StuckRecord &r) {
                  return r.attempts ? QString::number(r.attempts) : QString();
              }));
    addColumn(tr("Amount"), [](const StuckRecord &r, int role) -> QVariant {
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
    addColumn(tr("Reference"), cell([](const StuckRecord &r) {
                  return r.callbackId.isEmpty() ? r.reference : r.callbackId;
              }));
    addColumn(tr("Reason / last error"), [](const StuckRecord &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.kind == StuckKind::PendingIdempotency ? Labels::requestOutcome(r.lastError)
                                                           : Labels::engineText(r.lastError);
        if (role == Qt::ToolTipRole)
            return r.lastError; // as the engine stored it
        if (role == OrderIdRole)
            return r.orderId;
        return {};
    });
}

} // namespace OncePay
