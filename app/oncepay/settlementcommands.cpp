// oncepay settlement import / fees import / fees list / reconcile — DESIGN.md §4.

#include "cli.h"
#include "core/money.h"
#include "db/migrator.h"
#include "reconciliation/reconciler.h"
#include "reconciliation/reconciliationreport.h"
#include "settlement/feeschedule.h"
#include "settlement/formats/statementformat.h"
#include "settlement/settlementimporter.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>
#include <unistd.h>

namespace OncePay::Cli {

namespace {

const QString kActor = QStringLiteral("actor");

Actor actorOf(const QCommandLineParser &p)
{
    return Actor::system(p.value(kActor));
}

void addActorOption(QCommandLineParser &p)
{
    p.addOption({kActor, QStringLiteral("who runs it, as recorded in the audit log"),
                 QStringLiteral("NAME"), QStringLiteral("system")});
}

int importStatements(Context &ctx, const QCommandLineParser &p)
{
    const QString channel = p.value(QStringLiteral("channel")).toLower();
    if (channel.isEmpty() || !StatementFormat::forChannel(channel))
        return ctx.err << "oncepay settlement import: --channel must be one of "
                       << StatementFormat::channels().join(QStringLiteral(", ")) << '\n',
               Usage;
    if (p.positionalArguments().isEmpty())
        return ctx.err << "oncepay settlement import: name at least one statement FILE\n", Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-settlement"));
    if (!c)
        return fail(ctx, c.error());
    SettlementImporter importer(*c, Clock::system());
    int status = Ok;
    // Each file its own all-or-nothing transaction, in order; the next one is read and parsed
    // while this one is stored.
    const QStringList files = p.positionalArguments();
    QList<std::pair<QString, QString>> batch;
    for (const QString &file : files)
        batch.append({channel, file});
    const auto results = importer.importFiles(batch, actorOf(p));
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString &file = files[i];
        const Result<StatementImport> &r = results[size_t(i)];
        if (!r) {
            ctx.err << "oncepay: " << r.error().message << " — nothing of this file was imported\n";
            status = r.error().code == ErrorCode::Corrupt || r.error().code == ErrorCode::NotFound
                         ? Failed
                         : exitCodeFor(r.error());
            continue;
        }
        if (r->alreadyImported) {
            ctx.out << file << ": already imported as statement " << r->statementId << " ("
                    << r->lines << " lines); nothing changed\n";
            continue;
        }
        // A line stored before from another file (the statement exported again) is skipped;
        // one stored with other money is a conflict, not imported, named on stderr.
        for (const SettlementLineConflict &c : r->conflicts) {
            ctx.err << "oncepay: " << file << ": line " << c.lineNo << " (" << c.lineKey
                    << ") is already imported as statement " << c.storedStatementId << " line "
                    << c.storedLineNo << ": " << c.storedKind << ", gross "
                    << Currency::format(c.storedGrossMinor, c.storedCurrency) << ", fee "
                    << Currency::format(c.storedFeeMinor, c.storedCurrency) << "; this file says "
                    << c.kind << ", gross " << Currency::format(c.grossMinor, c.currency)
                    << ", fee " << Currency::format(c.feeMinor, c.currency) << " — not imported\n";
            status = Failed;
        }
        if (r->statementId == 0 && r->linesInFile > 0)
            ctx.out << file << ": all " << r->linesInFile
                    << " lines already imported from other files"
                    << (r->conflicts.isEmpty()
                            ? QString()
                            : QStringLiteral(" or in conflict (%1)").arg(r->conflicts.size()))
                    << "; nothing imported\n";
        else if (r->alreadyPresent > 0 || !r->conflicts.isEmpty())
            ctx.out << file << ": statement " << r->statementId << ", " << r->lines
                    << " lines imported, " << r->alreadyPresent
                    << " already imported from other files (skipped), " << r->conflicts.size()
                    << " in conflict (not imported), " << r->skippedRecords
                    << " records skipped (payouts, totals), sha256 " << r->sha256 << '\n';
        else
            ctx.out << file << ": statement " << r->statementId << ", " << r->lines
                    << " lines imported, " << r->skippedRecords
                    << " records skipped (payouts, totals), sha256 " << r->sha256 << '\n';
    }
    return status;
}

int importFees(Context &ctx, const QCommandLineParser &p)
{
    if (p.positionalArguments().size() != 1)
        return ctx.err << "oncepay fees import: name exactly one FILE\n", Usage;
    QFile f(p.positionalArguments().first());
    if (!f.open(QIODevice::ReadOnly))
        return ctx.err << "oncepay: " << f.fileName() << ": " << f.errorString() << '\n', Failed;
    auto rules = Fees::parseCsv(f.readAll());
    if (!rules)
        return ctx.err << "oncepay: " << f.fileName() << ": " << rules.error().message << '\n',
               Failed;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-fees"));
    if (!c)
        return fail(ctx, c.error());
    auto r = FeeScheduleStore(*c, Clock::system()).import(*rules, actorOf(p));
    if (!r)
        return fail(ctx, r.error());
    ctx.out << r->inserted << " fee rules imported, " << r->unchanged << " already present\n";
    return Ok;
}

int listFees(Context &ctx, const QCommandLineParser &p)
{
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-fees"));
    if (!c)
        return fail(ctx, c.error());
    auto rules = FeeScheduleStore(*c, Clock::system()).list();
    if (!rules)
        return fail(ctx, rules.error());
    if (p.isSet(QStringLiteral("csv"))) {
        ctx.out << QString::fromUtf8(Fees::toCsv(*rules));
        return Ok;
    }
    ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                   .arg(QStringLiteral("id"), 5)
                   .arg(QStringLiteral("channel"), -9)
                   .arg(QStringLiteral("cur"), -4)
                   .arg(QStringLiteral("effective"), -11)
                   .arg(QStringLiteral("rate %"), 8)
                   .arg(QStringLiteral("fixed"), 10);
    for (const FeeRule &r : *rules)
        ctx.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                       .arg(r.id, 5)
                       .arg(r.channel, -9)
                       .arg(r.currency, -4)
                       .arg(QDateTime::fromMSecsSinceEpoch(r.effectiveFromMs, Qt::UTC)
                                .toString(QStringLiteral("yyyy-MM-dd")),
                            -11)
                       .arg(Fees::formatPercent(r.ratePpm), 8)
                       .arg(Currency::format(r.fixedMinor, r.currency), 10);
    return Ok;
}

bool progressBar(qint64 done, qint64 total)
{
    if (!isatty(STDERR_FILENO))
        return true;
    const int width = 30;
    const int filled = total ? int(width * done / total) : width;
    std::fprintf(stderr, "\r[%s%s] %3d%% %lld/%lld rows", QByteArray(filled, '#').constData(),
                 QByteArray(width - filled, ' ').constData(), total ? int(100 * done / total) : 100,
                 static_cast<long long>(done), static_cast<long long>(total));
    if (done >= total)
        std::fprintf(stderr, "\n");
    std::fflush(stderr);
    return true;
}

std::optional<qint64> dateArg(const QString &text)
{
    const QDate d = QDate::fromString(text, Qt::ISODate);
    if (!d.isValid() || text.size() != 10)
        return std::nullopt;
    return QDateTime(d, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
}

int reconcile(Context &ctx, const QCommandLineParser &p)
{
    ReconcileOptions o;
    for (const char *name : {"from", "to"}) {
        if (!p.isSet(QLatin1String(name)))
            continue;
        auto ms = dateArg(p.value(QLatin1String(name)));
        if (!ms)
            return ctx.err << "oncepay reconcile: --" << name << " must be a date YYYY-MM-DD\n",
                   Usage;
        (name[0] == 'f' ? o.fromMs : o.toMs) = *ms;
    }
    if (p.isSet(QStringLiteral("to")))
        o.toMs += 24LL * 3600 * 1000; // --to is inclusive: the whole day
    if (!p.positionalArguments().isEmpty())
        return ctx.err << "oncepay reconcile: unexpected argument '"
                       << p.positionalArguments().first() << "'\n",
               Usage;
    const bool json = p.isSet(QStringLiteral("json"));
    if (!json)
        o.progress = progressBar;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-reconcile"));
    if (!c)
        return fail(ctx, c.error());
    auto report = Reconciler(*c, Clock::system(), actorOf(p)).run(o);
    if (!report) {
        // Refused by the reconciler (audited there): a bad period is how it was asked (usage),
        // an ops setting that is no number is how the system is configured.
        const Error &e = report.error();
        if (e.code == ErrorCode::Invalid)
            return ctx.err << "oncepay reconcile: " << e.message << '\n',
                   e.reason == u"bad_setting" ? ConfigError : Usage;
        return fail(ctx, e);
    }
    if (json)
        ctx.out << QJsonDocument(ReconciliationReportFormat::json(*report))
                       .toJson(QJsonDocument::Indented);
    else
        ctx.out << ReconciliationReportFormat::text(*report);
    return Ok;
}

const bool registered = registerCommands({
    {{QStringLiteral("settlement"), QStringLiteral("import")},
     QStringLiteral("import channel settlement statements (all or nothing per file; lines imported "
                    "before are skipped, conflicting ones named)"),
     QStringLiteral("FILE..."),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("channel"),
                      QStringLiteral("stripe, paypal, kakaopay or fedapay"), QStringLiteral("C")});
         addActorOption(p);
     },
     importStatements},
    {{QStringLiteral("fees"), QStringLiteral("import")},
     QStringLiteral(
         "import fee schedule rules: channel,currency,effective_from,rate_percent,fixed"),
     QStringLiteral("FILE"),
     addActorOption,
     importFees},
    {{QStringLiteral("fees"), QStringLiteral("list")},
     QStringLiteral("list the fee schedule"),
     {},
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("csv"), QStringLiteral("Print as importable CSV.")});
     },
     listFees},
    {{QStringLiteral("reconcile")},
     QStringLiteral(
         "match payments against settlement lines; auto-fix explained fee changes, open the rest"),
     {},
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("from"),
                      QStringLiteral("First day of the period (captures), YYYY-MM-DD."),
                      QStringLiteral("DATE")});
         p.addOption({QStringLiteral("to"),
                      QStringLiteral("Last day of the period, inclusive, YYYY-MM-DD."),
                      QStringLiteral("DATE")});
         p.addOption({QStringLiteral("json"), QStringLiteral("Print the report as JSON.")});
         addActorOption(p);
     },
     reconcile},
});

} // namespace

} // namespace OncePay::Cli
