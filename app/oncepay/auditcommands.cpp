// oncepay audit ship | verify | seal | crosscheck | export | verify-export
//
// `audit export --format pdf` draws the report with QtGui (models/audit/auditpdfwriter.h):
// main.cpp gives that one command a QGuiApplication on the offscreen platform, so it runs
// without a display; every other command keeps a plain QCoreApplication.

#include "audit/auditcrosscheck.h"
#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditoutbox.h"
#include "audit/auditpdfwriter.h"
#include "audit/auditsealer.h"
#include "audit/auditshipper.h"
#include "audit/auditverifier.h"
#include "audit/sealkey.h"
#include "cli.h"
#include "db/migrator.h"

#include <QFile>

#include <spdlog/spdlog.h>

namespace OncePay::Cli {

namespace {

const QString kBatch = QStringLiteral("batch");
const QString kActor = QStringLiteral("actor");
const QString kPublicKey = QStringLiteral("public-key");
const QString kAs = QStringLiteral("as");

void addBatchOption(QCommandLineParser &p)
{
    p.addOption({kBatch, QStringLiteral("rows per batch"), QStringLiteral("N")});
}

int batchSize(const QCommandLineParser &p, int fallback)
{
    const int n = p.value(kBatch).toInt();
    return n > 0 ? n : fallback;
}

// Verifying and sealing never migrate: an auditor's account may only read (and insert
// checkpoints). A database without the schema is reported, not silently treated as empty.
Result<Connection> openAudit(Context &ctx, const QString &purpose)
{
    auto audit = Connection::open(ctx.config.audit, purpose);
    if (!audit)
        return audit.error();
    auto version = Migrator::currentVersion(*audit);
    if (!version)
        return version.error();
    if (*version == 0)
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("audit: %1 has no audit schema (run `oncepay db migrate`)")
                             .arg(ctx.config.audit.describe()));
    return audit;
}

int ship(Context &ctx, const QCommandLineParser &parser)
{
    auto orders = openMigrated(ctx.config.orders, QStringLiteral("audit-ship"));
    if (!orders)
        return fail(ctx, orders.error());
    auto audit = openMigrated(ctx.config.audit, QStringLiteral("audit-ship"));
    if (!audit) {
        auto pending = AuditShipper(*orders, *orders, Clock::system()).pendingCount();
        ctx.err << "oncepay: " << audit.error().message << '\n';
        if (pending)
            ctx.err << "oncepay: " << *pending << " audit event(s) wait in the outbox\n";
        return exitCodeFor(audit.error());
    }
    AuditShipper::Options options;
    options.batchSize = batchSize(parser, options.batchSize);
    AuditShipper shipper(*orders, *audit, Clock::system(), options);
    auto report = shipper.shipAll();
    if (!report)
        return fail(ctx, report.error());
    ctx.out << "shipped " << report->shipped << " audit event(s), " << report->alreadyPresent
            << " already present; chain head seq " << report->headSeq << '\n';
    return Ok;
}

int verify(Context &ctx, const QCommandLineParser &parser)
{
    auto audit = openAudit(ctx, QStringLiteral("audit-verify"));
    if (!audit)
        return fail(ctx, audit.error());
    AuditVerifier verifier(*audit);
    verifier.setBatchSize(batchSize(parser, 2000));
    const QString keyPath = parser.isSet(kPublicKey)
                                ? parser.value(kPublicKey)
                                : SealKeyPaths::fromConfig(ctx.config).publicKey;
    if (QFile::exists(keyPath) || parser.isSet(kPublicKey)) {
        auto key = SealPublicKey::load(keyPath);
        if (!key)
            return fail(ctx, key.error());
        verifier.setPublicKey(*key);
    }
    // The orders database's outbox and seal record show rows cut off the end of the chain
    // (auditverifier.h); it also says what still waits to be shipped.
    auto orders = Connection::open(ctx.config.orders, QStringLiteral("audit-verify"),
                                   Connection::OpenMode::ExistingOnly);
    if (orders)
        verifier.setOrders(*orders);
    else
        ctx.err << "oncepay: the chain is not checked against the orders database (rows cut off"
                   " its end may not show): "
                << orders.error().message << '\n';
    auto report = verifier.verify();
    if (!report)
        return fail(ctx, report.error());
    // The chain holds only what has been shipped: count what still waits in the orders
    // database's outbox, so a valid chain is not taken for a complete trail.
    if (orders) {
        if (auto backlog = AuditOutbox::backlog(*orders))
            report->unshipped = *backlog;
        else
            ctx.err << "oncepay: could not count the audit events waiting in the outbox: "
                    << backlog.error().message << '\n';
    } else {
        ctx.err << "oncepay: could not count the audit events waiting in the outbox: "
                << orders.error().message << '\n';
    }
    // In the log as well (file, and stderr with --verbose): a break is an error there too.
    if (report->problem)
        spdlog::error("audit verify: {}", report->summary().toStdString());
    else
        spdlog::info("audit verify: {}", report->summary().toStdString());
    ctx.out << report->summary() << '\n';
    return report->ok() ? Ok : Failed;
}

int seal(Context &ctx, const QCommandLineParser &parser)
{
    auto key = SealKey::loadOrCreate(SealKeyPaths::fromConfig(ctx.config));
    if (!key)
        return fail(ctx, key.error());
    auto audit = openAudit(ctx, QStringLiteral("audit-seal"));
    if (!audit)
        return fail(ctx, audit.error());
    // The seal is recorded in the orders database too (auditsealrecord.h).
    auto orders = openMigrated(ctx.config.orders, QStringLiteral("audit-seal"));
    if (!orders)
        return fail(ctx, orders.error());
    AuditSealer sealer(*audit, *key, Clock::system());
    sealer.setOrders(*orders);
    auto sealed = sealer.seal(parser.value(kActor));
    if (!sealed)
        return fail(ctx, sealed.error());
    const AuditCheckpoint &cp = sealed->checkpoint;
    if (sealed->alreadySealed)
        ctx.out << "head seq " << cp.seq << " is already sealed (checkpoint " << cp.id << ", key "
                << cp.keyId << ")\n";
    else
        ctx.out << "sealed seq " << cp.seq << " head " << cp.headHash.left(16) << " with key "
                << cp.keyId << " (checkpoint " << cp.id << ")\n";
    return Ok;
}

int crosscheck(Context &ctx, const QCommandLineParser &parser)
{
    auto orders = openMigrated(ctx.config.orders, QStringLiteral("audit-crosscheck"));
    if (!orders)
        return fail(ctx, orders.error());
    std::optional<Connection> ownMessages;
    if (!ctx.config.messages.sameAsOrders &&
        !ctx.config.messages.sameDatabaseAs(ctx.config.orders)) {
        auto m = openMigrated(ctx.config.messages, QStringLiteral("audit-crosscheck"));
        if (!m)
            return fail(ctx, m.error());
        ownMessages = std::move(m).value();
    }
    auto audit = openAudit(ctx, QStringLiteral("audit-crosscheck"));
    if (!audit)
        return fail(ctx, audit.error());
    AuditCrossCheck check(*orders, ownMessages ? *ownMessages : *orders, *audit, Clock::system());
    auto report = check.run(parser.value(kActor), QStringLiteral("system"));
    if (!report)
        return fail(ctx, report.error());
    for (const CrossCheckAlert &a : std::as_const(report->alerts))
        ctx.out << "ALERT " << a.message << '\n';
    if (report->alertCount > report->alerts.size())
        ctx.out << "ALERT ... and " << report->alertCount - report->alerts.size() << " more\n";
    ctx.out << report->summary() << " (recorded as event " << report->eventId << ")\n";
    return report->passed() ? Ok : Failed;
}

void addAsOption(QCommandLineParser &p)
{
    p.addOption({kAs,
                 QStringLiteral("the staff account (finance or auditor) this is done for; it signs"
                                " in with its password on the first line of stdin"),
                 QStringLiteral("USERNAME")});
}

// --as missing: a usage error, before anything is opened or read from stdin.
std::optional<Error> missingAs(const QCommandLineParser &parser)
{
    if (!parser.value(kAs).isEmpty())
        return std::nullopt;
    return makeError(ErrorCode::Invalid,
                     QStringLiteral("--as USERNAME is required: the staff account (finance or"
                                    " auditor) the audit trail is read for, its password on the"
                                    " first line of stdin"));
}

// The staff member an export or check is made for, signed in with their password
// (signInFromStdin: the lock after repeated failures, the sign-in audited): rights follow that
// account's role (only finance and auditor read the audit trail), and the audit row names them.
Result<Actor> staffActor(const Connection &orders, const QCommandLineParser &parser)
{
    return signInFromStdin(orders, parser.value(kAs), operatorId());
}

Result<AuditFilter> filterFrom(const QCommandLineParser &p)
{
    AuditFilter f;
    for (const auto &[option, field] :
         {std::pair{QStringLiteral("from"), &f.fromMs}, std::pair{QStringLiteral("to"), &f.toMs}}) {
        if (!p.isSet(option))
            continue;
        auto t = AuditFilter::parseTime(p.value(option));
        if (!t)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("--%1: ").arg(option) + t.error().message,
                             QStringLiteral("usage"));
        *field = *t;
    }
    f.actor = p.value(QStringLiteral("actor"));
    f.action = p.value(QStringLiteral("action"));
    f.orderId = p.value(QStringLiteral("order"));
    f.callbackId = p.value(QStringLiteral("callback"));
    f.entityKind = p.value(QStringLiteral("entity-kind"));
    f.entityId = p.value(QStringLiteral("entity"));
    if (auto v = f.validate(); !v)
        return makeError(ErrorCode::Invalid, v.error().message, QStringLiteral("usage"));
    return f;
}

