#include "mainwindow.h"

#include "connections/connectionspage.h"
#include "log/logpane.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>

namespace OncePay {

MainWindow::MainWindow(const AppConfig &config, QWidget *parent)
    : QMainWindow(parent)
    , m_config(config)
{
    setWindowTitle(tr("OncePay Console"));
    setObjectName(QStringLiteral("mainWindow"));

    m_nav = new QListWidget(this);
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setMaximumWidth(200);
    m_pages = new QStackedWidget(this);

    m_connections = new ConnectionsPage(m_config, this);
    m_nav->addItem(tr("Databases"));
    m_pages->addWidget(m_connections);
    connect(m_nav, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);

    auto *central = new QSplitter(this);
    central->addWidget(m_nav);
    central->addWidget(m_pages);
    central->setStretchFactor(1, 1);
    setCentralWidget(central);

    m_log = new LogPane(this);
    auto *dock = new QDockWidget(tr("Log"), this);
    dock->setObjectName(QStringLiteral("logDock"));
    dock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    for (const QString &name : {tr("Orders"), tr("Messages"), tr("Audit")}) {
        auto *label = new QLabel(tr("%1: checking…").arg(name), this);
        m_roleLabels << label;
        statusBar()->addPermanentWidget(label);
    }
    connect(m_connections, &ConnectionsPage::statusesChanged, this, &MainWindow::showStatuses);

    restoreLayout();
    m_nav->setCurrentRow(0);
    m_connections->refresh();
}

void MainWindow::showStatuses(const QList<RoleStatus> &statuses)
{
    const QStringList names{tr("Orders"), tr("Messages"), tr("Audit")};
    for (int i = 0; i < statuses.size() && i < m_roleLabels.size(); ++i) {
        const RoleStatus &s = statuses[i];
        m_roleLabels[i]->setText(s.reachable ? tr("%1: ● %2").arg(names[i], s.driver)
                                             : tr("%1: ✕ unreachable").arg(names[i]));
        m_roleLabels[i]->setToolTip(s.reachable ? s.target : s.error);
    }
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1100, 700);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

} // namespace OncePay
