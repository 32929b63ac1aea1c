#pragma once

// The console's shell: navigation on the left, one page per view, a status bar with the
// health of the three databases, and the log pane at the bottom.
// Thread contract: GUI thread only. Owns its pages.

#include "config/appconfig.h"

#include <QMainWindow>

class QLabel;
class QListWidget;
class QStackedWidget;

namespace OncePay {

class ConnectionsPage;
class LogPane;
struct RoleStatus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const AppConfig &config, QWidget *parent = nullptr);

    ConnectionsPage *connectionsPage() const { return m_connections; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void showStatuses(const QList<RoleStatus> &statuses);
    void restoreLayout();

    AppConfig m_config;
    QListWidget *m_nav = nullptr;
    QStackedWidget *m_pages = nullptr;
    ConnectionsPage *m_connections = nullptr;
    LogPane *m_log = nullptr;
    QList<QLabel *> m_roleLabels;
};

} // namespace OncePay
