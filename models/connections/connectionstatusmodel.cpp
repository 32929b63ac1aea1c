#include "connectionstatusmodel.h"

#include "common/enginetext.h"

#include <algorithm>

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

Health ConnectionStatusModel::worstHealth() const
{
    if (m_rows.isEmpty())
        return Health::Down;
    Health worst = Health::Ok;
    for (const auto &s : m_rows)
        worst = std::max(worst, s.health());
    return worst;
}

QString ConnectionStatusModel::healthText(const RoleStatus &s)
{
    switch (s.health()) {
    case Health::Ok: return tr("OK");
    case Health::Warning:
        return s.schemaNewer() ? tr("Newer than this console") : tr("Migration pending");
    case Health::Down:
        return s.fileMissing    ? tr("File not found")
               : s.loginRefused ? tr("Login refused")
               : s.wrongSchema  ? tr("Wrong database")
                                : tr("Unreachable");
    }
    return {};
}

QString ConnectionStatusModel::reasonText(const RoleStatus &s)
{
    switch (s.health()) {
    case Health::Ok:
        return tr("Reachable; schema version %1, the one this console expects.")
            .arg(s.schemaVersion);
    case Health::Warning:
        if (s.schemaNewer())
            return tr("The database has schema version %1, newer than this console knows (%2):"
                      " this console is older than the database. Upgrade the console to the"
                      " engine's version; until then it shows no data from this database and"
                      " writes nothing to it.")
                .arg(s.schemaVersion)
                .arg(s.latestVersion);
        return tr("The database has schema version %1; this console expects %2. A migration is"
                  " pending: run “oncepay db migrate”.")
            .arg(s.schemaVersion)
            .arg(s.latestVersion);
    case Health::Down:
        if (s.fileMissing)
            return tr("database file not found: %1").arg(s.path);
        if (s.loginRefused)
            return tr("The server refused the login; check the user, its password and the"
                      " database name in the connection profile: %1")
                .arg(s.error);
        if (s.wrongSchema) // the engine's sentence names which database this is
            return tr("Reachable, but not this profile's database: %1")
                .arg(Labels::engineText(s.error));
        return tr("Cannot reach the database: %1").arg(s.error);
    }
    return {};
}

QColor ConnectionStatusModel::healthColor(Health health)
{
    switch (health) {
    case Health::Ok: return QColor(0x1b, 0x7f, 0x3b);
    case Health::Warning: return QColor(0x9a, 0x5b, 0x00);
    case Health::Down: return QColor(0xb3, 0x1b, 0x1b);
    }
    return {};
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
        case Status: return healthText(s);
        case Driver: return s.driver;
        case Target:
            return s.sharesOrders ? tr("%1 (same database as orders)").arg(s.target) : s.target;
        case Server: return s.serverVersion;
        case Schema:
            return s.reachable ? tr("%1 of %2").arg(s.schemaVersion).arg(s.latestVersion)
                               : QString();
        }
    }
    if (role == Qt::ToolTipRole)
        return reasonText(s);
    if (role == Qt::ForegroundRole && index.column() == Status)
        return QBrush(healthColor(s.health()));
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
