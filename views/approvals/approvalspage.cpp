#include "approvalspage.h"

#include "auth/permissions.h"
#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/columnfit.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "common/tableviews.h"
#include "desk/reconciliationdesk.h"
#include "fixes/fixactions.h"
#include "fixes/fixlabels.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "fixes/fixtargets.h"
#include "orders/orderservice.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace OncePay {

namespace {

// The longest comment a decision keeps: the service's own limit.
constexpr int kApprovalsMaxComment = FixService::kMaxCommentLength;

// A decision dialog's comment within what the service keeps: past it, `note` says how long it
// is and `ok` is off. `required`: an empty comment keeps `ok` off too (a rejection's).
void approvalsCapComment(QPlainTextEdit *comment, QLabel *note, QPushButton *ok, bool required)
{
    const auto check = [comment, note, ok, required] {
        const qsizetype length = comment->toPlainText().trimmed().size();
        const bool tooLong = length > kApprovalsMaxComment;
        note->setText(tooLong ? ApprovalsPage::tr("The comment has %1 characters; a decision keeps"
                                                  " at most %2.")
                                    .arg(length)
                                    .arg(kApprovalsMaxComment)
                              : QString());
        note->setVisible(tooLong);
        ok->setEnabled(!tooLong && (!required || length > 0));
    };
    QObject::connect(comment, &QPlainTextEdit::textChanged, ok, check);
    check();
}

} // namespace

ApprovalsPage::ApprovalsPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent)
    : QWidget(parent)
    , m_orders(orders)
    , m_actor(actor)
    , m_model(new FixModel(this))
    , m_change(new ChangeModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("approvalsPage"));
    const auto role = parseStaffRole(actor.role);
    m_mayDecide = role && can(*role, Action::DecideFix);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);

    auto *title = new QLabel(tr("<h2>Approvals</h2>"), this);
    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->addItem(tr("Waiting for approval"), QStringList{FixStatus::Open});
    m_status->addItem(tr("Decided"),
                      QStringList{FixStatus::Applied, FixStatus::Rejected, FixStatus::Failed});
    m_status->addItem(tr("All"), QStringList{});
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->addItem(tr("All kinds"), QString());
    for (const QString &k : FixKind::all())
        m_kind->addItem(Labels::fixKind(k), k);
    connect(m_status, &QComboBox::currentIndexChanged, this, &ApprovalsPage::refresh);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ApprovalsPage::refresh);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    connect(m_refresh, &QPushButton::clicked, this, &ApprovalsPage::refresh);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    // What became of the reviewer's last decision — applied, or refused and why — on a line of
    // its own, which the refresh that follows a decision does not overwrite.
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("decisionNotice"));
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->hide();
    m_busy = new BusyIndicator(this);

    m_table = makeTable(this, m_proxy, QStringLiteral("fixes"));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FixModel::Age, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Targets are told apart by their ends: a cut one keeps its channel and the end of its id.
    m_table->setItemDelegateForColumn(FixModel::Target, new TableMiddleElideDelegate(m_table));
    m_fit =
        new TableColumnFitter(m_table, [this](const QList<int> &natural) { fitColumns(natural); });
    m_table->horizontalHeader()->setSectionResizeMode(FixModel::Reason, QHeaderView::Stretch);
    // The detail follows the current row: a mouse click makes a row current before it
    // selects it, so the selection is not waited for.
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ApprovalsPage::showSelected);

    // Detail: header, change before → after, decisions, evidence, actions.
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("header"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_changeTable = makeTable(this, m_change, QStringLiteral("change"));
    m_changeTable->horizontalHeader()->setStretchLastSection(true);
    m_changeFit = new TableColumnFitter(
        m_changeTable, [this](const QList<int> &natural) { fitChangeColumns(natural); });
    m_decisions = new QLabel(this);
    m_decisions->setObjectName(QStringLiteral("decisions"));
    m_decisions->setWordWrap(true);
    // Reviewers' comments are shown as typed: markup in one is text, not formatting.
    m_decisions->setTextFormat(Qt::PlainText);
    m_evidence = new QPlainTextEdit(this);
    m_evidence->setObjectName(QStringLiteral("evidence"));
    m_evidence->setReadOnly(true);
    m_evidence->setPlaceholderText(tr("Evidence: the order's history or the discrepancy"));
    m_approve = new QPushButton(tr("&Approve…"), this);
    m_approve->setObjectName(QStringLiteral("approve"));
    m_reject = new QPushButton(tr("Re&ject…"), this);
    m_reject->setObjectName(QStringLiteral("reject"));
    m_openOrder = new QPushButton(tr("Open &order"), this);
    m_approve->setVisible(m_mayDecide);
    m_reject->setVisible(m_mayDecide);
    connect(m_approve, &QPushButton::clicked, this, &ApprovalsPage::askApprove);
    connect(m_reject, &QPushButton::clicked, this, &ApprovalsPage::askReject);
    connect(m_openOrder, &QPushButton::clicked, this, [this] {
        if (auto f = selected(); f && !f->orderId.isEmpty())
            Q_EMIT openOrderRequested(f->orderId);
    });

    // The queue across the page's whole width, so that every column a reviewer decides on is
    // on screen; the selected proposal below it: what it changes on the left, the decisions,
    // the evidence and the actions on the right.
    auto *detail = new QWidget(this);
    auto *change = new QVBoxLayout;
    change->addWidget(m_header);
    change->addWidget(new QLabel(tr("<b>Change</b> (before → after)"), detail));
    change->addWidget(m_changeTable, 1);
    auto *evidence = new QVBoxLayout;
    evidence->addWidget(m_decisions);
    evidence->addWidget(new QLabel(tr("<b>Evidence</b>"), detail));
    evidence->addWidget(m_evidence, 1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_openOrder);
    actions->addStretch(1);
    actions->addWidget(m_reject);
    actions->addWidget(m_approve);
    evidence->addLayout(actions);
    auto *dl = new QHBoxLayout(detail);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addLayout(change, 1);
    dl->addLayout(evidence, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("approvalsSplit"));
    split->addWidget(m_table);
    split->addWidget(detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *bar = new QHBoxLayout;
    bar->addWidget(title);
    bar->addStretch(1);
    auto *statusLabel = new QLabel(tr("&Show:"), this);
    statusLabel->setBuddy(m_status);
    bar->addWidget(statusLabel);
    bar->addWidget(m_status);
    auto *kindLabel = new QLabel(tr("&Kind:"), this);
    kindLabel->setBuddy(m_kind);
    bar->addWidget(kindLabel);
    bar->addWidget(m_kind);
    bar->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_notice);
    layout->addWidget(split, 1);
    showSelected();
}

