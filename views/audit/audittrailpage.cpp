#include "audittrailpage.h"

#include "audit/audittrailmodel.h"
#include "common/busyindicator.h"
#include "common/columnfit.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "common/rowtablemodel.h"
#include "common/tableviews.h"

#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace OncePay {

namespace {

constexpr int kPageRows = 200;
// Loading up to the row Verify named (audittrailpagetasks.cpp): larger pages.
constexpr int kSeekPageRows = 2000;

QString prettyJson(const std::optional<QString> &json)
{
    if (!json)
        return QStringLiteral("—");
    const QJsonDocument doc = QJsonDocument::fromJson(json->toUtf8());
    // Shown as stored when it is not an object, so nothing is reinterpreted.
    return doc.isObject() ? QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed()
                          : *json;
}

} // namespace

AuditTrailPage::AuditTrailPage(const AppConfig &config, const Actor &actor, QWidget *parent)
    : QWidget(parent)
    , m_config(config)
    , m_actor(actor)
    , m_model(new AuditTrailModel(this))
{
    setObjectName(QStringLiteral("auditTrailPage"));
    auto *title = new QLabel(tr("<h2>Audit trail</h2>"), this);

    const auto edit = [this](const QString &name, const QString &placeholder) {
        auto *e = new QLineEdit(this);
        e->setObjectName(name);
        e->setPlaceholderText(placeholder);
        e->setClearButtonEnabled(true);
        connect(e, &QLineEdit::returnPressed, this, &AuditTrailPage::refresh);
        return e;
    };
    m_from = edit(QStringLiteral("from"), tr("2026-11-01 or 2026-11-01T09:00Z"));
    m_to = edit(QStringLiteral("to"), tr("before this time (UTC)"));
    m_actorFilter = edit(QStringLiteral("actor"), tr("user name or worker"));
    m_action = edit(QStringLiteral("action"), tr("order.transition or order.*"));
    m_order = edit(QStringLiteral("order"), tr("order id"));
    m_callback = edit(QStringLiteral("callback"), tr("callback id"));
    m_entity = edit(QStringLiteral("entity"), tr("kind, or kind:id"));
    m_apply = new QPushButton(tr("&Apply"), this);
    m_apply->setShortcut(QKeySequence::Refresh);
    connect(m_apply, &QPushButton::clicked, this, &AuditTrailPage::refresh);

    m_verify = new QPushButton(tr("&Verify chain"), this);
    m_verify->setObjectName(QStringLiteral("verify"));
    m_verify->setToolTip(tr("Check every row's hash, the sequence and the signed seals"));
    connect(m_verify, &QPushButton::clicked, this, &AuditTrailPage::verifyChain);
    m_export = new QPushButton(tr("&Export"), this);
    m_export->setObjectName(QStringLiteral("export"));
    m_export->setToolTip(tr("Export what the filter shows, with a manifest beside the file"));
    auto *menu = new QMenu(m_export);
    menu->addAction(tr("CSV (spreadsheets)…"), this,
                    [this] { chooseExport(QStringLiteral("csv")); });
    menu->addAction(tr("JSON (tools, hashes recomputable)…"), this,
                    [this] { chooseExport(QStringLiteral("json")); });
    menu->addAction(tr("PDF report for auditors…"), this,
                    [this] { chooseExport(QStringLiteral("pdf")); });
    menu->addSeparator();
    menu->addAction(tr("Verify an export…"), this, [this] { chooseExportToVerify(); });
    m_export->setMenu(menu);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancel"));
    m_cancel->setEnabled(false);
    connect(m_cancel, &QPushButton::clicked, this, &AuditTrailPage::cancelTask);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->hide();
    m_busy = new BusyIndicator(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_unshipped = new QLabel(this);
    m_unshipped->setObjectName(QStringLiteral("unshipped"));
    m_unshipped->setWordWrap(true);
    m_unshipped->setTextFormat(Qt::RichText);
    m_unshipped->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_unshipped->setStyleSheet(QStringLiteral("QLabel { color: #9a5b00; background: #fff4e0;"
                                              " border: 1px solid #e0b060; padding: 4px; }"));
    m_unshipped->hide();
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("result"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setTextFormat(Qt::RichText);
    m_result->hide(); // shown with the first Verify
    m_exportResult = new QLabel(this);
    m_exportResult->setObjectName(QStringLiteral("exportResult"));
    m_exportResult->setWordWrap(true);
    m_exportResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_exportResult->setTextFormat(Qt::RichText);
    m_exportResult->hide();

    m_table = makeTable(this, m_model, QStringLiteral("auditTrail"));
    m_table->setToolTip(tr("Enter or double-click opens the order"));
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &i) {
        const QString order = i.data(OrderIdRole).toString();
        if (!order.isEmpty())
            Q_EMIT openOrderRequested(order);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AuditTrailPage::showDetail);
    for (int c : {int(AuditTrailModel::Entity), int(AuditTrailModel::Order),
                  int(AuditTrailModel::Callback)})
        m_table->setItemDelegateForColumn(c, new TableMiddleElideDelegate(m_table)); // ids
    m_fitter =
        new TableColumnFitter(m_table, [this](const QList<int> &natural) { fitColumns(natural); });
    m_table->horizontalHeader()->setSectionResizeMode(AuditTrailModel::Reason,
                                                      QHeaderView::Stretch);
    m_detail = new QPlainTextEdit(this);
    m_detail->setObjectName(QStringLiteral("detail"));
    m_detail->setReadOnly(true);
    m_detail->setPlaceholderText(tr("Select a row to see what changed"));
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(m_model, &AuditTrailModel::fetchRequested, this, &AuditTrailPage::fetchPage);

    auto *filters = new QGridLayout;
    const auto addField = [this, filters](int row, int col, const QString &label, QLineEdit *e) {
        auto *l = new QLabel(label, this);
        l->setBuddy(e);
        filters->addWidget(l, row, col * 2);
        filters->addWidget(e, row, col * 2 + 1);
    };
    addField(0, 0, tr("&From:"), m_from);
    addField(0, 1, tr("&To:"), m_to);
    addField(0, 2, tr("Ac&tor:"), m_actorFilter);
    addField(0, 3, tr("Actio&n:"), m_action);
    addField(1, 0, tr("&Order:"), m_order);
    addField(1, 1, tr("Call&back:"), m_callback);
    addField(1, 2, tr("E&ntity:"), m_entity);
    filters->addWidget(m_apply, 1, 7);

    auto *bar = new QHBoxLayout;
    bar->addWidget(title);
    bar->addStretch(1);
    bar->addWidget(m_verify);
    bar->addWidget(m_export);
    bar->addWidget(m_cancel);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(filters);
    layout->addWidget(m_busy);
    layout->addWidget(m_progress);
    layout->addWidget(m_unshipped);
    layout->addWidget(m_summary);
    layout->addWidget(m_result);
    layout->addWidget(m_exportResult);
    layout->addWidget(split, 1);
}

bool AuditTrailPage::readFilter(AuditFilter *f)
{
    *f = {};
    for (const auto &[edit, field] : {std::pair{m_from, &f->fromMs}, std::pair{m_to, &f->toMs}}) {
        if (edit->text().trimmed().isEmpty())
            continue;
        auto t = AuditFilter::parseTime(edit->text());
        if (!t) {
            m_summary->setText(tr("“%1” is not a time. Use 2026-11-01, 2026-11-01T09:00Z or"
                                  " epoch milliseconds.")
                                   .arg(edit->text().trimmed()));
            edit->setFocus();
            return false;
        }
        *field = *t;
    }
    f->actor = m_actorFilter->text().trimmed();
    f->action = m_action->text().trimmed();
    f->orderId = m_order->text().trimmed();
    f->callbackId = m_callback->text().trimmed();
    const QString entity = m_entity->text().trimmed();
    const qsizetype colon = entity.indexOf(u':');
    f->entityKind = colon < 0 ? entity : entity.left(colon);
    f->entityId = colon < 0 ? QString() : entity.mid(colon + 1);
    if (auto v = f->validate(); !v) {
        m_summary->setText(filterErrorText(*f, v.error()));
        return false;
    }
    return true;
}

// A filter AuditFilter::validate() refuses, in the console's words and language: its fields as
// the page names them (the service's message names the command line's --from and --to).
QString AuditTrailPage::filterErrorText(const AuditFilter &f, const Error &e)
{
    if (e.reason == u"bad_range")
        return tr("“To” (%1) is not after “From” (%2): no rows are shown until it is.")
            .arg(AuditFilter::formatTime(f.toMs), AuditFilter::formatTime(f.fromMs));
    if (e.reason == u"bad_action" && f.action == u"*")
        return tr("“*” alone is not an action: leave Action empty to see every action.");
    if (e.reason == u"bad_action")
        return tr("“%1” is not an action: “*” may only end one, as in order.* (every order"
                  " action). No rows are shown until it is corrected.")
            .arg(f.action);
    return tr("The filter cannot be used: %1").arg(e.message);
}

void AuditTrailPage::refresh()
{
    AuditFilter filter;
    if (!readFilter(&filter)) {
        // The rows of the filter before are not shown under one that cannot be used: the
        // table would claim they match it.
        m_seekSeq = 0;
        setSeekNote({});
        const quint64 generation = m_model->reset();
        m_model->fetchFailed(generation); // nothing to fetch until a filter that can be used
        m_countGeneration = generation;   // a count still under way no longer says anything
        m_detail->clear();
        m_busy->setBusy(false);
        Q_EMIT failed(m_summary->text());
        return;
    }
    m_seekSeq = 0; // a new filter: the row Verify named is looked for again only by Verify
    setSeekNote({});
    const quint64 generation = m_model->reset();
    m_detail->clear();
    m_summary->setText(tr("Loading…"));
    m_busy->setBusy(true);
    m_countGeneration = generation;
    const Actor actor = m_actor;
    runAuditTask<qint64>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-count"),
        [filter, actor](const Connection &audit, const Connection &orders,
                        const AuditTaskProgress &) {
            return AuditTrailQuery(audit, orders, Clock::system()).count(filter, actor);
        },
        [](qint64, qint64) {},
        [this, generation, filter](const Result<qint64> &n, AuditTaskDatabase unopened) {
            if (generation != m_countGeneration)
                return;
            if (!n) {
                showError(n.error(), unopened);
                return;
            }
            m_summary->setText(tr("%n row(s) in the audit database match: %1.", nullptr,
                                  int(qMin<qint64>(*n, INT_MAX)))
                                   .arg(Labels::auditFilter(filter)));
        });
    countUnshipped();
    m_model->fetchMore({});
}

