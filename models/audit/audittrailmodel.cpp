#include "audittrailmodel.h"

#include "audit/auditexportwriter.h"
#include "common/enginetext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "common/rowtablemodel.h"

namespace OncePay {

AuditTrailModel::AuditTrailModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

quint64 AuditTrailModel::reset()
{
    beginResetModel();
    m_rows.clear();
    m_lastSeq = 0;
    m_atEnd = false;
    m_loading = false;
    ++m_generation;
    endResetModel();
    return m_generation;
}

void AuditTrailModel::appendPage(quint64 generation, const AuditPage &page)
{
    if (generation != m_generation)
        return;
    // The position moves before the rows are announced: a view that fetches more while the
    // rows go in must ask for what follows them, not for them again.
    m_loading = false;
    m_atEnd = page.atEnd;
    if (page.rows.isEmpty())
        return;
    m_lastSeq = page.lastSeq;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.rows.size() - 1));
    m_rows += page.rows;
    endInsertRows();
}

void AuditTrailModel::fetchFailed(quint64 generation)
{
    if (generation != m_generation)
        return;
    m_loading = false;
    m_atEnd = true;
}

int AuditTrailModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AuditTrailModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : Count;
}

QVariant AuditTrailModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AuditLogRow &r = m_rows.at(index.row());
    if (role == OrderIdRole)
        return r.orderId.value_or(QString());
    if (role == Qt::TextAlignmentRole && (index.column() == Seq || index.column() == Amount))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case Seq: return r.seq;
    case Time:
        return role == Qt::ToolTipRole ? AuditFilter::formatTime(r.occurredAt)
                                       : Labels::time(r.occurredAt);
    case Actor: return r.actor;
    // Codes read as words; the tooltip keeps the code, which is what the action filter and
    // the exports use.
    case Role: return role == Qt::ToolTipRole ? r.actorRole : Labels::actorRole(r.actorRole);
    case Action: return role == Qt::ToolTipRole ? r.action : Labels::auditAction(r.action);
    case Entity:
        return role == Qt::ToolTipRole
                   ? QString(r.entityKind + QLatin1Char(' ') + r.entityId)
                   : QString(Labels::entityKind(r.entityKind) + QLatin1Char(' ') + r.entityId);
    case Order: return r.orderId.value_or(QString());
    case Callback: return r.callbackId.value_or(QString());
    case Amount: {
        // Shown in the currency's own decimals as on every other page ("45.66 USD", never
        // "4566 USD"), exact: from the recorded minor units, never through floating point. The
        // tooltip keeps the record as it stands, which the exports write.
        const AuditAmount a = auditRowAmount(r);
        if (a.minor.isEmpty())
            return QString();
        const QString recorded = a.minor + QLatin1Char(' ') + a.currency;
        if (role == Qt::ToolTipRole)
            return tr("%1 (recorded in minor units)").arg(recorded);
        bool ok = false;
        const qint64 minor = a.minor.toLongLong(&ok);
        return ok ? Labels::money(minor, a.currency) : recorded;
    }
    case Reason:
        return role == Qt::ToolTipRole
                   ? r.reason.value_or(QString())
                   : Labels::auditReason(r.action, r.actorRole, r.reason.value_or(QString()));
    case Count: break;
    }
    return {};
}

QVariant AuditTrailModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Seq: return tr("Seq");
    case Time: return tr("Time");
    case Actor: return tr("Actor");
    case Role: return tr("Role");
    case Action: return tr("Action");
    case Entity: return tr("Entity");
    case Order: return tr("Order");
    case Callback: return tr("Callback");
    case Amount: return tr("Amount");
    case Reason: return tr("Reason");
    case Count: break;
    }
    return {};
}

bool AuditTrailModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_atEnd && !m_loading;
}

void AuditTrailModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_loading = true;
    Q_EMIT fetchRequested(m_generation, m_lastSeq);
}

} // namespace OncePay
