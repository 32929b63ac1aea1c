#include "mainwindow.h"

#include "admin/adminpage.h"
#include "approvals/approvalspage.h"
#include "audit/audittrailpage.h"
#include "auth/permissions.h"
#include "auth/staffsession.h"
#include "common/backgroundquery.h"
#include "common/labels.h"
#include "common/preferencesdialog.h"
#include "common/taskpool.h"
#include "connections/connectionprofilesdialog.h"
#include "connections/connectionspage.h"
#include "connections/connectionstatusmodel.h"
#include "connections/keychainstore.h"
#include "dashboard/dashboardpage.h"
#include "db/connection.h"
#include "investigation/investigationdb.h"
#include "log/logpane.h"
#include "orders/orderpage.h"
#include "reconciliation/reconciliationpage.h"
#include "stuck/stuckpage.h"

#include <QCloseEvent>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSysInfo>
#include <QTimer>

#include <QtConcurrent>
#include <spdlog/spdlog.h>

#include <type_traits>

namespace OncePay {

namespace {

// What the log says of a database's state; `before` is the state logged last ("" = none yet).
// The profile is described without its password.
void logHealth(const RoleStatus &s, const QString &before)
{
    const std::string role = roleName(s.role).toStdString();
    const std::string target = s.target.toStdString();
    switch (s.health()) {
    case Health::Ok:
        spdlog::info("{} database {}: {}{}, schema version {}{}", role,
                     before.isEmpty()    ? "opened"
                     : before == u"down" ? "reachable again"
                                         : "up to date again",
                     target, s.sharesOrders ? " (the orders connection)" : "", s.schemaVersion,
                     s.serverVersion.isEmpty() ? std::string()
                                               : ", server " + s.serverVersion.toStdString());
        break;
    case Health::Warning:
        spdlog::warn("{} database {}: {}", role, target, s.error.toStdString());
        break;
    case Health::Down:
        spdlog::warn("{} database {} unreachable: {}", role, target, s.error.toStdString());
        break;
    }
}

} // namespace

MainWindow::MainWindow(const AppConfig &config, const StaffAccount &account, QWidget *parent)
    : QMainWindow(parent)
    , m_config(config)
    , m_account(account)
{
    setWindowTitle(tr("OncePay Console — %1").arg(account.username));
    setObjectName(QStringLiteral("mainWindow"));

    m_nav = new QListWidget(this);
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setMinimumWidth(120);
    m_pages = new QStackedWidget(this);

    // Every role reads orders, messages and history (DESIGN.md §6); the audit trail is for
    // finance and auditors, administration for admins. What a role may not do is not offered
    // — and the services refuse it anyway. A page is built when first shown or asked for,
    // so the window opens with only the view it shows (the first window is painted sooner).
    if (can(account.role, Action::ReadOrders)) {
        addView(QStringLiteral("dashboard"), tr("Dashboard"));
        addView(QStringLiteral("orders"), tr("Order investigation"));
        addView(QStringLiteral("stuck"), tr("Stuck records"));
        addView(QStringLiteral("approvals"), tr("Approvals"));
        addView(QStringLiteral("reconciliation"), tr("Reconciliation"));
    }
    if (can(account.role, Action::ReadAudit))
        addView(QStringLiteral("audit"), tr("Audit trail"));
    if (can(account.role, Action::ManageStaff))
        addView(QStringLiteral("admin"), tr("Administration"));
    m_connections = new ConnectionsPage(m_config, this);
    addView(QStringLiteral("databases"), tr("Databases"));
    {
        // Built with the window: the status bar shows its health checks from the start.
        QWidget *standIn = m_pages->widget(m_viewNames.size() - 1);
        m_pages->removeWidget(standIn);
        delete standIn;
        m_pages->addWidget(m_connections);
        m_built.insert(QStringLiteral("databases"));
    }
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        QWidget *page = buildPage(row);
        if (!page)
            return;
        m_pages->setCurrentWidget(page);
        // Each view loads when first shown; later with its Refresh button (F5).
        const QString name = m_viewNames.value(row);
        if (m_loaded.contains(name))
            return;
        m_loaded.insert(name);
        if (name == u"dashboard")
            m_dashboard->refresh();
        else if (name == u"stuck")
            m_stuck->refresh();
        else if (name == u"approvals")
            m_approvals->refresh();
        else if (name == u"reconciliation")
            m_reconciliation->refresh();
        else if (name == u"audit")
            m_auditTrail->refresh();
        else if (name == u"admin")
            m_admin->refresh();
        else if (name == u"orders")
            m_orderPage->focusSearch();
    });

    m_split = new QSplitter(this);
    m_split->setObjectName(QStringLiteral("navigationSplit"));
    m_split->addWidget(m_nav);
    m_split->addWidget(m_pages);
    m_split->setStretchFactor(1, 1);
    m_split->setCollapsible(0, false);
    m_split->setCollapsible(1, false);
    setCentralWidget(m_split);

    m_log = new LogPane(this);
    auto *dock = new QDockWidget(tr("Log"), this);
    dock->setObjectName(QStringLiteral("logDock"));
    dock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    m_person = new QLabel(signedInText(), this);
    m_person->setObjectName(QStringLiteral("signedIn"));
    statusBar()->addWidget(m_person);
    const QStringList roles{QStringLiteral("orders"), QStringLiteral("messages"),
                            QStringLiteral("audit")};
    const QStringList names{tr("Orders"), tr("Messages"), tr("Audit")};
    for (int i = 0; i < roles.size(); ++i) {
        auto *label = new QLabel(tr("%1: checking…").arg(names[i]), this);
        label->setObjectName(roles[i] + QStringLiteral("Health"));
        m_roleLabels << label;
        statusBar()->addPermanentWidget(label);
    }
    connect(m_connections, &ConnectionsPage::statusesChanged, this, &MainWindow::showStatuses);
    m_healthTimer = new QTimer(this);
    m_healthTimer->setInterval(30 * 1000);
    connect(m_healthTimer, &QTimer::timeout, m_connections, &ConnectionsPage::refresh);
    connect(m_healthTimer, &QTimer::timeout, this, &MainWindow::checkAccount);
    m_healthTimer->start();
    // The desktop session ending, or anything else that quits the application: signed out.
    connect(qApp, &QCoreApplication::aboutToQuit, this, [this] {
        if (!m_keepSession)
            recordSignOut();
    });

    buildMenus();
    restoreLayout();
    m_connections->refresh();
    m_loaded.insert(QStringLiteral("databases"));
}

