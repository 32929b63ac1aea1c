#include "fixservice.h"

#include "audit/auditevent.h"
#include "audit/auditoutbox.h"
#include "auth/permissions.h"
#include "auth/staffrights.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "fixtargets.h"
#include "settings/opssettings.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace OncePay {

namespace {

constexpr int kMaxComment = FixService::kMaxCommentLength;
constexpr int kMaxOrigin = 190;

Result<void> validateText(const QString &what, const QString &text, bool required, int max)
{
    if (required && text.trimmed().isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("%1 is required").arg(what));
    if (text.size() > max)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1 is longer than %2 characters").arg(what).arg(max));
    return {};
}

} // namespace

QStringList FixKind::all()
{
    return {RequeueMessage, ResolveMessage, ConfirmPayment, RollbackPayment,
            AdjustFee,      WriteOff,       ClosePeriod};
}

QString FixKind::targetKind(const QString &kind)
{
    if (kind == RequeueMessage || kind == ResolveMessage)
        return QStringLiteral("message");
    if (kind == ConfirmPayment || kind == RollbackPayment)
        return QStringLiteral("order");
    if (kind == AdjustFee || kind == WriteOff)
        return QStringLiteral("discrepancy");
    if (kind == ClosePeriod)
        return QStringLiteral("period");
    return {};
}

QStringList fixReasonCodes()
{
    return {QStringLiteral("channel_outage"),
            QStringLiteral("poison_message"),
            QStringLiteral("duplicate_handled"),
            QStringLiteral("customer_dispute"),
            QStringLiteral("payment_verified"),
            QStringLiteral("payment_not_received"),
            QStringLiteral("settlement_correction"),
            QStringLiteral("fee_schedule_change"),
            QStringLiteral("immaterial_difference"),
            QStringLiteral("period_end"),
            QStringLiteral("other")};
}

QStringList rejectionReasonCodes()
{
    return {QStringLiteral("insufficient_evidence"), QStringLiteral("wrong_target"),
            QStringLiteral("wrong_amount"),          QStringLiteral("against_policy"),
            QStringLiteral("needs_investigation"),   QStringLiteral("other")};
}

int FixRequest::approvals() const
{
    int n = 0;
    for (const FixDecision &d : decisions)
        n += d.decision == u"approve" && d.lapsed.isEmpty();
    return n;
}

QStringList FixRequest::lapsedApprovals() const
{
    QStringList out;
    for (const FixDecision &d : decisions)
        if (d.decision == u"approve" && !d.lapsed.isEmpty())
            out << d.lapsed;
    return out;
}

QString FixService::digest(const QJsonObject &change)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(AuditOutbox::toJson(change).toUtf8(), QCryptographicHash::Sha256)
            .toHex());
}

