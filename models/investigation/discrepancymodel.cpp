#include "discrepancymodel.h"

#include "common/labels.h"

#include <QFont>

namespace OncePay {

namespace {

QVariant amountCell(const QString &currency, qint64 minor, int role)
{
    if (role == Qt::DisplayRole)
        return currency.isEmpty() ? QString::number(minor) : Labels::money(minor, currency);
    if (role == SortRole)
        return Labels::moneySortKey(minor, currency);
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace

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
        return amountCell(d.currency, d.amountMinor, role);
    });
}

DiscrepancyCurrencyTotalModel::DiscrepancyCurrencyTotalModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto bold = [](int role) -> QVariant {
        if (role != Qt::FontRole)
            return {};
        QFont f;
        f.setBold(true);
        return f;
    };
    addColumn(tr("Channel"), [bold](const DiscrepancyCurrencyTotal &t, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return t.currency.isEmpty() ? tr("Total, no currency") : tr("Total");
        return bold(role);
    });
    addColumn(tr("Open"), [bold](const DiscrepancyCurrencyTotal &t, int role) -> QVariant {
        return role == Qt::DisplayRole ? QVariant(t.count) : bold(role);
    });
    addColumn(
        tr("Amount at issue"), [bold](const DiscrepancyCurrencyTotal &t, int role) -> QVariant {
            if (!t.amountMinor)
                return role == Qt::DisplayRole ? QVariant(tr("too large to total")) : bold(role);
            if (role == Qt::FontRole)
                return bold(role);
            return amountCell(t.currency, *t.amountMinor, role);
        });
}

} // namespace OncePay