void MainWindow::addView(const QString &name, const QString &title)
{
    Q_ASSERT(allViewNames().contains(name)); // --view and showView know it
    m_viewNames << name;
    auto *item = new QListWidgetItem(title, m_nav);
    item->setData(Qt::UserRole, name);
    item->setToolTip(tr("%1 (Ctrl+%2)").arg(title).arg(m_viewNames.size()));
    m_pages->addWidget(new QWidget(m_pages)); // stands in until the page is built
}

QWidget *MainWindow::buildPage(int row)
{
    const QString name = m_viewNames.value(row);
    if (name.isEmpty())
        return nullptr;
    QWidget *placeholder = m_pages->widget(row);
    if (m_built.contains(name))
        return placeholder;
    m_built.insert(name);
    const Actor actor = m_account.actor();
    QWidget *page = nullptr;
    // A failed load is often the first sign of a lost connection: check now, not in 30 s. It
    // may also be a refusal of a disabled or demoted account: its account is read again now.
    auto checkOnFailure = [this](auto *p) {
        connect(p, &std::remove_pointer_t<decltype(p)>::failed, m_connections,
                &ConnectionsPage::refresh);
        connect(p, &std::remove_pointer_t<decltype(p)>::failed, this, &MainWindow::checkAccount);
    };
    // A proposal made anywhere shows in the approvals queue at its next look.
    auto refreshApprovals = [this] {
        if (m_approvals)
            m_approvals->refresh();
    };
    if (name == u"dashboard") {
        page = m_dashboard = new DashboardPage(m_config.orders, actor, this);
        checkOnFailure(m_dashboard);
    } else if (name == u"orders") {
        page = m_orderPage = new OrderPage(m_config.orders, actor, this);
        checkOnFailure(m_orderPage);
        connect(m_orderPage, &OrderPage::fixesProposed, this, refreshApprovals);
    } else if (name == u"stuck") {
        page = m_stuck = new StuckPage(m_config.orders, actor, this);
        checkOnFailure(m_stuck);
        connect(m_stuck, &StuckPage::openOrderRequested, this, &MainWindow::openOrder);
        connect(m_stuck, &StuckPage::searchOrdersRequested, this, [this](const QString &term) {
            if (!m_viewNames.contains(QStringLiteral("orders")))
                return;
            showView(QStringLiteral("orders"));
            m_orderPage->search(term);
        });
        connect(m_stuck, &StuckPage::fixesProposed, this, refreshApprovals);
    } else if (name == u"approvals") {
        page = m_approvals = new ApprovalsPage(m_config.orders, actor, this);
        checkOnFailure(m_approvals);
        connect(m_approvals, &ApprovalsPage::openOrderRequested, this, &MainWindow::openOrder);
    } else if (name == u"reconciliation") {
        page = m_reconciliation = new ReconciliationPage(m_config.orders, actor, this);
        checkOnFailure(m_reconciliation);
        connect(m_reconciliation, &ReconciliationPage::openOrderRequested, this,
                &MainWindow::openOrder);
    } else if (name == u"audit") {
        page = m_auditTrail = new AuditTrailPage(m_config, actor, this);
        connect(m_auditTrail, &AuditTrailPage::openOrderRequested, this, &MainWindow::openOrder);
    } else if (name == u"admin") {
        page = m_admin = new AdminPage(m_config.orders, actor, this);
        connect(m_admin, &AdminPage::changed, this, [this](bool ok) {
            if (!ok)
                checkAccount();
        });
    } else {
        return placeholder;
    }
    m_pages->insertWidget(row, page);
    m_pages->removeWidget(placeholder);
    placeholder->deleteLater();
    return page;
}

