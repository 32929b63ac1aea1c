#pragma once

// One row per database role (orders, messages, audit) with its driver, target, versions and
// health, as HealthCheck reported them.
// Thread contract: GUI thread only; fed with plain RoleStatus values computed elsewhere.

#include "db/healthcheck.h"

#include <QAbstractTableModel>

namespace OncePay {

class ConnectionStatusModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Role, Status, Driver, Target, Server, Schema, ColumnCount };

    explicit ConnectionStatusModel(QObject *parent = nullptr);

    void setStatuses(const QList<RoleStatus> &statuses);
    const QList<RoleStatus> &statuses() const { return m_rows; }
    bool allReachable() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<RoleStatus> m_rows;
};

} // namespace OncePay
