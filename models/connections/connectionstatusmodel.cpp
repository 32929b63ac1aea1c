#include "connectionstatusmodel.h"

#include <QBrush>
#include <QColor>

namespace OncePay {

ConnectionStatusModel::ConnectionStatusModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void ConnectionStatusModel::setStatuses(const QList<RoleStatus> &statuses)
{
    beginResetModel();
    m_rows = statuses;
    endResetModel();
}

bool ConnectionStatusModel::allReachable() const
{
    if (m_rows.isEmpty())
        return false;
    for (const auto &s : m_rows)
        if (!s.reachable)
            return false;
    return true;
}

int ConnectionStatusModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ConnectionStatusModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConnectionStatusModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RoleStatus &s = m_rows.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Role:
            return roleName(s.role) == u"orders"     ? tr("Orders")
                   : roleName(s.role) == u"messages" ? tr("Messages")
                                                     : tr("Audit");
        case Status:
            if (!s.reachable)
                return tr("Unreachable");
            return s.error.isEmpty() ? tr("Reachable") : tr("Reachable (%1)").arg(s.error);
        case Driver: return s.driver;
        case Target:
            return s.sharesOrders ? tr("%1 (same database as orders)").arg(s.target) : s.target;
        case Server: return s.serverVersion;
        case Schema:
            return s.reachable ? tr("%1 of %2").arg(s.schemaVersion).arg(s.latestVersion)
                               : QString();
        }
    }
    if (role == Qt::ToolTipRole && !s.error.isEmpty())
        return s.error;
    if (role == Qt::ForegroundRole && index.column() == Status)
        return QBrush(s.reachable ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb3, 0x1b, 0x1b));
    return {};
}

QVariant ConnectionStatusModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Role: return tr("Database");
    case Status: return tr("Status");
    case Driver: return tr("Driver");
    case Target: return tr("Location");
    case Server: return tr("Server version");
    case Schema: return tr("Schema");
    }
    return {};
}

} // namespace OncePay