Result<FixRequest> FixService::propose(const FixProposal &p, const Actor &actor) const
{
    const QString target = QStringLiteral("%1:%2").arg(FixKind::targetKind(p.kind), p.targetId);
    if (auto r = require(actor, Action::ProposeFix); !r)
        return refuse(r.error(), QStringLiteral("propose"), 0, target, actor, p.origin);
    if (FixKind::targetKind(p.kind).isEmpty())
        return refuse(makeError(ErrorCode::Invalid,
                                QStringLiteral("unknown fix kind '%1' (one of: %2)")
                                    .arg(p.kind, FixKind::all().join(QStringLiteral(", ")))),
                      QStringLiteral("propose"), 0, target, actor, p.origin);
    if (!fixReasonCodes().contains(p.reasonCode))
        return refuse(
            makeError(ErrorCode::Invalid,
                      QStringLiteral("unknown reason code '%1' (one of: %2)")
                          .arg(p.reasonCode, fixReasonCodes().join(QStringLiteral(", ")))),
            QStringLiteral("propose"), 0, target, actor, p.origin);
    for (const auto &check :
         {validateText(QStringLiteral("a comment"), p.comment, true, kMaxComment),
          validateText(QStringLiteral("the target"), p.targetId, true, 190),
          validateText(QStringLiteral("the origin"), p.origin, false, kMaxOrigin)})
        if (!check)
            return refuse(check.error(), QStringLiteral("propose"), 0, target, actor, p.origin);

    FixTargets targets(m_c, m_clock);
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<FixRequest> {
        // The proposer's rights as they are now, not as at sign-in (issue #8).
        if (auto r = requireCurrent(m_c, actor, Action::ProposeFix); !r)
            return r.error();
        auto planned = targets.plan(p);
        if (!planned)
            return planned.error();
        if (auto open = targets.ensurePeriodOpen(planned->effectiveAt); !open)
            return open.error();
        // From the largest amount at stake, not only the one stated (a write-off of 1 of a
        // 2,133.72 difference needs what the difference needs).
        auto needed = approvalsNeeded(planned->currency, planned->amountMinor);
        if (!needed)
            return needed.error();
        for (const auto &[currency, minor] : planned->atStake) {
            auto more = approvalsNeeded(currency, minor);
            if (!more)
                return more.error();
            needed = std::max(*needed, *more);
        }
        FixRequest f;
        f.kind = p.kind;
        f.targetKind = planned->targetKind;
        // As planning names it, not as spelled ("03", " 3"): one open proposal per target.
        f.targetId = planned->targetId.isEmpty() ? p.targetId.trimmed() : planned->targetId;
        f.orderId = planned->orderId;
        f.callbackId = planned->callbackId;
        f.expectedVersion = planned->expectedVersion;
        f.amountMinor = planned->amountMinor;
        f.currency = planned->currency;
        f.change = {
            {QStringLiteral("kind"), p.kind},
            {QStringLiteral("target"), QStringLiteral("%1:%2").arg(f.targetKind, f.targetId)},
            {QStringLiteral("before"), planned->before},
            {QStringLiteral("after"), planned->after},
            {QStringLiteral("detail"), planned->detail}};
        if (!planned->context.isEmpty())
            f.change.insert(QStringLiteral("context"), planned->context);
        if (!f.orderId.isEmpty())
            f.change.insert(QStringLiteral("order_id"), f.orderId);
        if (!f.callbackId.isEmpty())
            f.change.insert(QStringLiteral("callback_id"), f.callbackId);
        if (f.expectedVersion > 0)
            f.change.insert(QStringLiteral("expected_version"), QString::number(f.expectedVersion));
        if (f.amountMinor) {
            f.change.insert(QStringLiteral("amount_minor"), QString::number(*f.amountMinor));
            f.change.insert(QStringLiteral("currency"), f.currency);
        }
        f.changeSha256 = digest(f.change);
        f.reasonCode = p.reasonCode;
        f.comment = p.comment.trimmed();
        f.proposedBy = actor.id;
        f.proposerRole = actor.role;
        f.proposedFrom = p.origin;
        f.proposedAt = m_clock.nowMs();
        f.effectiveAt = planned->effectiveAt;
        f.approvalsNeeded = *needed;
        f.status = FixStatus::Open;
        const QString openTarget = QStringLiteral("%1:%2").arg(f.targetKind, f.targetId);
        // Checked first for a helpful answer; the unique key on open_target decides races
        // (and PostgreSQL cannot ask anything after a failed statement in a transaction).
        auto other = Sql::scalar(
            m_c.db(), QStringLiteral("SELECT id FROM fix_requests WHERE open_target = ?"),
            {openTarget});
        if (!other)
            return other.error();
        if (!other->isNull())
            return makeError(
                ErrorCode::Conflict,
                QStringLiteral("%1 already has an open proposal (#%2); decide that one first")
                    .arg(openTarget, other->toString()),
                QStringLiteral("open_proposal_exists"));
        auto id = Sql::insert(
            m_c.db(), m_c.dialect(),
            QStringLiteral("INSERT INTO fix_requests (kind, target_kind, target_id, open_target,"
                           " change_json, change_sha256, expected_version, amount_minor, currency,"
                           " reason_code, comment, proposed_by, proposer_role, proposed_from,"
                           " proposed_at, effective_at, approvals_needed, status)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open')"),
            {f.kind, f.targetKind, f.targetId, openTarget, AuditOutbox::toJson(f.change),
             f.changeSha256, f.expectedVersion > 0 ? QVariant(f.expectedVersion) : QVariant(),
             f.amountMinor ? QVariant(*f.amountMinor) : QVariant(), Sql::nullIfEmpty(f.currency),
             f.reasonCode, f.comment, f.proposedBy, f.proposerRole, f.proposedFrom, f.proposedAt,
             f.effectiveAt > 0 ? QVariant(f.effectiveAt) : QVariant(), f.approvalsNeeded});
        if (!id) {
            if (id.error().code != ErrorCode::Conflict)
                return id.error();
            return makeError(
                ErrorCode::Conflict,
                QStringLiteral("%1 got an open proposal at the same moment; decide that one first")
                    .arg(openTarget),
                QStringLiteral("open_proposal_exists"));
        }
        f.id = *id;
        if (auto a = audit(QStringLiteral("fix.proposed"), f, actor, p.origin,
                           {{QStringLiteral("approvals_needed"), f.approvalsNeeded}},
                           f.reasonCode + QStringLiteral(": ") + f.comment);
            !a)
            return a.error();
        return f;
    });
    if (!done)
        return refuse(done.error(), QStringLiteral("propose"), 0, target, actor, p.origin);
    spdlog::info("fix #{} proposed by {}: {} on {}:{} (needs {} approval(s))", done->id,
                 actor.id.toStdString(), done->kind.toStdString(), done->targetKind.toStdString(),
                 done->targetId.toStdString(), done->approvalsNeeded);
    return done;
}

