#include "fixactions.h"

#include "auth/permissions.h"
#include "common/backgroundquery.h"
#include "common/enginetext.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
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

QStringList fixKindsFor(const QList<FixTargetRow> &rows, qint64 nowMs)
{
    QList<FixTargetState> targets;
    targets.reserve(rows.size());
    for (const FixTargetRow &r : rows)
        targets.append({.targetKind = r.kindOfTarget,
                        .targetId = r.targetId,
                        .status = r.status,
                        .discrepancyKind = r.discrepancyKind,
                        .leaseUntilMs = r.leaseUntilMs});
    return fixKindsOffered(targets, nowMs);
}

namespace {

struct ProposeOutcome {
    QList<qint64> proposed;
    QStringList refused; // "target: why"
};

} // namespace

void proposeFixes(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                  const QList<FixTargetRow> &rows, std::function<void(int)> done)
{
    const auto role = parseStaffRole(actor.role);
    if (!role || !can(*role, Action::ProposeFix)) {
        QMessageBox::information(parent, QObject::tr("Propose a fix"),
                                 QObject::tr("Your role may not propose fixes."));
        return;
    }
    const QStringList kinds = fixKindsFor(rows, Clock::system().nowMs());
    if (kinds.isEmpty()) {
        QMessageBox::information(parent, QObject::tr("Propose a fix"),
                                 QObject::tr("No fix fits the selected rows."));
        return;
    }
    QStringList targets;
    for (const FixTargetRow &r : rows)
        targets << r.targetId;
    ProposeFixDialog dialog(kinds, targets, rows.first().currency, parent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QList<FixProposal> proposals = dialog.proposals(consoleOrigin());
    if (proposals.isEmpty())
        return;
    QPointer<QWidget> guard(parent);
    runBackgroundQuery<ProposeOutcome>(
        parent, orders, QStringLiteral("propose"),
        [proposals, actor](const Connection &c) -> Result<ProposeOutcome> {
            ProposeOutcome out;
            FixService fixes(c, Clock::system());
            for (const FixProposal &p : proposals) {
                auto r = fixes.propose(p, actor);
                if (r)
                    out.proposed << r->id;
                else if (r.error().code == ErrorCode::Unavailable)
                    return r.error();
                else
                    out.refused << p.targetId + QStringLiteral(": ") + r.error().message;
            }
            return out;
        },
        [guard, done](const Result<ProposeOutcome> &r) {
            if (!guard)
                return;
            if (!r) {
                QMessageBox::warning(
                    guard, QObject::tr("Propose a fix"),
                    QObject::tr("Nothing was proposed: %1").arg(r.error().message));
                return;
            }
            QString text = QObject::tr("%n fix(es) proposed and waiting for approval.", nullptr,
                                       int(r->proposed.size()));
            if (!r->refused.isEmpty()) {
                // "target: why", the engine's why in the interface language.
                QStringList refused = r->refused;
                for (QString &line : refused)
                    line = Labels::engineText(line);
                text += QStringLiteral("\n\n") + QObject::tr("Refused:") + QStringLiteral("\n") +
                        refused.join(QStringLiteral("\n"));
            }
            if (r->refused.isEmpty())
                QMessageBox::information(guard, QObject::tr("Propose a fix"), text);
            else
                QMessageBox::warning(guard, QObject::tr("Propose a fix"), text);
            if (done)
                done(int(r->proposed.size()));
        });
}

} // namespace OncePay