void AuditTrailPage::countUnshipped()
{
    const quint64 generation = ++m_unshippedGeneration;
    const Actor actor = m_actor;
    runAuditTask<AuditBacklog>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-unshipped"),
        [actor](const Connection &audit, const Connection &orders, const AuditTaskProgress &) {
            return AuditTrailQuery(audit, orders, Clock::system()).unshipped(actor);
        },
        [](qint64, qint64) {},
        [this, generation](const Result<AuditBacklog> &b, AuditTaskDatabase unopened) {
            if (generation != m_unshippedGeneration)
                return;
            // A refusal, or a database that did not open: the trail's own loads meet the same
            // and the summary line says it, naming the database, once.
            if (!b &&
                (b.error().code == ErrorCode::Forbidden || unopened != AuditTaskDatabase::None)) {
                m_unshipped->hide();
                Q_EMIT unshippedCounted(-1);
                return;
            }
            if (!b) {
                // Both opened: the count itself failed, and the outbox is in the orders database.
                m_unshipped->setText(
                    tr("Whether audited events are still waiting to be shipped into the audit"
                       " database is not known: %1")
                        .arg(databaseErrorText(b.error(), AuditTaskDatabase::Orders)
                                 .toHtmlEscaped()));
                m_unshipped->setToolTip(b.error().message);
                m_unshipped->show();
                Q_EMIT unshippedCounted(-1);
                return;
            }
            if (b->count > 0) {
                m_unshipped->setText(
                    tr("%n audited event(s) are not yet in the audit database (oldest %1);"
                       " they are shipped by the workers or <tt>oncepay audit ship</tt>.",
                       nullptr, int(qMin<qint64>(b->count, INT_MAX)))
                        .arg(AuditFilter::formatTime(b->oldestOccurredAt)));
                m_unshipped->setToolTip({});
                m_unshipped->show();
            } else {
                m_unshipped->clear();
                m_unshipped->hide();
            }
            Q_EMIT unshippedCounted(b->count);
        });
}