void ApprovalsPage::refresh()
{
    const quint64 generation = ++m_generation;
    m_busy->setBusy(true);
    FixFilter filter;
    filter.statuses = m_status->currentData().toStringList();
    filter.kind = m_kind->currentData().toString();
    const Actor actor = m_actor;
    runBackgroundQuery<QList<FixRequest>>(
        this, m_orders, QStringLiteral("approvals"),
        [filter, actor](const Connection &c) {
            return FixService(c, Clock::system()).list(filter, actor);
        },
        [this, generation](const Result<QList<FixRequest>> &r) {
            if (generation != m_generation)
                return;
            m_busy->setBusy(false);
            if (!r) {
                // Proposals that could not be read again are not shown as if they were
                // current: a reviewer would decide on a queue the database no longer holds.
                m_model->setRows({});
                showSelected();
                Q_EMIT failed(showFailure(m_summary, r.error()));
                return;
            }
            const qint64 keep = selected() ? selected()->id : 0;
            m_model->setNow(QDateTime::currentMSecsSinceEpoch());
            m_model->setRows(*r);
            m_fit->measure();
            int own = 0, waiting = 0;
            for (const FixRequest &f : *r) {
                waiting += f.status == FixStatus::Open;
                own += f.status == FixStatus::Open && f.proposedBy == m_actor.id;
            }
            QString text = tr("%n proposal(s) shown.", nullptr, int(r->size()));
            if (waiting)
                text += QLatin1Char(' ') + tr("%n waiting for a decision.", nullptr, waiting);
            if (own && m_mayDecide)
                text += QLatin1Char(' ') +
                        tr("%n of them are yours: another reviewer decides those.", nullptr, own);
            if (!m_mayDecide)
                text += QLatin1Char(' ') + tr("Your role may read proposals but not decide them.");
            m_summary->setText(text);
            m_summary->setToolTip({});
            // Keep the reviewer's place; otherwise start at the oldest waiting proposal.
            if ((!keep || !select(keep)) && m_proxy->rowCount() > 0)
                m_table->selectionModel()->setCurrentIndex(m_proxy->index(0, 0),
                                                           QItemSelectionModel::ClearAndSelect |
                                                               QItemSelectionModel::Rows);
            showSelected();
            Q_EMIT loaded(int(r->size()));
        });
}