Result<FixRequest> FixService::approve(qint64 fixId, const QString &changeSha256,
                                       const QString &comment, const QString &origin,
                                       const Actor &actor) const
{
    const QString target = QStringLiteral("fix:%1").arg(fixId);
    if (auto r = require(actor, Action::DecideFix); !r)
        return refuse(r.error(), QStringLiteral("approve"), fixId, target, actor, origin);
    for (const auto &check :
         {validateText(QStringLiteral("a comment"), comment, false, kMaxComment),
          validateText(QStringLiteral("the origin"), origin, false, kMaxOrigin)})
        if (!check)
            return refuse(check.error(), QStringLiteral("approve"), fixId, target, actor, origin);

    // Step 1: the decision, and the change when this is the last approval it needs — one
    // transaction, so an applied fix always has its approval and an approval of a complete fix
    // is never left unapplied.
    std::optional<FixRequest> decided; // set when the decision held but the change did not
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<FixRequest> {
        // The reviewer's rights as they are now, not as at sign-in (issue #8).
        if (auto r = requireCurrent(m_c, actor, Action::DecideFix); !r)
            return r.error();
        auto loaded = loadForDecision(fixId, actor);
        if (!loaded)
            return loaded.error();
        FixRequest f = *loaded;
        for (const FixDecision &d : f.decisions)
            if (d.decidedBy == actor.id)
                return makeError(
                    ErrorCode::Conflict,
                    QStringLiteral("%1 already approved fix #%2; a second approval must come "
                                   "from someone else")
                        .arg(actor.id)
                        .arg(fixId),
                    QStringLiteral("already_decided"));
        if (digest(f.change) != f.changeSha256)
            return makeError(
                ErrorCode::Corrupt,
                QStringLiteral("fix #%1's stored change no longer matches its digest").arg(fixId),
                QStringLiteral("digest_mismatch"));
        // The amount and currency columns (what reconciliation reads of an applied write-off)
        // must say what the digest covers and the approval books: a proposal's columns changed
        // by hand while it was open are refused like a changed change (migration 0014 freezes
        // them once it is decided).
        if (f.change.contains(QStringLiteral("amount_minor")) &&
            (!f.amountMinor ||
             QString::number(*f.amountMinor) != f.change.value(QStringLiteral("amount_minor")) ||
             f.currency != f.change.value(QStringLiteral("currency")).toString()))
            return makeError(ErrorCode::Corrupt,
                             QStringLiteral("fix #%1's amount and currency columns no longer "
                                            "match its change")
                                 .arg(fixId),
                             QStringLiteral("digest_mismatch"));
        if (changeSha256 != f.changeSha256)
            return makeError(
                ErrorCode::Conflict,
                QStringLiteral("the change approved (%1) is not fix #%2's change (%3)")
                    .arg(changeSha256.left(12), QString::number(fixId), f.changeSha256.left(12)),
                QStringLiteral("digest_mismatch"));
        if (auto d = recordDecision(f, QStringLiteral("approve"), {}, comment, origin, actor); !d)
            return d.error();
        f.decisions.append(
            {actor.id, QStringLiteral("approve"), {}, comment, origin, m_clock.nowMs()});
        QJsonObject counted{{QStringLiteral("approvals"), f.approvals()},
                            {QStringLiteral("approvals_needed"), f.approvalsNeeded},
                            {QStringLiteral("change_sha256"), f.changeSha256}};
        if (const QStringList lapsed = f.lapsedApprovals(); !lapsed.isEmpty())
            counted.insert(QStringLiteral("lapsed"), QJsonArray::fromStringList(lapsed));
        if (auto a = audit(QStringLiteral("fix.approved"), f, actor, origin, counted, comment); !a)
            return a.error();
        // Only current finance reviewers' approvals count (FixDecision::lapsed, read with the
        // staff rows in this transaction): one who was demoted or disabled since approving
        // leaves the fix waiting for another. The trigger of migration 0002 counts every stored
        // approval, a floor this is stricter than.
        if (f.approvals() < f.approvalsNeeded) {
            for (const QString &why : f.lapsedApprovals())
                spdlog::warn("fix #{}: {}", fixId, why.toStdString());
            return f; // waits for another finance reviewer
        }
        decided = f;
        if (auto applied = FixTargets(m_c, m_clock).apply(f, actor); !applied)
            return applied.error();
        const qint64 now = m_clock.nowMs();
        auto u =
            Sql::update(m_c.db(),
                        QStringLiteral("UPDATE fix_requests SET status = 'applied', applied_at = ?,"
                                       " open_target = NULL WHERE id = ? AND status = 'open'"),
                        {now, fixId});
        if (!u)
            return u.error();
        if (*u != 1)
            return makeError(ErrorCode::Conflict,
                             QStringLiteral("fix #%1 was decided meanwhile").arg(fixId));
        f.status = FixStatus::Applied;
        f.appliedAt = now;
        if (auto a = audit(QStringLiteral("fix.applied"), f, actor, origin, f.change, f.reasonCode);
            !a)
            return a.error();
        return f;
    });
    if (done) {
        spdlog::info("fix #{} approved by {} ({} of {}){}", fixId, actor.id.toStdString(),
                     done->approvals(), done->approvalsNeeded,
                     done->status == FixStatus::Applied ? ", applied" : "");
        return done;
    }
    if (!decided)
        return refuse(done.error(), QStringLiteral("approve"), fixId, target, actor, origin);

    // Step 2: the approval held but the change could not be applied (the target moved, the
    // period closed). Record the approval and the failure; the proposal must be made again.
    const Error why = done.error();
    if (why.code == ErrorCode::Unavailable)
        return why; // nothing was recorded; the reviewer can approve again
    // The rule could not judge the lease (its setting is no valid number), or this clock sees it
    // ended within the clock-skew allowance: the target did not move, so the approval is refused
    // (audited), nothing is recorded and the proposal stays open to be approved later.
    if (why.reason == u"bad_setting" || why.reason == u"lease_within_skew")
        return refuse(why, QStringLiteral("approve"), fixId, target, actor, origin);
    auto failed =
        inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<FixRequest> {
            auto loaded = load(fixId, true);
            if (!loaded)
                return loaded.error();
            FixRequest f = *loaded;
            if (f.status != FixStatus::Open)
                return makeError(ErrorCode::Conflict,
                                 QStringLiteral("fix #%1 was decided meanwhile").arg(fixId));
            if (auto d = recordDecision(f, QStringLiteral("approve"), {}, comment, origin, actor);
                !d)
                return d.error();
            f.decisions.append(
                {actor.id, QStringLiteral("approve"), {}, comment, origin, m_clock.nowMs()});
            auto u = Sql::update(
                m_c.db(),
                QStringLiteral("UPDATE fix_requests SET status = 'failed', failure_reason = ?,"
                               " open_target = NULL WHERE id = ? AND status = 'open'"),
                {why.message.left(190), fixId});
            if (!u)
                return u.error();
            f.status = FixStatus::Failed;
            f.failureReason = why.message;
            if (auto a = audit(QStringLiteral("fix.approved"), f, actor, origin,
                               {{QStringLiteral("approvals"), f.approvals()},
                                {QStringLiteral("approvals_needed"), f.approvalsNeeded},
                                {QStringLiteral("change_sha256"), f.changeSha256}},
                               comment);
                !a)
                return a.error();
            if (auto a = audit(QStringLiteral("fix.failed"), f, actor, origin,
                               {{QStringLiteral("failure"), why.message},
                                {QStringLiteral("failure_code"), errorCodeName(why.code)}},
                               why.message);
                !a)
                return a.error();
            return f;
        });
    if (!failed)
        return refuse(failed.error(), QStringLiteral("approve"), fixId, target, actor, origin);
    spdlog::warn("fix #{} approved by {} but not applied: {}", fixId, actor.id.toStdString(),
                 why.message.toStdString());
    return makeError(
        why.code,
        QStringLiteral("fix #%1 was not applied and is recorded as failed: %2. Propose it "
                       "again against the current state.")
            .arg(fixId)
            .arg(why.message),
        why.reason.isEmpty() ? QStringLiteral("apply_failed") : why.reason);
}

