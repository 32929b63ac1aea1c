#pragma once

// One row per database role (orders, messages, audit) with its driver, target, versions and
// health, as HealthCheck reported them. Health reads as one of three states — OK, a warning
// (reachable, but the schema is older or newer than this console expects) or down
// (unreachable, or the SQLite file is missing) — in colour, in words and, as the tooltip, the
// reason; the status bar uses the same words (healthText, reasonText, healthColor).
// Thread contract: GUI thread only; fed with plain RoleStatus values computed elsewhere.

#include "db/healthcheck.h"

#include <QAbstractTableModel>
#include <QColor>

namespace OncePay {

class ConnectionStatusModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Role, Status, Driver, Target, Server, Schema, ColumnCount };

    explicit ConnectionStatusModel(QObject *parent = nullptr);

    void setStatuses(const QList<RoleStatus> &statuses);
    const QList<RoleStatus> &statuses() const { return m_rows; }
    // The worst of the three: Down if any is down (or nothing was checked yet), else Warning
    // if any schema is not what this console expects, else Ok.
    Health worstHealth() const;

    // The state in a few words ("OK", "Migration pending", "Newer than this console",
    // "File not found", "Unreachable"), translated.
    static QString healthText(const RoleStatus &s);
    // Why, in a sentence or two, translated: which schema versions, what to do, which file.
    static QString reasonText(const RoleStatus &s);
    // Green, amber, red: readable on a light background.
    static QColor healthColor(Health health);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<RoleStatus> m_rows;
};

} // namespace OncePay
