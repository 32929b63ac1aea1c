// FixService's read side: one fix with its decisions, the filtered list the approvals view and
// the order page show. The decisions (propose, approve, reject) are in fixservice.cpp.

#include "fixservice.h"

#include "auth/permissions.h"
#include "db/sql.h"

#include <QJsonDocument>
#include <QSqlQuery>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

const QString kColumns = QStringLiteral(
    "id, kind, target_kind, target_id, change_json, change_sha256, expected_version, amount_minor,"
    " currency, reason_code, comment, proposed_by, proposer_role, proposed_from, proposed_at,"
    " effective_at, approvals_needed, status, failure_reason, applied_at");

FixRequest fromRow(const QSqlQuery &q)
{
    FixRequest f;
    f.id = q.value(0).toLongLong();
    f.kind = q.value(1).toString();
    f.targetKind = q.value(2).toString();
    f.targetId = q.value(3).toString();
    f.change = QJsonDocument::fromJson(q.value(4).toString().toUtf8()).object();
    f.changeSha256 = q.value(5).toString();
    f.expectedVersion = q.value(6).toLongLong();
    if (!q.value(7).isNull())
        f.amountMinor = q.value(7).toLongLong();
    f.currency = q.value(8).toString();
    f.reasonCode = q.value(9).toString();
    f.comment = q.value(10).toString();
    f.proposedBy = q.value(11).toString();
    f.proposerRole = q.value(12).toString();
    f.proposedFrom = q.value(13).toString();
    f.proposedAt = q.value(14).toLongLong();
    f.effectiveAt = q.value(15).toLongLong();
    f.approvalsNeeded = q.value(16).toInt();
    f.status = q.value(17).toString();
    f.failureReason = q.value(18).toString();
    f.appliedAt = q.value(19).toLongLong();
    f.orderId = f.change.value(QStringLiteral("order_id")).toString();
    f.callbackId = f.change.value(QStringLiteral("callback_id")).toString();
    return f;
}

} // namespace

Result<FixRequest> FixService::get(qint64 fixId) const
{
    return load(fixId, false);
}

Result<FixRequest> FixService::load(qint64 fixId, bool lock) const
{
    QString sql = QStringLiteral("SELECT %1 FROM fix_requests WHERE id = ?").arg(kColumns);
    if (lock && m_c.dialect() != Dialect::Sqlite)
        sql += QStringLiteral(" FOR UPDATE");
    auto q = Sql::exec(m_c.db(), sql, {fixId});
    if (!q)
        return q.error();
    if (!q->next())
        return makeError(ErrorCode::NotFound, QStringLiteral("no fix #%1").arg(fixId));
    FixRequest f = fromRow(*q);
    auto d = decisions(fixId);
    if (!d)
        return d.error();
    f.decisions = *d;
    if (!lock)
        markLapsedForReading(f);
    else if (auto m = markLapsed(f); !m)
        return m.error();
    return f;
}

Result<QList<FixDecision>> FixService::decisions(qint64 fixId) const
{
    auto q =
        Sql::exec(m_c.db(),
                  QStringLiteral("SELECT decided_by, decision, reason_code, comment, decided_from,"
                                 " decided_at FROM fix_decisions WHERE fix_id = ? ORDER BY id"),
                  {fixId});
    if (!q)
        return q.error();
    QList<FixDecision> out;
    while (q->next())
        out.append({q->value(0).toString(), q->value(1).toString(), q->value(2).toString(),
                    q->value(3).toString(), q->value(4).toString(), q->value(5).toLongLong()});
    return out;
}

Result<void> FixService::markLapsed(FixRequest &f) const
{
    if (f.status != FixStatus::Open)
        return {}; // a decided fix's decisions are history
    for (FixDecision &d : f.decisions) {
        if (d.decision != u"approve")
            continue;
        // The approver's account as it is now (in the caller's transaction, when there is one).
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT role, disabled FROM staff WHERE username = ?"),
                           {d.decidedBy});
        if (!q)
            return q.error();
        const bool current =
            q->next() && q->value(0).toString() == u"finance" && q->value(1).toInt() == 0;
        d.lapsed = current ? QString()
                           : QStringLiteral("%1 is no longer a finance reviewer: its approval no "
                                            "longer counts")
                                 .arg(d.decidedBy);
    }
    return {};
}

void FixService::markLapsedForReading(FixRequest &f) const
{
    // The engine's database login may not read staff accounts (packaging/sql): `oncepay fix
    // list` on its configuration shows the approvals as recorded. A decision always reads them
    // (load with lock), and refuses when it cannot.
    if (auto m = markLapsed(f); !m)
        spdlog::warn("fix #{}: approvals shown as recorded, the approvers' accounts could not be "
                     "read: {}",
                     f.id, m.error().message.toStdString());
}

QString FixService::orderCondition()
{
    // Every fix that touches an order names it in its change (propose() writes order_id for
    // order, message and discrepancy fixes alike), which the database keeps as a column. Not
    // change_json LIKE '%"order_id":"<id>"%': that read every fix, and an order id's '_' or
    // '%' matched other orders' fixes.
    return QStringLiteral("order_id = ?");
}

Result<QList<FixRequest>> FixService::list(const FixFilter &filter) const
{
    QString sql = QStringLiteral("SELECT %1 FROM fix_requests WHERE 1 = 1").arg(kColumns);
    QVariantList binds;
    if (!filter.statuses.isEmpty()) {
        QStringList marks;
        for (const QString &s : filter.statuses) {
            marks << QStringLiteral("?");
            binds << s;
        }
        sql += QStringLiteral(" AND status IN (%1)").arg(marks.join(QStringLiteral(", ")));
    }
    if (!filter.kind.isEmpty()) {
        sql += QStringLiteral(" AND kind = ?");
        binds << filter.kind;
    }
    if (!filter.proposedBy.isEmpty()) {
        sql += QStringLiteral(" AND proposed_by = ?");
        binds << filter.proposedBy;
    }
    if (!filter.orderId.isEmpty()) {
        sql += QStringLiteral(" AND ") + orderCondition();
        binds << filter.orderId;
    }
    sql += QStringLiteral(" ORDER BY id DESC LIMIT %1").arg(qBound(1, filter.limit, 10000));
    auto q = Sql::exec(m_c.db(), sql, binds);
    if (!q)
        return q.error();
    QList<FixRequest> out;
    while (q->next())
        out.append(fromRow(*q));
    for (FixRequest &f : out) {
        auto d = decisions(f.id);
        if (!d)
            return d.error();
        f.decisions = *d;
        markLapsedForReading(f);
    }
    return out;
}

Result<QList<FixRequest>> FixService::list(const FixFilter &filter, const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    return list(filter);
}

} // namespace OncePay
