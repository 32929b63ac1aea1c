#include "fixactions.h"

#include "auth/permissions.h"
#include "common/backgroundquery.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
#include "fixes/fixsettings.h"
#include "proposefixdialog.h"

#include <QMessageBox>
#include <QPointer>
#include <QSysInfo>

#include <spdlog/spdlog.h>

namespace OncePay {

QString consoleOrigin()
{
    return QStringLiteral("console@%1").arg(QSysInfo::machineHostName());
}

Result<FixRuleSetting> readFixRuleSetting(const Connection &c)
{
    auto skew = FixSettings::leaseSkewMs(c);
    if (skew)
        return FixRuleSetting{*skew, {}};
    if (skew.error().reason == u"bad_setting")
        return FixRuleSetting{std::nullopt, skew.error().message};
    return skew.error();
}

QList<FixTargetState> fixTargetStates(const QList<FixTargetRow> &rows)
{
    QList<FixTargetState> targets;
    targets.reserve(rows.size());
    for (const FixTargetRow &r : rows)
        targets.append({.targetKind = r.kindOfTarget,
                        .targetId = r.targetId,
                        .status = r.status,
                        .discrepancyKind = r.discrepancyKind,
                        .leaseUntilMs = r.leaseUntilMs});
    return targets;
}

namespace {

struct ProposeOutcome {
    QList<qint64> proposed;
    QStringList refused;            // "target: why"
    std::optional<Error> stoppedBy; // the database went away: the rest were not sent
};

// Nothing was proposed because a read or the database failed before the first proposal.
void warnNothingProposed(QWidget *parent, const Error &e)
{
    QMessageBox::warning(parent, QObject::tr("Propose a fix"),
                         QObject::tr("Nothing was proposed: %1").arg(errorText(e)));
}

} // namespace

QString proposeSummary(int proposed, const QStringList &refused,
                       const std::optional<Error> &stoppedBy)
{
    QString text;
    if (stoppedBy && proposed == 0 && refused.isEmpty())
        return QObject::tr("Nothing was proposed: %1").arg(errorText(*stoppedBy));
    if (stoppedBy)
        text = QObject::tr("%n proposed; the rest were not sent: %1", nullptr, proposed)
                   .arg(errorText(*stoppedBy));
    else
        text = QObject::tr("%n fix(es) proposed and waiting for approval.", nullptr, proposed);
    if (!refused.isEmpty()) {
        // "target: why", the engine's why in the interface language.
        QStringList lines = refused;
        for (QString &line : lines)
            line = Labels::engineText(line);
        text += QStringLiteral("\n\n") + QObject::tr("Refused:") + QStringLiteral("\n") +
                lines.join(QStringLiteral("\n"));
    }
    return text;
}

namespace {

void sendProposals(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                   const QList<FixProposal> &proposals, std::function<void(int)> done);

// The dialog for what the rule offers at this moment with `setting`, then the proposals.
void askAndPropose(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                   const QList<FixTargetRow> &rows, const FixRuleSetting &setting, FixCover cover,
                   std::function<void(int)> done)
{
    const FixClock at{.nowMs = Clock::system().nowMs(), .leaseSkewMs = setting.leaseSkewMs};
    const QList<FixOffer> offers = fixOffers(fixTargetStates(rows), at, cover);
    if (offers.isEmpty()) {
        QString text = QObject::tr("No fix fits the selected rows.");
        if (!setting.problem.isEmpty())
            text += QStringLiteral("\n\n") + Labels::engineText(setting.problem);
        QMessageBox::information(parent, QObject::tr("Propose a fix"), text);
        return;
    }
    QStringList targets;
    for (const FixTargetRow &r : rows)
        targets << r.targetId;
    ProposeFixDialog dialog(offers, targets, rows.first().currency, parent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QList<FixProposal> proposals = dialog.proposals(consoleOrigin());
    if (!proposals.isEmpty())
        sendProposals(parent, orders, actor, proposals, std::move(done));
}

} // namespace

void proposeFixes(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                  const QList<FixTargetRow> &rows, std::function<void(int)> done, FixCover cover)
{
    const auto role = parseStaffRole(actor.role);
    if (!role || !can(*role, Action::ProposeFix)) {
        QMessageBox::information(parent, QObject::tr("Propose a fix"),
                                 QObject::tr("Your role may not propose fixes."));
        return;
    }
    if (rows.isEmpty()) {
        QMessageBox::information(parent, QObject::tr("Propose a fix"),
                                 QObject::tr("No fix fits the selected rows."));
        return;
    }
    // The allowance as it is now, read off the GUI thread; the offer is made when it arrives.
    QPointer<QWidget> guard(parent);
    runBackgroundQuery<FixRuleSetting>(
        parent, orders, QStringLiteral("fix-rule"), &readFixRuleSetting,
        [guard, orders, actor, rows, cover, done](const Result<FixRuleSetting> &r) {
            if (!guard)
                return;
            if (!r) {
                warnNothingProposed(guard, r.error());
                return;
            }
            askAndPropose(guard, orders, actor, rows, *r, cover, done);
        });
}

namespace {

void sendProposals(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                   const QList<FixProposal> &proposals, std::function<void(int)> done)
{
    QPointer<QWidget> guard(parent);
    runBackgroundQuery<ProposeOutcome>(
        parent, orders, QStringLiteral("propose"),
        [proposals, actor](const Connection &c) -> Result<ProposeOutcome> {
            ProposeOutcome out;
            FixService fixes(c, Clock::system());
            for (const FixProposal &p : proposals) {
                auto r = fixes.propose(p, actor);
                if (r) {
                    out.proposed << r->id;
                } else if (r.error().code == ErrorCode::Unavailable) {
                    // The ones proposed so far are committed: stop here and say so.
                    spdlog::warn("proposing stopped after {} of {}: {}", out.proposed.size(),
                                 proposals.size(), r.error().message.toStdString());
                    out.stoppedBy = r.error();
                    return out;
                } else
                    out.refused << p.targetId + QStringLiteral(": ") + r.error().message;
            }
            return out;
        },
        [guard, done](const Result<ProposeOutcome> &r) {
            if (!guard)
                return;
            if (!r) {
                warnNothingProposed(guard, r.error());
                return;
            }
            const QString text = proposeSummary(int(r->proposed.size()), r->refused, r->stoppedBy);
            if (r->refused.isEmpty() && !r->stoppedBy)
                QMessageBox::information(guard, QObject::tr("Propose a fix"), text);
            else
                QMessageBox::warning(guard, QObject::tr("Propose a fix"), text);
            if (done)
                done(int(r->proposed.size()));
        });
}

} // namespace

} // namespace OncePay
