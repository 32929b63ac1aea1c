#include "discrepancymodel.h"

#include "common/labels.h"

namespace OncePay {

DiscrepancyTotalModel::DiscrepancyTotalModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Channel"), [](const DiscrepancyTotal &d, int role) -> QVariant {
        return role == Qt::DisplayRole ? QVariant(d.channel) : QVariant();
    });
    addColumn(tr("Open"), [](const DiscrepancyTotal &d, int role) -> QVariant {
        return role == Qt::DisplayRole ? QVariant(d.count) : QVariant();
    });
    addColumn(tr("Amount at issue"), [](const DiscrepancyTotal &d, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return d.currency.isEmpty() ? QString::number(d.amountMinor)
                                        : Labels::money(d.amountMinor, d.currency);
        if (role == SortRole)
            return d.amountMinor;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    });
}

} // namespace OncePay