int usage(Context &ctx, const Error &e)
{
    ctx.err << "oncepay audit: " << e.message << '\n';
    return Usage;
}

int exportTrail(Context &ctx, const QCommandLineParser &parser)
{
    auto filter = filterFrom(parser);
    if (!filter)
        return usage(ctx, filter.error());
    const QString format = parser.value(QStringLiteral("format")).toLower();
    std::unique_ptr<AuditExportWriter> writer =
        format == u"pdf" ? std::make_unique<AuditPdfWriter>() : makeAuditExportWriter(format);
    if (!writer)
        return usage(ctx, makeError(ErrorCode::Invalid,
                                    QStringLiteral("--format must be csv, json or pdf")));
    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty())
        return usage(ctx, makeError(ErrorCode::Invalid, QStringLiteral("--out FILE is required")));
    if (auto e = missingAs(parser))
        return usage(ctx, *e);

    auto orders = openMigrated(ctx.config.orders, QStringLiteral("audit-export"));
    if (!orders)
        return fail(ctx, orders.error());
    auto actor = staffActor(*orders, parser);
    if (!actor)
        return fail(ctx, actor.error());
    auto audit = openAudit(ctx, QStringLiteral("audit-export"));
    if (!audit)
        return fail(ctx, audit.error());
    AuditExporter exporter(*audit, *orders, Clock::system());
    exporter.setPageSize(batchSize(parser, 5000));
    // --as signed the staff account in with its password: the row names that account and,
    // as "where", the OS account that ran the command.
    exporter.setOrigin(operatorId());
    auto result = exporter.run(*filter, out, *writer, *actor);
    if (!result)
        return fail(ctx, result.error());
    const AuditManifest &m = result->manifest;
    ctx.out << "exported " << m.rowCount << " audit row(s) (" << m.filter.describe() << ") to "
            << result->path << '\n'
            << "sha256 " << m.sha256 << ", chain head seq " << m.head.seq << ' '
            << m.head.hash.left(16);
    if (m.head.seal)
        ctx.out << ", sealed at seq " << m.head.seal->seq << " (checkpoint " << m.head.seal->id
                << ", " << m.head.rowsAfterSeal() << " row(s) after the seal)";
    else
        ctx.out << ", no seal yet";
    ctx.out << "\nmanifest " << result->manifestPath << '\n';
    return Ok;
}