void AuditTrailPage::fetchPage(quint64 generation, qint64 afterSeq)
{
    AuditFilter filter;
    if (!readFilter(&filter)) {
        m_model->fetchFailed(generation);
        return;
    }
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    const int rows = m_seekSeq > 0 ? kSeekPageRows : kPageRows;
    runAuditTask<AuditPage>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-page"),
        [filter, actor, afterSeq, rows](const Connection &audit, const Connection &orders,
                                        const AuditTaskProgress &) {
            return AuditTrailQuery(audit, orders, Clock::system())
                .page(filter, afterSeq, rows, actor);
        },
        [](qint64, qint64) {},
        [this, generation](const Result<AuditPage> &page, AuditTaskDatabase unopened) {
            if (generation != m_model->generation())
                return;
            m_busy->setBusy(false);
            if (!page) {
                m_model->fetchFailed(generation);
                m_seekSeq = 0;
                showError(page.error(), unopened);
                return;
            }
            m_model->appendPage(generation, *page);
            if (m_model->rowCount() == int(page->rows.size()))
                m_fitter->measure();
            // The table measures only the rows on screen, and seqs grow longer as pages come
            // (99, then 100): the Seq column is as wide as the last loaded row's seq.
            const QList<int> &natural = m_fitter->natural();
            if (natural.size() == m_model->columnCount() && m_model->rowCount() > 0) {
                const QModelIndex last =
                    m_model->index(m_model->rowCount() - 1, AuditTrailModel::Seq);
                const int seqWidth =
                    m_table->sizeHintForIndex(last).width() + (m_table->showGrid() ? 1 : 0);
                if (seqWidth > natural[AuditTrailModel::Seq]) {
                    m_fitter->setNatural(AuditTrailModel::Seq, seqWidth);
                    m_table->horizontalHeader()->resizeSection(AuditTrailModel::Seq, seqWidth);
                }
            }
            m_fitter->fit();
            Q_EMIT loaded(m_model->rowCount());
            if (m_seekSeq > 0)
                continueSeek();
        });
}

