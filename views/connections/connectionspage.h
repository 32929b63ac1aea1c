#pragma once

// The three connection profiles and their health. The check runs on a pool thread and its
// result comes back queued; an older answer than the last request is dropped.
// Thread contract: GUI thread only.

#include "config/appconfig.h"
#include "db/healthcheck.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace OncePay {

class ConnectionStatusModel;

class ConnectionsPage : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionsPage(const AppConfig &config, QWidget *parent = nullptr);

    ConnectionStatusModel *model() const { return m_model; }

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    void statusesChanged(const QList<OncePay::RoleStatus> &statuses);

private:
    AppConfig m_config;
    ConnectionStatusModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_refresh = nullptr;
    QLabel *m_summary = nullptr;
    quint64 m_generation = 0;
};

} // namespace OncePay