Result<FixRequest> FixService::reject(qint64 fixId, const QString &reasonCode,
                                      const QString &comment, const QString &origin,
                                      const Actor &actor) const
{
    const QString target = QStringLiteral("fix:%1").arg(fixId);
    if (auto r = require(actor, Action::DecideFix); !r)
        return refuse(r.error(), QStringLiteral("reject"), fixId, target, actor, origin);
    if (!rejectionReasonCodes().contains(reasonCode))
        return refuse(makeError(ErrorCode::Invalid,
                                QStringLiteral("a rejection needs a reason code (one of: %1)")
                                    .arg(rejectionReasonCodes().join(QStringLiteral(", ")))),
                      QStringLiteral("reject"), fixId, target, actor, origin);
    for (const auto &check :
         {validateText(QStringLiteral("a comment"), comment, true, kMaxComment),
          validateText(QStringLiteral("the origin"), origin, false, kMaxOrigin)})
        if (!check)
            return refuse(check.error(), QStringLiteral("reject"), fixId, target, actor, origin);
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<FixRequest> {
        // The reviewer's rights as they are now, not as at sign-in (issue #8).
        if (auto r = requireCurrent(m_c, actor, Action::DecideFix); !r)
            return r.error();
        auto loaded = loadForDecision(fixId, actor);
        if (!loaded)
            return loaded.error();
        FixRequest f = *loaded;
        if (auto d =
                recordDecision(f, QStringLiteral("reject"), reasonCode, comment, origin, actor);
            !d)
            return d.error();
        auto u = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE fix_requests SET status = 'rejected', open_target = NULL"
                           " WHERE id = ? AND status = 'open'"),
            {fixId});
        if (!u)
            return u.error();
        f.decisions.append(
            {actor.id, QStringLiteral("reject"), reasonCode, comment, origin, m_clock.nowMs()});
        f.status = FixStatus::Rejected;
        if (auto a = audit(QStringLiteral("fix.rejected"), f, actor, origin,
                           {{QStringLiteral("reason_code"), reasonCode}},
                           reasonCode + QStringLiteral(": ") + comment);
            !a)
            return a.error();
        return f;
    });
    if (!done)
        return refuse(done.error(), QStringLiteral("reject"), fixId, target, actor, origin);
    spdlog::info("fix #{} rejected by {} ({})", fixId, actor.id.toStdString(),
                 reasonCode.toStdString());
    return done;
}

