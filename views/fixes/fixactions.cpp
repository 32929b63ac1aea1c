#include "fixactions.h"

#include "auth/permissions.h"
#include "common/backgroundquery.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "desk/reconciliationdesk.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
#include "fixes/fixsettings.h"
#include "proposefixdialog.h"

#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QSysInfo>
#include <QTimer>

#include <atomic>
#include <memory>

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

// What the dialog is opened with, read off the GUI thread: the fix rule's setting and the
// discrepancies whose amounts are in two currencies (their fixes name amount and currency).
struct ProposeFixContext {
    FixRuleSetting setting;
    QMap<QString, ProposeFixTwoCurrencies> twoCurrencies;
};

Result<ProposeFixContext> readProposeFixContext(const Connection &c, const Actor &actor,
                                                const QList<FixTargetRow> &rows)
{
    auto setting = readFixRuleSetting(c);
    if (!setting)
        return setting.error();
    ProposeFixContext out{*setting, {}};
    const ReconciliationDesk desk(c, Clock::system());
    for (const FixTargetRow &r : rows) {
        bool ok = false;
        const qint64 id = r.targetId.toLongLong(&ok);
        if (r.kindOfTarget != u"discrepancy" || !ok)
            continue;
        DiscrepancyFilter one;
        one.id = id;
        one.limit = 1;
        auto found = desk.discrepancies(one, actor);
        if (!found)
            return found.error();
        if (found->isEmpty())
            continue; // gone: the service says so when it is proposed
        const DiscrepancyRow &d = found->first();
        const QString settledIn = d.currency.isEmpty() ? d.line.currency : d.currency;
        QString expectedIn = d.expectedCurrency();
        // A database from before expected_currency: a currency mismatch expected the payment's.
        if (expectedIn == settledIn && d.kind == u"currency_mismatch" && d.payment.present)
            expectedIn = d.payment.currency;
        if (!d.expectedMinor || expectedIn.isEmpty() || settledIn.isEmpty() ||
            expectedIn == settledIn)
            continue;
        out.twoCurrencies.insert(r.targetId, {expectedIn, settledIn});
    }
    return out;
}

// Nothing was proposed because a read or the database failed before the first proposal.
void warnNothingProposed(QWidget *parent, const Error &e)
{
    QMessageBox::warning(parent, QObject::tr("Propose a fix"),
                         QObject::tr("Nothing was proposed: %1").arg(errorText(e)));
}

} // namespace

QString proposeSummary(const ProposeOutcome &outcome)
{
    const int proposed = int(outcome.proposed.size());
    const QStringList &refused = outcome.refused;
    QString text;
    if (outcome.stoppedBy && proposed == 0 && refused.isEmpty())
        return QObject::tr("Nothing was proposed: %1").arg(errorText(*outcome.stoppedBy));
    if (outcome.stoppedBy)
        text = QObject::tr("%n proposed; the rest were not sent: %1", nullptr, proposed)
                   .arg(errorText(*outcome.stoppedBy));
    else if (outcome.cancelled)
        text =
            QObject::tr("%n proposed; you stopped before the rest were sent.", nullptr, proposed);
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
                   const QList<FixTargetRow> &rows, const ProposeFixContext &context,
                   FixCover cover, std::function<void(int)> done)
{
    const FixRuleSetting &setting = context.setting;
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
    ProposeFixDialog dialog(offers, targets, rows.first().currency, parent, context.twoCurrencies);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QList<FixProposal> proposals = dialog.proposals(consoleOrigin());
    if (!proposals.isEmpty())
        sendProposals(parent, orders, actor, proposals, std::move(done));
}

} // namespace

void proposeFixes(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                  const QList<FixTargetRow> &rows, std::function<void(int)> done, FixCover cover,
                  std::function<bool()> stillCurrent)
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
    // The allowance as it is now (and the currencies of the discrepancies), read off the GUI
    // thread; the offer is made when it arrives.
    QPointer<QWidget> guard(parent);
    runBackgroundQuery<ProposeFixContext>(
        parent, orders, QStringLiteral("fix-rule"),
        [actor, rows](const Connection &c) { return readProposeFixContext(c, actor, rows); },
        [guard, orders, actor, rows, cover, done,
         stillCurrent](const Result<ProposeFixContext> &r) {
            if (!guard)
                return;
            // A dialog (or a message) about rows the page no longer shows would be taken for
            // the ones it shows now; the person has moved on, so nothing is said.
            if (stillCurrent && !stillCurrent()) {
                spdlog::info("propose a fix for {} ({} row(s)): the page moved on before the fix "
                             "rule's setting was read; nothing asked",
                             rows.first().targetId.toStdString(), rows.size());
                return;
            }
            if (!r) {
                warnNothingProposed(guard, r.error());
                return;
            }
            askAndPropose(guard, orders, actor, rows, *r, cover, done);
        });
}

namespace {

// A batch that takes longer than this shows its progress, with a button to stop it.
constexpr int kShowProgressAfterMs = 800;

void sendProposals(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                   const QList<FixProposal> &proposals, std::function<void(int)> done)
{
    // The pool thread counts what is done and reads whether to stop; the GUI thread shows the
    // count and sets the stop. Plain atomics: no object of the GUI is touched off its thread.
    auto sent = std::make_shared<std::atomic<int>>(0);
    auto stop = std::make_shared<std::atomic<bool>>(false);
    const int total = int(proposals.size());
    QPointer<QProgressDialog> progress;
    if (total > 1) {
        progress = new QProgressDialog(parent);
        progress->setWindowTitle(QObject::tr("Propose a fix"));
        progress->setCancelButtonText(QObject::tr("Stop"));
        progress->setRange(0, total);
        progress->setMinimumDuration(kShowProgressAfterMs);
        progress->setAutoClose(false);
        progress->setAutoReset(false);
        progress->setLabelText(QObject::tr("Proposing %1 of %2…").arg(1).arg(total));
        progress->setValue(0);
        // The dialog hides itself; the summary follows once the proposal being sent is done.
        QObject::connect(progress, &QProgressDialog::canceled, progress,
                         [stop] { stop->store(true); });
        auto *tick = new QTimer(progress);
        QObject::connect(tick, &QTimer::timeout, progress, [progress, sent, stop, total] {
            const int n = sent->load();
            if (n != progress->value() && !stop->load()) {
                progress->setLabelText(
                    QObject::tr("Proposing %1 of %2…").arg(qMin(n + 1, total)).arg(total));
                progress->setValue(n);
            }
        });
        tick->start(100);
    }
    QPointer<QWidget> guard(parent);
    runBackgroundQuery<ProposeOutcome>(
        parent, orders, QStringLiteral("propose"),
        [proposals, actor, sent, stop](const Connection &c) -> Result<ProposeOutcome> {
            return FixService(c, Clock::system())
                .proposeEach(proposals, actor, [sent, stop](int n, int) {
                    sent->store(n);
                    return !stop->load();
                });
        },
        [guard, done, progress](const Result<ProposeOutcome> &r) {
            if (progress)
                delete progress.data(); // not shown under the summary
            if (!guard)
                return;
            if (!r) {
                warnNothingProposed(guard, r.error());
                return;
            }
            const QString text = proposeSummary(*r);
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
