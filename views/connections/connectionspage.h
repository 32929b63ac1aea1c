#pragma once

// The three connection profiles and their health. The check runs on the health check's own
// pool thread (healthCheckPool()) and its result comes back queued; one check at a time: a
// refresh() while one runs is skipped (its answer is coming), so a check slower than the
// console's interval still shows.
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

    // Whether a check is running (refresh() does nothing meanwhile).
    bool isChecking() const { return m_checking; }

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
    bool m_checking = false;
};

} // namespace OncePay