void AuditTrailPage::fitColumns(const QList<int> &natural)
{
    // Reason (the last column) keeps at least a few words; Entity, Order and Callback (ids)
    // share what the other columns leave them, each at most its contents and cut in the middle
    // when there is less.
    const int chars = fontMetrics().averageCharWidth();
    const QList<int> ids{AuditTrailModel::Entity, AuditTrailModel::Order,
                         AuditTrailModel::Callback};
    int others = 0, needed = 0;
    for (int c = 0; c < natural.size(); ++c) {
        if (ids.contains(c))
            needed += natural[c];
        else if (c != AuditTrailModel::Reason)
            others += natural[c];
    }
    QHeaderView *header = m_table->horizontalHeader();
    // (a stretched last section is never narrower than the header's default section size)
    const int room =
        m_table->viewport()->width() - others -
        std::max({12 * chars, header->minimumSectionSize(), header->defaultSectionSize()});
    // The widest give way first: every id column at most `cap`, the cap as high as fits.
    int cap = needed;
    if (needed > room) {
        QList<int> widths;
        for (int c : ids)
            widths << natural[c];
        std::sort(widths.begin(), widths.end());
        int fixed = 0;
        for (qsizetype i = 0; i < widths.size(); ++i) {
            const int share = (room - fixed) / int(widths.size() - i);
            if (share <= widths[i]) {
                cap = share;
                break;
            }
            fixed += widths[i];
        }
    }
    for (int c : ids)
        header->resizeSection(c, qMax(6 * chars, qMin(natural[c], cap)));
}

