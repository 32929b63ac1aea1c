#include "audittrailpage.h"

#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditpdfwriter.h"
#include "audit/audittrailmodel.h"
#include "audit/sealkey.h"
#include "common/busyindicator.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "common/rowtablemodel.h"
#include "common/tableviews.h"

#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
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
#include <QStandardPaths>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace OncePay {

namespace {

// Ids are told apart by their ends: a cut one keeps its start and its end.
class AuditTrailMiddleElide : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideMiddle;
    }
};

constexpr int kPageRows = 200;

QString prettyJson(const std::optional<QString> &json)
{
    if (!json)
        return QStringLiteral("—");
    const QJsonDocument doc = QJsonDocument::fromJson(json->toUtf8());
    // Shown as stored when it is not an object, so nothing is reinterpreted.
    return doc.isObject() ? QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed()
                          : *json;
}

std::unique_ptr<AuditExportWriter> writerFor(const QString &format)
{
    if (format == u"json")
        return std::make_unique<AuditJsonWriter>();
    if (format == u"pdf")
        return std::make_unique<AuditPdfWriter>();
    return std::make_unique<AuditCsvWriter>();
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
        m_table->setItemDelegateForColumn(c, new AuditTrailMiddleElide(m_table));
    m_table->viewport()->installEventFilter(this);
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
        m_summary->setText(v.error().message);
        return false;
    }
    return true;
}

void AuditTrailPage::refresh()
{
    AuditFilter filter;
    if (!readFilter(&filter)) {
        Q_EMIT failed(m_summary->text());
        return;
    }
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
        [this, generation, filter](const Result<qint64> &n) {
            if (generation != m_countGeneration)
                return;
            if (!n) {
                showError(n.error());
                return;
            }
            m_summary->setText(tr("%n row(s) in the audit database match: %1.", nullptr,
                                  int(qMin<qint64>(*n, INT_MAX)))
                                   .arg(Labels::auditFilter(filter)));
        });
    countUnshipped(generation);
    m_model->fetchMore({});
}

void AuditTrailPage::countUnshipped(quint64 generation)
{
    const Actor actor = m_actor;
    runAuditTask<AuditBacklog>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-unshipped"),
        [actor](const Connection &audit, const Connection &orders, const AuditTaskProgress &) {
            return AuditTrailQuery(audit, orders, Clock::system()).unshipped(actor);
        },
        [](qint64, qint64) {},
        [this, generation](const Result<AuditBacklog> &b) {
            if (generation != m_countGeneration)
                return;
            if (!b && b.error().code == ErrorCode::Forbidden) {
                m_unshipped->hide(); // the summary already says why nothing is shown
                Q_EMIT unshippedCounted(-1);
                return;
            }
            if (!b) {
                m_unshipped->setText(
                    tr("Whether audited events are still waiting to be shipped into the audit"
                       " database is not known: %1")
                        .arg(errorText(b.error()).toHtmlEscaped()));
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
    runAuditTask<AuditPage>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-page"),
        [filter, actor, afterSeq](const Connection &audit, const Connection &orders,
                                  const AuditTaskProgress &) {
            return AuditTrailQuery(audit, orders, Clock::system())
                .page(filter, afterSeq, kPageRows, actor);
        },
        [](qint64, qint64) {},
        [this, generation](const Result<AuditPage> &page) {
            if (generation != m_model->generation())
                return;
            m_busy->setBusy(false);
            if (!page) {
                m_model->fetchFailed(generation);
                showError(page.error());
                return;
            }
            m_model->appendPage(generation, *page);
            if (m_model->rowCount() == int(page->rows.size())) {
                m_table->resizeColumnsToContents();
                m_natural.clear();
                for (int c = 0; c < m_model->columnCount(); ++c)
                    m_natural << m_table->horizontalHeader()->sectionSize(c);
                fitColumns();
            }
            Q_EMIT loaded(m_model->rowCount());
        });
}

void AuditTrailPage::fitColumns()
{
    if (m_natural.size() != m_model->columnCount())
        return;
    // Reason (the last column) keeps at least a few words; Entity, Order and Callback (ids)
    // share what the other columns leave them, each at most its contents and cut in the middle
    // when there is less.
    const int chars = fontMetrics().averageCharWidth();
    const QList<int> ids{AuditTrailModel::Entity, AuditTrailModel::Order,
                         AuditTrailModel::Callback};
    int others = 0, needed = 0;
    for (int c = 0; c < m_natural.size(); ++c) {
        if (ids.contains(c))
            needed += m_natural[c];
        else if (c != AuditTrailModel::Reason)
            others += m_natural[c];
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
            widths << m_natural[c];
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
        header->resizeSection(c, qMax(6 * chars, qMin(m_natural[c], cap)));
}

bool AuditTrailPage::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize && watched == m_table->viewport())
        fitColumns();
    return QWidget::eventFilter(watched, event);
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

void AuditTrailPage::startTask(const QString &what)
{
    m_taskRunning = true;
    m_verify->setEnabled(false);
    m_export->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_progress->show();
    m_result->setText(what);
}

void AuditTrailPage::showProgress(qint64 done, qint64 total)
{
    m_progress->setValue(total > 0 ? int(done * 1000 / total) : 1000);
    m_progress->setFormat(tr("%1 of %2 rows").arg(done).arg(total));
}

void AuditTrailPage::finishTask()
{
    m_taskRunning = false;
    m_verify->setEnabled(true);
    m_export->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->hide();
}

void AuditTrailPage::cancelTask()
{
    if (!m_taskRunning)
        return;
    m_task.cancel();
    m_cancel->setEnabled(false);
    m_result->setText(tr("Cancelling…"));
}

void AuditTrailPage::showError(const Error &error)
{
    m_busy->setBusy(false);
    m_summary->setText(errorText(error));
    m_summary->setToolTip(error.message);
    Q_EMIT failed(m_summary->text());
}

void AuditTrailPage::verifyChain()
{
    if (m_taskRunning)
        return;
    startTask(tr("Verifying the audit chain…"));
    const Actor actor = m_actor;
    const QString keyPath = SealKeyPaths::fromConfig(m_config).publicKey;
    const auto progress = [this](qint64 done, qint64 total) { showProgress(done, total); };
    m_task = runAuditTask<AuditVerifyReport>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-verify"),
        [actor, keyPath](const Connection &audit, const Connection &orders,
                         const AuditTaskProgress &report) -> Result<AuditVerifyReport> {
            std::optional<SealPublicKey> key;
            if (QFile::exists(keyPath)) {
                auto loaded = SealPublicKey::load(keyPath);
                if (!loaded)
                    return loaded.error();
                key = *loaded;
            }
            return AuditTrailQuery(audit, orders, Clock::system())
                .verify(key ? &*key : nullptr, report, actor);
        },
        progress,
        [this](const Result<AuditVerifyReport> &r) {
            finishTask();
            if (!r) {
                showFailure(m_result, r.error());
                Q_EMIT verified(false, r.error().message);
                return;
            }
            QString text;
            if (r->problem)
                text = tr("<b>The audit chain is broken</b> at row seq %1 (%2): %3")
                           .arg(r->problem->seq)
                           .arg(auditProblemKindName(r->problem->kind),
                                r->problem->message.toHtmlEscaped());
            else if (r->cancelled)
                text = tr("Verification cancelled after %1 of %2 rows.")
                           .arg(r->rowsChecked)
                           .arg(r->totalRows);
            else if (r->sealedSeq)
                text = tr("<b>The audit chain is valid</b>: %1 rows up to seq %2, %3 seal(s)"
                          " verified; sealed up to seq %4, %5 row(s) after the last seal.")
                           .arg(r->rowsChecked)
                           .arg(r->headSeq)
                           .arg(r->checkpointsChecked)
                           .arg(r->sealedSeq)
                           .arg(r->rowsAfterSeal());
            else
                text = tr("<b>The audit chain is valid</b>: %1 rows up to seq %2; no seal yet.")
                           .arg(r->rowsChecked)
                           .arg(r->headSeq);
            if (!r->problem && !r->cancelled && r->unshipped.count > 0)
                text += QLatin1Char(' ') +
                        tr("%n audited event(s) are not in the chain yet: they still wait in the"
                           " outbox (oldest %1).",
                           nullptr, int(qMin<qint64>(r->unshipped.count, INT_MAX)))
                            .arg(AuditFilter::formatTime(r->unshipped.oldestOccurredAt));
            m_result->setText(text);
            m_result->setToolTip(r->summary());
            Q_EMIT verified(r->ok(), r->summary());
        });
}