void ApprovalsPage::fitColumns(const QList<int> &natural)
{
    // Every column keeps the width of its contents but Target and Reason: Reason (the last)
    // takes what is left, at least a few words of it; Target gives way first, cut in the middle
    // (whole in its tooltip and in the header below).
    // (a stretched last section is never narrower than the header's default section size)
    const QHeaderView *header = m_table->horizontalHeader();
    const int floor = std::max({12 * fontMetrics().averageCharWidth(), header->minimumSectionSize(),
                                header->defaultSectionSize()});
    int others = 0;
    for (int c = 0; c < natural.size(); ++c)
        if (c != FixModel::Target && c != FixModel::Reason)
            others += natural[c];
    const int room = m_table->viewport()->width() - others - floor;
    const int target = qMax(floor, qMin(natural[FixModel::Target], room));
    m_table->horizontalHeader()->resizeSection(FixModel::Target, target);
}

// The change's Field at its width (at most half the table); Before and After share what is left —
// each whole when both fit, else the shorter whole and the longer cut (whole in its tooltip),
// never narrower than half — so that After, what the fix makes of the field, is on screen.
void ApprovalsPage::fitChangeColumns(const QList<int> &n)
{
    if (n.size() < 3)
        return;
    QHeaderView *header = m_changeTable->horizontalHeader();
    const int width = m_changeTable->viewport()->width();
    const int field = qMin(n[0], width / 2);
    const int rest = qMax(0, width - field);
    int before = n[1];
    int after = n[2];
    if (before + after > rest) {
        const int half = rest / 2;
        if (after <= half)
            before = rest - after;
        else if (before <= half)
            after = rest - before;
        else {
            before = half;
            after = rest - half;
        }
    }
    header->resizeSection(0, field);
    header->resizeSection(1, before);
    header->resizeSection(2, after);
}

std::optional<FixRequest> ApprovalsPage::selected() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid())
        return std::nullopt;
    const QModelIndex source = m_proxy->mapToSource(current);
    if (!source.isValid() || source.row() >= m_model->rowCount())
        return std::nullopt;
    return m_model->rowAt(source.row());
}

