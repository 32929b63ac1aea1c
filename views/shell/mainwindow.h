#pragma once

// The console's shell: navigation on the left (Ctrl+1…), one page per view, a status bar
// with the health of the three databases (checked again every 30 s, so a lost connection
// shows and recovers) and the signed-in person and role, and the log pane at the bottom.
// Which views are offered follows the role (auth/permissions.h); the services check again.
// A view's page is built when it is first shown or asked for, so the window opens with the
// one page it shows.
// Remembers geometry, dock layout and the last view. A page that fails to load asks for a
// health check at once, so a lost connection shows without waiting for the next round.
// The same tick reads the signed-in account again (off the GUI thread), and so does a page's
// failure (a refusal for staff_disabled or role_changed comes as one): an account found
// disabled, removed or with another role ends the session — audited sign-out with the reason,
// dialogs and views closed, signedOut() with sessionEndNotice() saying why. Every ending of the
// window's session (Sign out, close, the application quitting) records the sign-out once.
// Console ▸ Connection profiles… edits, tests and switches the profiles (the caller signs in
// again on the new databases); Preferences… switches the language (the caller rebuilds the
// window).
// Thread contract: GUI thread only. Owns its pages.

#include "auth/staffaccount.h"
#include "config/appconfig.h"

#include <QFuture>
#include <QMainWindow>

class QLabel;
class QListWidget;
class QSplitter;
class QStackedWidget;
class QTimer;

namespace OncePay {

class ConnectionsPage;
class DashboardPage;
class LogPane;
class OrderPage;
class StuckPage;
class ApprovalsPage;
class ReconciliationPage;
class AuditTrailPage;
class AdminPage;
struct RoleStatus;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(const AppConfig &config, const StaffAccount &account, QWidget *parent = nullptr);
    // Waits for the audited sign-out: it logs, and the log pane's sink dies with this window.
    ~MainWindow() override;

    // The pages, built on first use (nullptr when the role is not offered the view).
    ConnectionsPage *connectionsPage() const { return m_connections; }
    DashboardPage *dashboardPage() const;
    OrderPage *orderPage() const;
    StuckPage *stuckPage() const;
    ApprovalsPage *approvalsPage() const;
    ReconciliationPage *reconciliationPage() const;
    AuditTrailPage *auditTrailPage() const;
    AdminPage *adminPage() const;
    QListWidget *navigation() const { return m_nav; }
    QString currentView() const;
    QStringList views() const;
    // Every view's name, in the navigation's order (showView, the console's --view); a role is
    // offered only those its rights allow (views()).
    static QStringList allViewNames();
    QString signedInText() const;
    // The health check's (and account check's) interval: 30 s; tests make it short.
    void setHealthCheckInterval(int ms);
    // Why the console ended the session itself (the account disabled, removed, its role
    // changed), translated, for the sign-in dialog; empty while signed in or after the
    // person's own Sign out.
    QString sessionEndNotice() const { return m_endNotice; }
    // Records the audited sign-out, once for this window whatever ends it, off the GUI thread
    // (the destructor waits for it); `reason` when something other than the person ended the
    // session (e.g. "sigterm"). A window rebuilt for another language keeps the session:
    // keepSessionOnQuit() before quitting for it.
    void recordSignOut(const QString &reason = {});
    void keepSessionOnQuit() { m_keepSession = true; }

public Q_SLOTS:
    // "dashboard", "orders", "stuck", "approvals", "reconciliation", "audit", "admin",
    // "databases"; unknown or not offered: the first view.
    void showView(const QString &name);
    void openOrder(const QString &orderId);
    void signOut();
    void editProfiles();
    void editPreferences();
    // Reads the signed-in account again on a pool thread; ends the session if it has been
    // disabled, removed or given another role. A failed read decides nothing.
    void checkAccount();

Q_SIGNALS:
    void signedOut();
    // Emitted after the new profiles were saved; the window is hidden, the caller switches.
    void profilesSwitched(const OncePay::AppConfig &config);
    // Emitted after another language was chosen; the caller rebuilds the window.
    void languageChanged();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void addView(const QString &name, const QString &title);
    // Builds the view's page in place of its stand-in on first use; returns it.
    QWidget *buildPage(int row);
    QWidget *page(const QString &name) const;
    void buildMenus();
    void showStatuses(const QList<RoleStatus> &statuses);
    void restoreLayout();
    void saveLayout();
    // The console ends the session: `reason` audited, `notice` for the sign-in dialog.
    void endSession(const QString &reason, const QString &notice);
    void leave();

    AppConfig m_config;
    StaffAccount m_account;
    QListWidget *m_nav = nullptr;
    QSplitter *m_split = nullptr;
    QStackedWidget *m_pages = nullptr;
    DashboardPage *m_dashboard = nullptr;
    OrderPage *m_orderPage = nullptr;
    StuckPage *m_stuck = nullptr;
    ApprovalsPage *m_approvals = nullptr;
    ReconciliationPage *m_reconciliation = nullptr;
    AuditTrailPage *m_auditTrail = nullptr;
    AdminPage *m_admin = nullptr;
    ConnectionsPage *m_connections = nullptr;
    LogPane *m_log = nullptr;
    QList<QLabel *> m_roleLabels;
    QLabel *m_person = nullptr;
    QTimer *m_healthTimer = nullptr;
    QStringList m_viewNames;
    QSet<QString> m_loaded;
    QSet<QString> m_built;
    bool m_signedOut = false;
    bool m_keepSession = false;
    bool m_checkingAccount = false;
    QString m_endNotice;
    QFuture<void> m_signOutTask;
};

} // namespace OncePay