int verifyExport(Context &ctx, const QCommandLineParser &parser)
{
    const QStringList args = parser.positionalArguments();
    if (args.size() != 1)
        return usage(ctx, makeError(ErrorCode::Invalid,
                                    QStringLiteral("verify-export takes one MANIFEST file")));
    if (auto e = missingAs(parser))
        return usage(ctx, *e);
    auto orders = openMigrated(ctx.config.orders, QStringLiteral("audit-verify-export"));
    if (!orders)
        return fail(ctx, orders.error());
    auto actor = staffActor(*orders, parser);
    if (!actor)
        return fail(ctx, actor.error());
    auto audit = openAudit(ctx, QStringLiteral("audit-verify-export"));
    if (!audit)
        return fail(ctx, audit.error());
    auto check = AuditExporter(*audit, *orders, Clock::system()).verify(args.first(), *actor);
    if (!check)
        return fail(ctx, check.error());
    ctx.out << check->summary() << '\n';
    return check->ok() ? Ok : Failed;
}

void addExportOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("from"),
                 QStringLiteral("rows that occurred at or after TIME"
                                " (2026-11-01, ISO 8601 or epoch ms; UTC)"),
                 QStringLiteral("TIME")});
    p.addOption({QStringLiteral("to"), QStringLiteral("rows that occurred before TIME"),
                 QStringLiteral("TIME")});
    p.addOption(
        {QStringLiteral("actor"), QStringLiteral("rows by this actor"), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("action"),
                 QStringLiteral("rows with this action, or a prefix ending in * (order.*)"),
                 QStringLiteral("ACTION")});
    p.addOption(
        {QStringLiteral("order"), QStringLiteral("rows of this order"), QStringLiteral("ID")});
    p.addOption({QStringLiteral("callback"), QStringLiteral("rows of this callback"),
                 QStringLiteral("ID")});
    p.addOption({QStringLiteral("entity-kind"), QStringLiteral("rows about this kind of entity"),
                 QStringLiteral("KIND")});
    p.addOption({QStringLiteral("entity"), QStringLiteral("rows about this entity id"),
                 QStringLiteral("ID")});
    p.addOption({QStringLiteral("format"), QStringLiteral("csv, json or pdf"),
                 QStringLiteral("FORMAT"), QStringLiteral("csv")});
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("the file to write; the manifest goes"
                                " beside it as FILE.manifest.json"),
                 QStringLiteral("FILE")});
    addAsOption(p);
    addBatchOption(p);
}