bool ApprovalsPage::select(qint64 fixId)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex i = m_proxy->index(row, 0);
        if (i.data(IdRole).toLongLong() == fixId) {
            m_table->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

void ApprovalsPage::showSelected()
{
    const auto f = selected();
    m_approve->setEnabled(f && m_mayDecide && f->status == FixStatus::Open &&
                          f->proposedBy != m_actor.id);
    m_reject->setEnabled(m_approve->isEnabled());
    m_openOrder->setEnabled(f && !f->orderId.isEmpty());
    if (!f) {
        ++m_evidenceGeneration; // an evidence load still under way is no longer wanted
        m_header->setText(tr("Select a proposal to see its change and evidence."));
        m_change->clear();
        m_decisions->clear();
        m_evidence->clear();
        return;
    }
    // The reason as the queue's Reason column and the audit trail show it: the code as its
    // word with the code kept, the proposer's own words quoted as written, never translated.
    QString header =
        tr("<b>Fix #%1 — %2</b> on %3<br>Proposed by %4 (%5) from %6, %7<br>"
           "Reason: %8 — %9<br>Status: %10 · approvals %11 of %12")
            .arg(f->id)
            .arg(Labels::fixKind(f->kind).toHtmlEscaped(),
                 QString(f->targetKind + u':' + f->targetId).toHtmlEscaped(),
                 f->proposedBy.toHtmlEscaped(), f->proposerRole.toHtmlEscaped(),
                 f->proposedFrom.toHtmlEscaped(), Labels::time(f->proposedAt),
                 Labels::codedComment(f->reasonCode, {}, Labels::fixReason).toHtmlEscaped(),
                 Labels::codedComment({}, f->comment, Labels::fixReason).toHtmlEscaped())
            .arg(Labels::fixStatus(f->status).toHtmlEscaped())
            .arg(f->approvals())
            .arg(f->approvalsNeeded);
    if (f->expectedVersion)
        header += QStringLiteral("<br>") + tr("Bound to order version %1").arg(f->expectedVersion);
    if (!f->failureReason.isEmpty()) // written by the engine: in the reader's language
        header += QStringLiteral("<br><span style='color:#b00020'>%1</span>")
                      .arg(Labels::engineText(f->failureReason).toHtmlEscaped());
    if (f->proposedBy == m_actor.id && f->status == FixStatus::Open)
        header += QStringLiteral("<br><i>%1</i>")
                      .arg(tr("This is your proposal: another finance "
                              "reviewer must decide it."));
    header += QStringLiteral("<br><small>%1 %2</small>").arg(tr("Digest"), f->changeSha256);
    m_header->setText(header);
    m_change->setChange(f->change);
    m_changeFit->measure();
    // A rejection's reason code as its word with the code kept; the reviewer's comment is their
    // own words, quoted as written and never translated (as the audit trail shows a decision).
    QStringList decisions;
    for (const FixDecision &d : f->decisions) {
        const QString why = Labels::codedComment(d.reasonCode, d.comment, Labels::rejectionReason);
        decisions << tr("%1: %2 by %3 from %4%5")
                         .arg(Labels::time(d.decidedAt),
                              d.decision == u"approve" ? tr("approved") : tr("rejected"),
                              d.decidedBy, d.decidedFrom,
                              why.isEmpty() ? QString() : QStringLiteral(" — ") + why);
        if (!d.lapsed.isEmpty()) // its approver demoted or disabled since: it no longer counts
            decisions.last() += QStringLiteral(" — ") + Labels::engineText(d.lapsed);
    }
    m_decisions->setText(decisions.isEmpty() ? tr("No decisions yet.")
                                             : decisions.join(QStringLiteral("\n")));
    loadEvidence(*f);
}

void ApprovalsPage::loadEvidence(const FixRequest &fix)
{
    const quint64 generation = ++m_evidenceGeneration;
    m_evidence->setPlainText(tr("Loading…"));
    const Actor actor = m_actor;
    runBackgroundQuery<QString>(
        this, m_orders, QStringLiteral("evidence"),
        [fix, actor](const Connection &c) -> Result<QString> {
            auto lines = FixTargets(c, Clock::system()).evidence(fix, actor);
            if (!lines)
                return lines.error();
            return lines->join(QLatin1Char('\n'));
        },
        [this, generation](const Result<QString> &r) {
            if (generation != m_evidenceGeneration)
                return;
            if (!r) {
                m_evidence->setPlainText(errorText(r.error()));
                return;
            }
            // The engine's lines in the interface language; what it cannot place stays as is.
            QStringList lines = r->split(QLatin1Char('\n'));
            for (QString &line : lines)
                line = Labels::engineText(line);
            m_evidence->setPlainText(lines.join(QLatin1Char('\n')));
        });
}

void ApprovalsPage::askApprove()
{
    const auto f = selected();
    if (!f)
        return;
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("approveDialog"));
    dialog.setWindowTitle(tr("Approve fix #%1").arg(f->id));
    auto *comment = new QPlainTextEdit(&dialog);
    comment->setObjectName(QStringLiteral("comment"));
    comment->setPlaceholderText(tr("Optional comment (audited)"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Approve"));
    auto *length = new QLabel(&dialog);
    length->setObjectName(QStringLiteral("commentLength"));
    length->setWordWrap(true);
    approvalsCapComment(comment, length, buttons->button(QDialogButtonBox::Ok), false);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *form = new QFormLayout(&dialog);
    auto *what = new QLabel(tr("You approve exactly this change (digest %1…). %2")
                                .arg(f->changeSha256.left(16),
                                     f->approvals() + 1 >= f->approvalsNeeded
                                         ? tr("It is applied at once.")
                                         : tr("It needs one more approval from someone else.")),
                            &dialog);
    what->setWordWrap(true);
    form->addRow(what);
    form->addRow(tr("&Comment:"), comment);
    form->addRow(length);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted)
        approveSelected(comment->toPlainText().trimmed());
}

void ApprovalsPage::askReject()
{
    const auto f = selected();
    if (!f)
        return;
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("rejectDialog"));
    dialog.setWindowTitle(tr("Reject fix #%1").arg(f->id));
    auto *reason = new QComboBox(&dialog);
    reason->setObjectName(QStringLiteral("reason"));
    for (const QString &r : rejectionReasonCodes())
        reason->addItem(Labels::rejectionReason(r), r);
    auto *comment = new QPlainTextEdit(&dialog);
    comment->setObjectName(QStringLiteral("comment"));
    comment->setPlaceholderText(tr("Why (required, audited)"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Re&ject"));
    auto *length = new QLabel(&dialog);
    length->setObjectName(QStringLiteral("commentLength"));
    length->setWordWrap(true);
    approvalsCapComment(comment, length, buttons->button(QDialogButtonBox::Ok), true);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("&Reason:"), reason);
    form->addRow(tr("&Comment:"), comment);
    form->addRow(length);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted)
        rejectSelected(reason->currentData().toString(), comment->toPlainText().trimmed());
}

