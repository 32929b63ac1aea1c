#include "connectionspage.h"

#include "common/taskpool.h"
#include "connections/connectionstatusmodel.h"

#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <spdlog/spdlog.h>

namespace OncePay {

ConnectionsPage::ConnectionsPage(const AppConfig &config, QWidget *parent)
    : QWidget(parent)
    , m_config(config)
    , m_model(new ConnectionStatusModel(this))
{
    auto *title = new QLabel(tr("<h2>Databases</h2>"), this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_refresh = new QPushButton(tr("Check again"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    connect(m_refresh, &QPushButton::clicked, this, &ConnectionsPage::refresh);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_refresh, 0, Qt::AlignLeft);
}

void ConnectionsPage::refresh()
{
    // One check at a time: a tick (or a page's failure) while one runs waits for its answer
    // rather than starting another. Dropping the older answer for a newer check's instead
    // left the status green for ever when a check took longer than the interval.
    if (m_checking) {
        spdlog::debug("health check still running: this round is skipped");
        return;
    }
    m_checking = true;
    m_refresh->setEnabled(false);
    m_summary->setText(tr("Checking the orders, messages and audit databases…"));
    auto *watcher = new QFutureWatcher<QList<RoleStatus>>(this);
    connect(watcher, &QFutureWatcher<QList<RoleStatus>>::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_checking = false;
        const auto statuses = watcher->result();
        m_model->setStatuses(statuses);
        m_table->resizeColumnsToContents();
        m_refresh->setEnabled(true);
        switch (m_model->worstHealth()) {
        case Health::Ok:
            m_summary->setText(tr("All three databases are reachable and up to date."));
            break;
        case Health::Warning:
            m_summary->setText(tr("All three databases are reachable, but a schema is not"
                                  " the version this console expects; see the Status"
                                  " column."));
            break;
        case Health::Down:
            m_summary->setText(tr("At least one database is unreachable; see the Status column."));
            break;
        }
        Q_EMIT statusesChanged(statuses);
    });
    const AppConfig config = m_config;
    // Its own pool: page tasks waiting on a server that stopped answering (all of
    // consoleTaskPool()'s threads) do not hold up the check that says so.
    watcher->setFuture(
        QtConcurrent::run(healthCheckPool(), [config] { return HealthCheck::checkAll(config); }));
}

} // namespace OncePay