QWidget *MainWindow::page(const QString &name) const
{
    const int row = m_viewNames.indexOf(name);
    return row < 0 ? nullptr : const_cast<MainWindow *>(this)->buildPage(row);
}

DashboardPage *MainWindow::dashboardPage() const
{
    page(QStringLiteral("dashboard"));
    return m_dashboard;
}

OrderPage *MainWindow::orderPage() const
{
    page(QStringLiteral("orders"));
    return m_orderPage;
}

StuckPage *MainWindow::stuckPage() const
{
    page(QStringLiteral("stuck"));
    return m_stuck;
}

ApprovalsPage *MainWindow::approvalsPage() const
{
    page(QStringLiteral("approvals"));
    return m_approvals;
}

ReconciliationPage *MainWindow::reconciliationPage() const
{
    page(QStringLiteral("reconciliation"));
    return m_reconciliation;
}

AuditTrailPage *MainWindow::auditTrailPage() const
{
    page(QStringLiteral("audit"));
    return m_auditTrail;
}

AdminPage *MainWindow::adminPage() const
{
    page(QStringLiteral("admin"));
    return m_admin;
}

void MainWindow::buildMenus()
{
    QMenu *console = menuBar()->addMenu(tr("&Console"));
    console->addAction(tr("Connection &profiles…"), this, &MainWindow::editProfiles);
    QAction *prefs = console->addAction(tr("P&references…"), this, &MainWindow::editPreferences);
    prefs->setShortcut(QKeySequence::Preferences);
    console->addSeparator();
    QAction *out = console->addAction(tr("Sign &out"), this, &MainWindow::signOut);
    out->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    QAction *quit = console->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_viewNames.size(); ++i) {
        QAction *a =
            view->addAction(m_nav->item(i)->text(), this, [this, i] { m_nav->setCurrentRow(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    if (m_viewNames.contains(QStringLiteral("orders"))) {
        view->addSeparator();
        QAction *find = view->addAction(tr("&Find an order…"), this, [this] {
            showView(QStringLiteral("orders"));
            m_orderPage->focusSearch();
        });
        find->setShortcut(QKeySequence::Find);
    }
}

QString MainWindow::signedInText() const
{
    const QString name =
        m_account.displayName.isEmpty() ? m_account.username : m_account.displayName;
    return tr("Signed in: %1 (%2)").arg(name, Labels::role(m_account.role));
}

QStringList MainWindow::allViewNames()
{
    return {QStringLiteral("dashboard"), QStringLiteral("orders"),         QStringLiteral("stuck"),
            QStringLiteral("approvals"), QStringLiteral("reconciliation"), QStringLiteral("audit"),
            QStringLiteral("admin"),     QStringLiteral("databases")};
}

QString MainWindow::currentView() const
{
    return m_viewNames.value(m_nav->currentRow());
}

QStringList MainWindow::views() const
{
    return m_viewNames;
}

void MainWindow::showView(const QString &name)
{
    const int row = m_viewNames.indexOf(name);
    m_nav->setCurrentRow(row >= 0 ? row : 0);
}

void MainWindow::openOrder(const QString &orderId)
{
    if (!m_viewNames.contains(QStringLiteral("orders")))
        return;
    showView(QStringLiteral("orders"));
    m_orderPage->showOrder(orderId);
}

void MainWindow::showStatuses(const QList<RoleStatus> &statuses)
{
    const QStringList names{tr("Orders"), tr("Messages"), tr("Audit")};
    for (int i = 0; i < statuses.size() && i < m_roleLabels.size(); ++i) {
        const RoleStatus &s = statuses[i];
        QLabel *label = m_roleLabels[i];
        // Three states, told apart by symbol, words and colour: a reachable database whose
        // schema is not the one this console expects is a warning, not "● healthy".
        QString text, state;
        switch (s.health()) {
        case Health::Ok:
            text = tr("%1: ● %2").arg(names[i], s.driver);
            state = QStringLiteral("ok");
            break;
        case Health::Warning:
            text = s.schemaNewer() ? tr("%1: ▲ schema newer than this console").arg(names[i])
                                   : tr("%1: ▲ migration pending").arg(names[i]);
            state = QStringLiteral("warning");
            break;
        case Health::Down:
            text = s.fileMissing    ? tr("%1: ✕ file not found").arg(names[i])
                   : s.loginRefused ? tr("%1: ✕ login refused").arg(names[i])
                   : s.wrongSchema  ? tr("%1: ✕ wrong database").arg(names[i])
                                    : tr("%1: ✕ unreachable").arg(names[i]);
            state = QStringLiteral("down");
            break;
        }
        label->setText(text);
        label->setProperty("health", state);
        label->setStyleSheet(QStringLiteral("color: %1;")
                                 .arg(ConnectionStatusModel::healthColor(s.health()).name()));
        label->setToolTip(s.target + u'\n' + ConnectionStatusModel::reasonText(s));
        // Each change of state once in the log pane, where operations look: the first answer
        // (the profile, its schema), a loss, a return.
        const QString logged = label->property("loggedHealth").toString();
        if (state != logged) {
            label->setProperty("loggedHealth", state);
            logHealth(s, logged);
        }
    }
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1280, 800);
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("logDock")))
            resizeDocks({dock}, {110}, Qt::Vertical);
    if (!m_split->restoreState(settings.value(QStringLiteral("window/navigation")).toByteArray())) {
        // As wide as its longest entry in this language, the rest to the page.
        const int nav = m_nav->sizeHintForColumn(0) + 2 * m_nav->frameWidth() + 12;
        m_split->setSizes({nav, qMax(1, width() - nav)});
    }
    showView(
        settings.value(QStringLiteral("window/lastView"), QStringLiteral("dashboard")).toString());
}

