// oncepay audit ship | audit verify | audit seal | audit crosscheck

#include "audit/auditcrosscheck.h"
#include "audit/auditsealer.h"
#include "audit/auditshipper.h"
#include "audit/auditverifier.h"
#include "audit/sealkey.h"
#include "cli.h"
#include "db/migrator.h"

#include <QFile>

namespace OncePay::Cli {

namespace {

const QString kBatch = QStringLiteral("batch");
const QString kActor = QStringLiteral("actor");
const QString kPublicKey = QStringLiteral("public-key");

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
    auto report = verifier.verify();
    if (!report)
        return fail(ctx, report.error());
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
    AuditSealer sealer(*audit, *key, Clock::system());
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
});

} // namespace

} // namespace OncePay::Cli