Result<FixRequest> FixService::loadForDecision(qint64 fixId, const Actor &actor) const
{
    auto f = load(fixId, true);
    if (!f)
        return f.error();
    if (f->status != FixStatus::Open)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("fix #%1 is %2; only an open proposal is decided")
                             .arg(fixId)
                             .arg(f->status),
                         QStringLiteral("not_open"));
    if (f->proposedBy == actor.id)
        return makeError(
            ErrorCode::Forbidden,
            QStringLiteral("%1 proposed fix #%2 and may not decide it").arg(actor.id).arg(fixId),
            QStringLiteral("own_proposal"));
    return f;
}

Result<int> FixService::approvalsNeeded(const QString &currency, std::optional<qint64> amount) const
{
    if (!amount)
        return 1;
    auto settings = OpsSettings::load(m_c);
    if (!settings)
        return settings.error();
    // A per-currency threshold (fixes.second_approver_above_minor.KRW) wins over the default:
    // minor units of KRW and of USD are not worth the same.
    const qint64 fallback =
        settings->integer(QStringLiteral("fixes.second_approver_above_minor"), 100000);
    const qint64 threshold = settings->integer(
        QStringLiteral("fixes.second_approver_above_minor.") + currency, fallback);
    const qint64 magnitude = *amount < 0 ? -*amount : *amount;
    return magnitude > threshold ? 2 : 1;
}