void MainWindow::saveLayout()
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/navigation"), m_split->saveState());
    settings.setValue(QStringLiteral("window/lastView"), currentView());
}

MainWindow::~MainWindow()
{
    m_signOutTask.waitForFinished();
}

void MainWindow::setHealthCheckInterval(int ms)
{
    m_healthTimer->setInterval(ms);
}

void MainWindow::checkAccount()
{
    if (m_signedOut || m_checkingAccount)
        return;
    m_checkingAccount = true;
    const StaffAccount account = m_account;
    runBackgroundQuery<StaffSessionEnd>(
        this, m_config.orders, QStringLiteral("session"),
        [account](const Connection &c) { return checkStaffSession(c, account); },
        [this](const Result<StaffSessionEnd> &r) {
            m_checkingAccount = false;
            if (!r || *r == StaffSessionEnd::None)
                return; // unread (the health check shows why) or still valid
            QString notice;
            switch (*r) {
            case StaffSessionEnd::Disabled:
                notice = tr("You were signed out: an administrator disabled your account.");
                break;
            case StaffSessionEnd::Removed:
                notice = tr("You were signed out: your staff account no longer exists.");
                break;
            case StaffSessionEnd::RoleChanged:
                notice = tr("You were signed out: an administrator changed your role. Sign in"
                            " again to work with the new one.");
                break;
            case StaffSessionEnd::None: break;
            }
            endSession(staffSessionEndReason(*r), notice);
        });
}

