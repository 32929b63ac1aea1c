#include "fixmodels.h"

#include "common/enginetext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "fixes/fixchange.h"
#include "fixlabels.h"

#include <QDateTime>
#include <QFont>
#include <QJsonObject>

namespace OncePay {

namespace {

// A column cell from a display function, with the row's order and id on every column.
template <typename Row, typename Id, typename Display> auto cellOf(Id id, Display display)
{
    return [id, display](const Row &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return QString(display(r));
        if (role == IdRole)
            return id(r);
        if (role == OrderIdRole) {
            if constexpr (requires { r.orderId; })
                return r.orderId;
        }
        return {};
    };
}

QVariant moneyCell(bool has, qint64 minor, const QString &currency, int role)
{
    if (!has || currency.isEmpty())
        return {};
    if (role == Qt::DisplayRole)
        return Labels::money(minor, currency);
    if (role == SortRole)
        return Labels::moneySortKey(minor, currency);
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QString day(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd"));
}

} // namespace

FixModel::FixModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto id = [](const FixRequest &f) { return f.id; };
    const auto cell = [id](auto display) { return cellOf<FixRequest>(id, display); };
    addColumn(tr("#"), [](const FixRequest &f, int role) -> QVariant {
        if (role == Qt::DisplayRole || role == SortRole || role == IdRole)
            return f.id;
        if (role == OrderIdRole)
            return f.orderId;
        return {};
    });
    addColumn(tr("Kind"),
              cell([](const FixRequest &f) -> QString { return Labels::fixKind(f.kind); }));
    addColumn(tr("Target"), cell([](const FixRequest &f) -> QString { return f.targetId; }));
    addColumn(tr("Amount"), [](const FixRequest &f, int role) -> QVariant {
        if (role == IdRole)
            return f.id;
        return moneyCell(f.amountMinor.has_value(), f.amountMinor.value_or(0), f.currency, role);
    });
    addColumn(tr("Approvals"), cell([](const FixRequest &f) -> QString {
                  return QStringLiteral("%1 / %2").arg(f.approvals()).arg(f.approvalsNeeded);
              }));
    addColumn(tr("Proposed by"), cell([](const FixRequest &f) -> QString { return f.proposedBy; }));
    addColumn(tr("Age"), [this](const FixRequest &f, int role) -> QVariant {
        const qint64 age =
            qMax<qint64>(0, (m_now ? m_now : QDateTime::currentMSecsSinceEpoch()) - f.proposedAt);
        if (role == Qt::DisplayRole)
            return Labels::age(age);
        if (role == SortRole)
            return age;
        if (role == Qt::ToolTipRole)
            return tr("proposed %1").arg(Labels::time(f.proposedAt));
        if (role == IdRole)
            return f.id;
        return {};
    });
    addColumn(tr("Status"), [](const FixRequest &f, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::fixStatus(f.status);
        if (role == RefusedRole)
            return f.status == u"failed" || f.status == u"rejected";
        if (role == Qt::ToolTipRole && !f.failureReason.isEmpty())
            return f.failureReason;
        if (role == IdRole)
            return f.id;
        return {};
    });
    // As the audit trail shows the proposal's reason: the code as its word (the code kept),
    // the proposer's comment quoted as written.
    addColumn(tr("Reason"), cell([](const FixRequest &f) -> QString {
                  return Labels::auditReason(QStringLiteral("fix.proposed"), f.proposerRole,
                                             f.comment.isEmpty()
                                                 ? f.reasonCode
                                                 : f.reasonCode + QStringLiteral(": ") + f.comment);
              }));
}

namespace {

// A change's value as its tooltip says it: the words, and the stored code when it differs.
QString withCode(const QString &shown, const QString &code)
{
    return code.isEmpty() || code == shown ? shown : shown + QStringLiteral(" (") + code + u')';
}

} // namespace

ChangeModel::ChangeModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Field"), [](const ChangeRow &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.field;
        if (role == Qt::FontRole && r.fieldCode.isEmpty()) { // the context's heading
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        if (role == Qt::ToolTipRole)
            return r.fieldCode.isEmpty() ? r.field : r.fieldCode;
        return {};
    });
    addColumn(tr("Before"), [](const ChangeRow &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.before;
        if (role == Qt::ToolTipRole) // the whole value (a long one is cut), with its code
            return withCode(r.before, r.beforeCode);
        return {};
    });
    addColumn(tr("After"), [](const ChangeRow &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.after;
        if (role == Qt::ToolTipRole)
            return withCode(r.after, r.afterCode);
        if (role == Qt::FontRole && r.after != r.before) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    });
}