void AuditTrailPage::showDetail()
{
    const QModelIndex i = m_table->currentIndex();
    if (!i.isValid()) {
        m_detail->clear();
        return;
    }
    const AuditLogRow &r = m_model->rowAt(i.row());
    QString text = tr("seq %1 · event %2\n").arg(r.seq).arg(r.eventId);
    text += tr("occurred %1 (UTC), recorded %2 (UTC)\n")
                .arg(AuditFilter::formatTime(r.occurredAt), AuditFilter::formatTime(r.recordedAt));
    text +=
        tr("%1 (%2) · %3 · %4 %5\n").arg(r.actor, r.actorRole, r.action, r.entityKind, r.entityId);
    if (r.orderId || r.callbackId)
        text += tr("order %1 · callback %2\n")
                    .arg(r.orderId.value_or(QStringLiteral("—")),
                         r.callbackId.value_or(QStringLiteral("—")));
    // The reason in words (a reason code as its word, the code in parentheses; someone's own
    // words quoted, untranslated), then as stored when that differs.
    if (r.reason) {
        const QString shown = Labels::auditReason(r.action, r.actorRole, *r.reason);
        text += tr("reason: %1\n").arg(shown);
        if (shown != *r.reason)
            text += tr("reason as stored: %1\n").arg(*r.reason);
    }
    text +=
        tr("\nbefore:\n%1\n\nafter:\n%2\n").arg(prettyJson(r.beforeJson), prettyJson(r.afterJson));
    text += tr("\nprev_hash %1\nhash      %2").arg(r.prevHash, r.hash);
    m_detail->setPlainText(text);
}

void AuditTrailPage::showError(const Error &error, AuditTaskDatabase database)
{
    m_busy->setBusy(false);
    // The trail's rows and count are read from the audit database.
    m_summary->setText(databaseErrorText(
        error, database == AuditTaskDatabase::None ? AuditTaskDatabase::Audit : database));
    m_summary->setToolTip(error.message);
    Q_EMIT failed(m_summary->text());
}

QString AuditTrailPage::databaseErrorText(const Error &e, AuditTaskDatabase database) const
{
    const bool audit = database != AuditTaskDatabase::Orders;
    switch (e.code) {
    case ErrorCode::Invalid:
        if (e.reason == u"schema_older")
            return audit ? tr("The audit database has an older schema; run `oncepay db migrate`.")
                         : tr("The orders database has an older schema; run `oncepay db"
                              " migrate`.");
        return errorText(e);
    case ErrorCode::Newer:
        return audit ? tr("The audit database was created by a newer OncePay. Upgrade this"
                          " console before using it.")
                     : tr("The orders database was created by a newer OncePay. Upgrade this"
                          " console before using it.");
    case ErrorCode::Unavailable:
        if (e.reason != u"database_missing")
            return audit ? tr("The audit database cannot be reached. It will be tried again on"
                              " the next refresh.")
                         : tr("The orders database cannot be reached. It will be tried again"
                              " on the next refresh.");
        [[fallthrough]];
    case ErrorCode::Internal:
        return audit ? tr("Audit database: %1").arg(errorText(e))
                     : tr("Orders database: %1").arg(errorText(e));
    default: return errorText(e);
    }
}

} // namespace OncePay