void addActorOption(QCommandLineParser &p)
{
    p.addOption({kActor, QStringLiteral("who runs it, as recorded in the audit log"),
                 QStringLiteral("NAME"), QStringLiteral("system")});
}

const bool registered = registerCommands({
    {{QStringLiteral("audit"), QStringLiteral("ship")},
     QStringLiteral("copy audit outbox events into the hash-chained audit log"),
     {},
     addBatchOption,
     ship},
    {{QStringLiteral("audit"), QStringLiteral("verify")},
     QStringLiteral("check the audit chain and its seals; exit 1 naming the first bad row"),
     {},
     [](QCommandLineParser &p) {
         addBatchOption(p);
         p.addOption({kPublicKey, QStringLiteral("seal public key (default from [seal])"),
                      QStringLiteral("FILE")});
     },
     verify},
    {{QStringLiteral("audit"), QStringLiteral("seal")},
     QStringLiteral("sign the current audit chain head (Ed25519) into audit_checkpoints"),
     {},
     addActorOption,
     seal},
    {{QStringLiteral("audit"), QStringLiteral("crosscheck")},
     QStringLiteral("match completed messages against audit rows by callback id"),
     {},
     addActorOption,
     crosscheck},
    {{QStringLiteral("audit"), QStringLiteral("export")},
     QStringLiteral("export the filtered audit trail as CSV, JSON or PDF with a manifest"),
     {},
     addExportOptions,
     exportTrail},
    {{QStringLiteral("audit"), QStringLiteral("verify-export")},
     QStringLiteral("check an export against its manifest and the audit database"),
     QStringLiteral("MANIFEST"),
     addAsOption,
     verifyExport},
});

} // namespace

} // namespace OncePay::Cli