QString ChangeModel::fieldName(const QString &field)
{
    if (field == u"state")
        return tr("state");
    if (field == u"status")
        return tr("status");
    if (field == u"version")
        return tr("version");
    if (field == u"attempts")
        return tr("attempts");
    if (field == u"updated_at")
        return tr("updated");
    if (field == u"result_reason")
        return tr("result");
    if (field == u"channel")
        return tr("channel");
    if (field == u"amount")
        return tr("amount");
    if (field == u"captured")
        return tr("captured");
    if (field == u"shortfall")
        return tr("short of the order's amount");
    if (field == u"excess")
        return tr("more than the order's amount");
    if (field == u"state_reason")
        return tr("state reason");
    if (field == u"expected_minor")
        return tr("expected (minor units)");
    if (field == u"actual_minor")
        return tr("actual (minor units)");
    if (field == u"ledger_kind")
        return tr("ledger entry");
    if (field == u"ledger_order")
        return tr("ledger order");
    if (field == u"period_from")
        return tr("period from");
    if (field == u"period_to")
        return tr("period to");
    if (field == u"open_discrepancies")
        return tr("open discrepancies");
    if (field == u"reconciliation_run")
        return tr("reconciliation run");
    if (field == u"coverage_ppm")
        return tr("coverage");
    return field;
}

QString ChangeModel::fieldValue(const QString &target, const QString &field, const QString &value)
{
    if (value.isEmpty() || value == u"—")
        return value;
    if (field == u"state")
        return Labels::orderState(value);
    if (field == u"status") {
        if (target.startsWith(u"message:"))
            return Labels::messageStatus(value);
        if (target.startsWith(u"period:"))
            return value == u"open"     ? tr("open", "period")
                   : value == u"closed" ? tr("closed", "period")
                                        : value;
        return Labels::discrepancyStatus(value);
    }
    if (field == u"ledger_kind")
        return Labels::ledgerKind(value);
    if (field == u"result_reason" || field == u"state_reason")
        return Labels::engineText(value);
    if (field == u"coverage_ppm")
        return Labels::coverage(value.toLongLong());
    bool number = false;
    const qint64 ms = value.toLongLong(&number);
    if (number && (field.endsWith(u"_at") || field == u"period_from" || field == u"period_to"))
        return Labels::time(ms);
    return value;
}

void ChangeModel::setChange(const QJsonObject &change)
{
    // What the fix changes and what is context is the service's rule (fixchange.h); this only
    // puts it in words: the changes first, then the context under a heading of its own, each
    // context fact with Before = After (not bold: the fix does not set it).
    const QString target = change.value(QStringLiteral("target")).toString();
    QList<ChangeRow> rows;
    bool contextHeading = false;
    for (const FixChangeLine &l : fixChangeLines(change)) {
        if (l.kind == FixChangeLine::Kind::Context && !contextHeading) {
            rows.append({tr("Context (not changed by the fix)"), QString(), QString(), QString(),
                         QString(), QString()});
            contextHeading = true;
        }
        const QString after = l.after == FixChange::WhenApplied
                                  ? tr("when applied", "the time a fix is applied")
                                  : fieldValue(target, l.field, l.after);
        rows.append({fieldName(l.field), fieldValue(target, l.field, l.before), after, l.field,
                     l.before, l.after});
    }
    setRows(rows);
}

