// oncepay fix list | show | propose | approve | reject — manual fixes under maker-checker from
// the command line, for the same staff accounts the console signs in (password on stdin).
// Every rule is FixService's; this file only reads arguments and prints.

#include "cli.h"
#include "core/money.h"
#include "db/migrator.h"
#include "fixes/fixservice.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSysInfo>

namespace OncePay::Cli {

namespace {

QString origin()
{
    return QStringLiteral("cli@%1").arg(QSysInfo::machineHostName());
}

QString when(qint64 ms)
{
    return ms ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate)
              : QStringLiteral("-");
}

// Signs the --user in with the password on the first line of stdin (signInFromStdin); the
// signed-in account's role is what FixService checks.
Result<Actor> signIn(const Connection &c, const QCommandLineParser &p)
{
    const QString user = p.value(QStringLiteral("user"));
    if (user.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("--user is required"));
    return signInFromStdin(c, user, origin());
}

QString amount(const FixRequest &f)
{
    return f.amountMinor ? Currency::format(*f.amountMinor, f.currency) : QStringLiteral("-");
}

void printRow(QTextStream &out, const FixRequest &f)
{
    out << QStringLiteral("#%1").arg(f.id).leftJustified(6) << ' ' << f.status.leftJustified(8)
        << ' ' << f.kind.leftJustified(16) << ' '
        << QString(f.targetKind + u':' + f.targetId).leftJustified(32) << ' '
        << amount(f).leftJustified(14) << ' ' << f.approvals() << '/' << f.approvalsNeeded << ' '
        << f.proposedBy.leftJustified(10) << ' ' << when(f.proposedAt) << '\n';
}

void printFix(QTextStream &out, const FixRequest &f)
{
    out << "fix #" << f.id << "  " << f.kind << " on " << f.targetKind << ':' << f.targetId << '\n'
        << "status        " << f.status
        << (f.failureReason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(f.failureReason))
        << '\n'
        << "proposed      " << when(f.proposedAt) << " by " << f.proposedBy << " ("
        << f.proposerRole << ") from " << f.proposedFrom << '\n'
        << "reason        " << f.reasonCode << ": " << f.comment << '\n'
        << "amount        " << amount(f) << '\n'
        << "order version "
        << (f.expectedVersion ? QString::number(f.expectedVersion) : QStringLiteral("-")) << '\n'
        << "approvals     " << f.approvals() << " of " << f.approvalsNeeded << '\n';
    // An approval of a reviewer since demoted or disabled no longer counts: said, not hidden.
    for (const QString &why : f.lapsedApprovals())
        out << "lapsed        " << why << '\n';
    out << "digest        " << f.changeSha256 << '\n'
        << "change        "
        << QString::fromUtf8(QJsonDocument(f.change).toJson(QJsonDocument::Indented)).trimmed()
        << '\n';
    for (const FixDecision &d : f.decisions)
        out << "decision      " << when(d.decidedAt) << ' ' << d.decision << " by " << d.decidedBy
            << " from " << d.decidedFrom
            << (d.reasonCode.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(d.reasonCode))
            << ": " << d.comment << '\n';
    if (f.appliedAt)
        out << "applied       " << when(f.appliedAt) << '\n';
}

Result<qint64> fixId(const QCommandLineParser &p)
{
    bool ok = false;
    const qint64 id = p.positionalArguments().value(0).remove(u'#').toLongLong(&ok);
    if (p.positionalArguments().size() != 1 || !ok || id <= 0)
        return makeError(ErrorCode::Invalid, QStringLiteral("give exactly one fix number"));
    return id;
}

int list(Context &ctx, const QCommandLineParser &p)
{
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-fix"));
    if (!c)
        return fail(ctx, c.error());
    FixFilter filter;
    const QString status = p.value(QStringLiteral("status"));
    if (status != u"all")
        filter.statuses = status.split(u',', Qt::SkipEmptyParts);
    filter.kind = p.value(QStringLiteral("kind"));
    filter.orderId = p.value(QStringLiteral("order"));
    auto all = FixService(*c, Clock::system()).list(filter);
    if (!all)
        return fail(ctx, all.error());
    for (const FixRequest &f : *all)
        printRow(ctx.out, f);
    if (all->isEmpty())
        ctx.out << "no fixes match\n";
    return Ok;
}

int show(Context &ctx, const QCommandLineParser &p)
{
    auto id = fixId(p);
    if (!id)
        return ctx.err << "oncepay fix show: " << id.error().message << '\n', Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-fix"));
    if (!c)
        return fail(ctx, c.error());
    auto f = FixService(*c, Clock::system()).get(*id);
    if (!f)
        return fail(ctx, f.error());
    printFix(ctx.out, *f);
    return Ok;
}

int propose(Context &ctx, const QCommandLineParser &p)
{
    const QStringList args = p.positionalArguments();
    if (args.size() != 2)
        return ctx.err << "oncepay fix propose: give KIND and TARGET\n", Usage;
    FixProposal proposal;
    proposal.kind = args[0];
    proposal.targetId = args[1];
    proposal.reasonCode = p.value(QStringLiteral("reason"));
    proposal.comment = p.value(QStringLiteral("comment"));
    proposal.origin = origin();
    if (p.isSet(QStringLiteral("amount-minor"))) {
        bool ok = false;
        proposal.amountMinor = p.value(QStringLiteral("amount-minor")).toLongLong(&ok);
        if (!ok)
            return ctx.err << "oncepay fix propose: --amount-minor takes an integer\n", Usage;
    }
    if (p.isSet(QStringLiteral("currency"))) {
        proposal.currency = p.value(QStringLiteral("currency")).trimmed().toUpper();
        if (!p.isSet(QStringLiteral("amount-minor")))
            return ctx.err << "oncepay fix propose: --currency goes with --amount-minor\n", Usage;
    }
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-fix"));
    if (!c)
        return fail(ctx, c.error());
    auto actor = signIn(*c, p);
    if (!actor)
        return fail(ctx, actor.error());
    auto f = FixService(*c, Clock::system()).propose(proposal, *actor);
    if (!f)
        return fail(ctx, f.error());
    printFix(ctx.out, *f);
    return Ok;
}

int decide(Context &ctx, const QCommandLineParser &p, bool approve)
{
    auto id = fixId(p);
    if (!id)
        return ctx.err << "oncepay fix: " << id.error().message << '\n', Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-fix"));
    if (!c)
        return fail(ctx, c.error());
    auto actor = signIn(*c, p);
    if (!actor)
        return fail(ctx, actor.error());
    FixService fixes(*c, Clock::system());
    auto f = approve ? fixes.approve(*id, p.value(QStringLiteral("digest")),
                                     p.value(QStringLiteral("comment")), origin(), *actor)
                     : fixes.reject(*id, p.value(QStringLiteral("reason")),
                                    p.value(QStringLiteral("comment")), origin(), *actor);
    if (!f)
        return fail(ctx, f.error());
    printFix(ctx.out, *f);
    return Ok;
}

void addUser(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("user"),
                 QStringLiteral("Staff account acting (its password on the first line of stdin)."),
                 QStringLiteral("USER")});
    p.addOption(
        {QStringLiteral("comment"), QStringLiteral("Why (audited)."), QStringLiteral("TEXT")});
}