void ApprovalsPage::approveSelected(const QString &comment)
{
    decide(true, QString(), comment);
}

void ApprovalsPage::rejectSelected(const QString &reasonCode, const QString &comment)
{
    decide(false, reasonCode, comment);
}

void ApprovalsPage::decide(bool approve, const QString &reasonCode, const QString &comment)
{
    const auto f = selected();
    if (!f)
        return;
    m_busy->setBusy(true);
    m_notice->hide();
    m_approve->setEnabled(false);
    m_reject->setEnabled(false);
    const Actor actor = m_actor;
    const QString origin = consoleOrigin();
    const qint64 id = f->id;
    const QString digest = f->changeSha256;
    runBackgroundQuery<FixRequest>(
        this, m_orders, QStringLiteral("decide"),
        [=](const Connection &c) -> Result<FixRequest> {
            FixService fixes(c, Clock::system());
            return approve ? fixes.approve(id, digest, comment, origin, actor)
                           : fixes.reject(id, reasonCode, comment, origin, actor);
        },
        [this, id](const Result<FixRequest> &r) {
            m_busy->setBusy(false);
            if (r) {
                const QString message = r->status == FixStatus::Applied
                                            ? tr("Fix #%1 approved and applied.").arg(id)
                                        : r->status == FixStatus::Rejected
                                            ? tr("Fix #%1 rejected.").arg(id)
                                            : tr("Fix #%1 approved; it needs %2 more approval(s).")
                                                  .arg(id)
                                                  .arg(r->approvalsNeeded - r->approvals());
                m_notice->setStyleSheet({});
                m_notice->setText(message);
                m_notice->setToolTip({});
                m_notice->show();
                Q_EMIT decided(id, r->status, message);
            } else {
                // Refused (another reviewer decided it first, a comment too long, the rights
                // changed) or not done: said in the interface language, the service's own
                // sentence in the tooltip and the log.
                const QString message = tr("Fix #%1: %2").arg(id).arg(actionErrorText(r.error()));
                m_notice->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
                m_notice->setText(message);
                m_notice->setToolTip(r.error().message);
                m_notice->show();
                Q_EMIT decided(id, QString(), message);
            }
            refresh();
        });
}

} // namespace OncePay