RunModel::RunModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto id = [](const ReconciliationRunRow &r) { return r.id; };
    const auto cell = [id](auto display) { return cellOf<ReconciliationRunRow>(id, display); };
    addColumn(tr("Run"), [](const ReconciliationRunRow &r, int role) -> QVariant {
        if (role == Qt::DisplayRole || role == SortRole || role == IdRole)
            return r.id;
        return {};
    });
    addColumn(tr("Period"), cell([](const ReconciliationRunRow &r) -> QString {
                  return QStringLiteral("%1 … %2").arg(day(r.periodFrom), day(r.periodTo - 1)) +
                         (r.closed ? QStringLiteral("  🔒") : QString());
              }));
    addColumn(tr("Status"), cell([](const ReconciliationRunRow &r) -> QString {
                  return Labels::runStatus(r.status);
              }));
    addColumn(tr("Coverage"), [](const ReconciliationRunRow &r, int role) -> QVariant {
        if (!r.coveragePpm)
            return {};
        if (role == Qt::DisplayRole)
            return Labels::coverage(*r.coveragePpm);
        if (role == SortRole)
            return *r.coveragePpm;
        if (role == Qt::ToolTipRole)
            return tr("settled and matched ÷ eligible = %1 ÷ %2").arg(r.matched).arg(r.eligible);
        return {};
    });
    addColumn(tr("Matched"), cell([](const ReconciliationRunRow &r) -> QString {
                  return QStringLiteral("%1 / %2").arg(r.matched).arg(r.eligible);
              }));
    addColumn(tr("Auto-fixed"), cell([](const ReconciliationRunRow &r) -> QString {
                  return QString::number(r.autoFixed);
              }));
    addColumn(tr("Opened"), cell([](const ReconciliationRunRow &r) -> QString {
                  return QString::number(r.opened);
              }));
    addColumn(tr("By"), cell([](const ReconciliationRunRow &r) -> QString { return r.actor; }));
    addColumn(tr("Finished"), cell([](const ReconciliationRunRow &r) -> QString {
                  return Labels::time(r.finishedAt);
              }));
}

DiscrepancyDeskModel::DiscrepancyDeskModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto id = [](const DiscrepancyRow &d) { return d.id; };
    const auto cell = [id](auto display) { return cellOf<DiscrepancyRow>(id, display); };
    addColumn(tr("#"), [](const DiscrepancyRow &d, int role) -> QVariant {
        if (role == Qt::DisplayRole || role == SortRole || role == IdRole)
            return d.id;
        if (role == OrderIdRole)
            return d.orderId;
        return {};
    });
    addColumn(tr("Kind"), cell([](const DiscrepancyRow &d) -> QString {
                  return Labels::discrepancyKind(d.kind);
              }));
    addColumn(tr("Channel"), cell([](const DiscrepancyRow &d) -> QString { return d.channel; }));
    addColumn(tr("Transaction"),
              cell([](const DiscrepancyRow &d) -> QString { return d.channelTxnId; }));
    addColumn(tr("Order"), cell([](const DiscrepancyRow &d) -> QString { return d.orderId; }));
    addColumn(tr("Expected"), [](const DiscrepancyRow &d, int role) -> QVariant {
        return moneyCell(d.expectedMinor.has_value(), d.expectedMinor.value_or(0),
                         d.expectedCurrency(), role);
    });
    addColumn(tr("Actual"), [](const DiscrepancyRow &d, int role) -> QVariant {
        return moneyCell(d.actualMinor.has_value(), d.actualMinor.value_or(0), d.currency, role);
    });
    addColumn(tr("Difference"), [](const DiscrepancyRow &d, int role) -> QVariant {
        const auto difference = d.differenceMinor();
        return moneyCell(difference.has_value(), difference.value_or(0), d.currency, role);
    });
    addColumn(tr("Age"), [](const DiscrepancyRow &d, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::age(d.ageMs);
        if (role == SortRole)
            return d.ageMs;
        if (role == Qt::ToolTipRole)
            return tr("opened %1").arg(Labels::time(d.openedAt));
        return {};
    });
    addColumn(tr("Status"), [](const DiscrepancyRow &d, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return QString(Labels::discrepancyStatus(d.status) +
                           (d.openFixId ? tr(" (fix #%1 proposed)").arg(d.openFixId) : QString()));
        if (role == RefusedRole)
            return d.status == u"open";
        if (role == IdRole)
            return d.id;
        return {};
    });
    addColumn(tr("Rule"), cell([](const DiscrepancyRow &d) -> QString {
                  return d.ruleId.isEmpty()
                             ? QString()
                             : QStringLiteral("%1 v%2").arg(d.ruleId).arg(d.ruleVersion);
              }));
}

} // namespace OncePay