void AuditTrailPage::chooseExport(const QString &format)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString suggested = QDir(dir).filePath(
        QStringLiteral("audit-trail-%1.%2")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")),
                 format));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the audit trail"), suggested,
                                     tr("%1 files (*.%2)").arg(format.toUpper(), format));
    if (!path.isEmpty())
        exportTo(format, path);
}

void AuditTrailPage::exportTo(const QString &format, const QString &path)
{
    if (m_taskRunning)
        return;
    AuditFilter filter;
    if (!readFilter(&filter)) {
        Q_EMIT failed(m_summary->text());
        return;
    }
    startTask(tr("Exporting to %1…").arg(QDir::toNativeSeparators(path)));
    const Actor actor = m_actor;
    const auto progress = [this](qint64 done, qint64 total) { showProgress(done, total); };
    m_task = runAuditTask<AuditExportResult>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-export"),
        [actor, filter, format, path](const Connection &audit, const Connection &orders,
                                      const AuditTaskProgress &report) {
            const std::unique_ptr<AuditExportWriter> writer = writerFor(format);
            return AuditExporter(audit, orders, Clock::system())
                .run(filter, path, *writer, actor, report);
        },
        progress,
        [this](const Result<AuditExportResult> &r) {
            finishTask();
            if (!r) {
                showFailure(m_result, r.error());
                Q_EMIT failed(r.error().message);
                return;
            }
            if (r->cancelled) {
                m_result->setText(tr("Export cancelled; no file was written."));
                return;
            }
            const AuditManifest &m = r->manifest;
            m_result->setText(
                tr("Exported %1 row(s) to %2<br>Manifest: %3<br>SHA-256: <tt>%4</tt><br>Chain head"
                   " seq %5%6")
                    .arg(m.rowCount)
                    .arg(QDir::toNativeSeparators(r->path).toHtmlEscaped(),
                         QDir::toNativeSeparators(r->manifestPath).toHtmlEscaped(), m.sha256)
                    .arg(m.head.seq)
                    .arg(m.head.seal ? tr(", sealed at seq %1").arg(m.head.seal->seq)
                                     : tr(", not sealed yet")));
            m_result->setToolTip({});
            Q_EMIT exported(r->path, r->manifestPath, m.sha256);
        });
}

} // namespace OncePay