void MainWindow::endSession(const QString &reason, const QString &notice)
{
    if (m_signedOut)
        return;
    spdlog::warn("the console session of {} ends: {}", m_account.username.toStdString(),
                 reason.toStdString());
    m_endNotice = notice;
    recordSignOut(reason);
    // What is open over the window (a dialog waiting for an answer) closes, then the views.
    for (QDialog *dialog : findChildren<QDialog *>())
        if (dialog->isVisible())
            dialog->reject();
    leave();
}

void MainWindow::recordSignOut(const QString &reason)
{
    if (m_signedOut)
        return;
    m_signedOut = true;
    m_healthTimer->stop();
    // Audited off the GUI thread; the application waits for the pool before it exits.
    const ConnectionProfile orders = m_config.orders;
    const StaffAccount account = m_account;
    const QString where = QStringLiteral("console@") + QSysInfo::machineHostName();
    m_signOutTask = QtConcurrent::run(consoleTaskPool(), [orders, account, where, reason] {
        // Like every console task: an existing database with the schema this console knows,
        // never a created one, never a write into a newer schema.
        auto c = InvestigationDb::open(orders, QStringLiteral("console-signout"));
        Result<void> r = c ? recordStaffSignOut(*c, Clock::system(), account, where, reason)
                           : Result<void>(c.error());
        if (!r) // the sign-out row cannot be written: say so where operations look
            spdlog::error("sign-out of {} was not audited: {}", account.username.toStdString(),
                          r.error().message.toStdString());
    });
}

void MainWindow::signOut()
{
    recordSignOut();
    leave();
}

void MainWindow::leave()
{
    saveLayout();
    centralWidget()->setEnabled(false); // nothing more is asked in this session's name
    hide();
    Q_EMIT signedOut();
}

void MainWindow::editProfiles()
{
    KeychainStore keychain;
    const QString path =
        m_config.sourcePath.isEmpty() ? AppConfig::defaultConfigPath() : m_config.sourcePath;
    ConnectionProfilesDialog dialog(m_config, path, &keychain, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    // The staff accounts live in the orders database: a new one means signing in again.
    signOut();
    Q_EMIT profilesSwitched(dialog.config());
}

void MainWindow::editPreferences()
{
    PreferencesDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.languageChanged())
        return;
    saveLayout();
    keepSessionOnQuit(); // the same person, the same session, in a window rebuilt
    Q_EMIT languageChanged();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    recordSignOut();
    event->accept();
}

} // namespace OncePay