const bool registered = registerCommands({
    {{QStringLiteral("fix"), QStringLiteral("list")},
     QStringLiteral("list fix proposals (open by default)"),
     QString(),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("status"),
                      QStringLiteral("open, applied, rejected, failed (comma-separated) or all."),
                      QStringLiteral("STATUS"), QStringLiteral("open")});
         p.addOption(
             {QStringLiteral("kind"), QStringLiteral("Only this kind."), QStringLiteral("KIND")});
         p.addOption({QStringLiteral("order"), QStringLiteral("Only fixes touching this order."),
                      QStringLiteral("ORDER")});
     },
     list},
    {{QStringLiteral("fix"), QStringLiteral("show")},
     QStringLiteral("show one fix: the change before → after, its digest and decisions"),
     QStringLiteral("ID"),
     {},
     show},
    {{QStringLiteral("fix"), QStringLiteral("propose")},
     QStringLiteral("propose a fix (agent or finance); a finance reviewer decides it"),
     QStringLiteral("KIND TARGET"),
     [](QCommandLineParser &p) {
         addUser(p);
         p.addOption(
             {QStringLiteral("reason"),
              QStringLiteral("Reason code: ") + fixReasonCodes().join(QStringLiteral(", ")) + u'.',
              QStringLiteral("CODE")});
         p.addOption({QStringLiteral("amount-minor"),
                      QStringLiteral("adjust_fee / write_off: amount in minor units; it must be "
                                     "the discrepancy's whole difference (the default)."),
                      QStringLiteral("N")});
         p.addOption({QStringLiteral("currency"),
                      QStringLiteral("With --amount-minor: the amount's currency. Required for a "
                                     "discrepancy with amounts in two currencies (a currency "
                                     "mismatch): one of the two."),
                      QStringLiteral("CODE")});
     },
     propose,
     false,
     QStringLiteral(
         "KIND: requeue_message or resolve_message (TARGET: callback id), confirm_payment "
         "or rollback_payment (order id), adjust_fee or write_off (discrepancy number), "
         "close_period (FROM..TO, dates YYYY-MM-DD).")},
    {{QStringLiteral("fix"), QStringLiteral("approve")},
     QStringLiteral(
         "approve a fix (finance, never one's own); applies it when it has its approvals"),
     QStringLiteral("ID"),
     [](QCommandLineParser &p) {
         addUser(p);
         p.addOption({QStringLiteral("digest"),
                      QStringLiteral("The change digest shown by `oncepay fix show` (binds the "
                                     "approval to that exact change)."),
                      QStringLiteral("SHA256")});
     },
     [](Context &ctx, const QCommandLineParser &p) { return decide(ctx, p, true); }},
    {{QStringLiteral("fix"), QStringLiteral("reject")},
     QStringLiteral("reject a fix (finance, never one's own) with a reason code and a comment"),
     QStringLiteral("ID"),
     [](QCommandLineParser &p) {
         addUser(p);
         p.addOption({QStringLiteral("reason"),
                      QStringLiteral("Reason code: ") +
                          rejectionReasonCodes().join(QStringLiteral(", ")) + u'.',
                      QStringLiteral("CODE")});
     },
     [](Context &ctx, const QCommandLineParser &p) { return decide(ctx, p, false); }},
});

} // namespace

} // namespace OncePay::Cli