Result<void> FixService::recordDecision(const FixRequest &fix, const QString &decision,
                                        const QString &reasonCode, const QString &comment,
                                        const QString &origin, const Actor &actor) const
{
    auto r = Sql::exec(
        m_c.db(),
        QStringLiteral("INSERT INTO fix_decisions (fix_id, decided_by, decision, reason_code,"
                       " comment, decided_from, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        // An approval's comment is optional: none (or blanks) is stored as empty text — the
        // column is NOT NULL, and a null QString binds as NULL.
        {fix.id, actor.id, decision, Sql::nullIfEmpty(reasonCode),
         comment.trimmed().isEmpty() ? QStringLiteral("") : comment.trimmed(), origin,
         m_clock.nowMs()});
    if (!r)
        return r.error();
    return {};
}

Result<void> FixService::audit(const QString &action, const FixRequest &fix, const Actor &actor,
                               const QString &origin, const QJsonObject &extra,
                               const QString &reason) const
{
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = action;
    e.entityKind = QStringLiteral("fix");
    e.entityId = QString::number(fix.id);
    e.orderId = fix.orderId;
    e.callbackId = fix.callbackId;
    e.before = {{QStringLiteral("status"), action == u"fix.proposed" ? QString() : FixStatus::Open},
                {QStringLiteral("state"), fix.change.value(QStringLiteral("before"))}};
    QJsonObject after = extra;
    after.insert(QStringLiteral("kind"), fix.kind);
    after.insert(QStringLiteral("target"),
                 QStringLiteral("%1:%2").arg(fix.targetKind, fix.targetId));
    after.insert(QStringLiteral("status"), fix.status);
    after.insert(QStringLiteral("change_sha256"), fix.changeSha256);
    after.insert(QStringLiteral("proposed_by"), fix.proposedBy);
    after.insert(QStringLiteral("from"), origin);
    e.after = after;
    e.reason = reason.left(500);
    auto r = AuditOutbox::record(m_c.db(), e, m_clock);
    if (!r)
        return r.error();
    return {};
}

Error FixService::refuse(const Error &why, const QString &step, qint64 fixId, const QString &target,
                         const Actor &actor, const QString &origin) const
{
    spdlog::warn("fix {} refused for {} ({}) on {}: {}", step.toStdString(), actor.id.toStdString(),
                 actor.role.toStdString(), target.toStdString(), why.message.toStdString());
    if (why.code == ErrorCode::Unavailable)
        return why; // the database is away; there is nowhere to write the audit row
    AuditEvent e;
    e.action = QStringLiteral("fix.refused");
    e.entityKind = QStringLiteral("fix");
    e.entityId = fixId > 0 ? QString::number(fixId) : target;
    e.after = {{QStringLiteral("step"), step},
               {QStringLiteral("target"), target},
               {QStringLiteral("from"), origin}};
    AuditOutbox::recordRefusal(m_c, m_clock, actor, e, why);
    return why;
}

} // namespace OncePay
