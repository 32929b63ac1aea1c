// oncepay ingest | work — the callback pipeline from the command line.

#include "channels/channelregistry.h"
#include "cli.h"
#include "db/migrator.h"
#include "ingest/ingestservice.h"
#include "settings/opssettings.h"
#include "worker/worker.h"
#include "worker/workerauditshipping.h"

#include <QFile>

#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace OncePay::Cli {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onStopSignal(int)
{
    g_stop.store(true);
}

int ingest(Context &ctx, const QCommandLineParser &p)
{
    const QString channel = p.value(QStringLiteral("channel"));
    if (channel.isEmpty() || p.positionalArguments().size() != 1)
        return ctx.err << "oncepay ingest: give --channel C and one FILE (or - for stdin)\n", Usage;

    InboundRequest request;
    request.remote = QString();
    for (const QString &h : p.values(QStringLiteral("header"))) {
        const qsizetype colon = h.indexOf(u':');
        if (colon <= 0)
            return ctx.err << "oncepay ingest: --header needs 'Name: value', got '" << h.left(40)
                           << "'\n",
                   Usage;
        request.addHeader(h.left(colon).toUtf8(), h.mid(colon + 1).toUtf8());
    }
    const QString file = p.positionalArguments().first();
    QFile in;
    const bool opened = file == u"-" ? in.open(stdin, QIODevice::ReadOnly)
                                     : (in.setFileName(file), in.open(QIODevice::ReadOnly));
    if (!opened)
        return ctx.err << "oncepay ingest: cannot read " << file << ": " << in.errorString()
                       << '\n',
               Failed;
    // Read one byte past the limit so that an oversized body is recognised, not truncated.
    request.body = in.read(4 * 1024 * 1024 + 1);

    auto c = openMigrated(ctx.config.orders, QStringLiteral("ingest"));
    if (!c)
        return fail(ctx, c.error());
    auto settings = OpsSettings::load(*c);
    if (!settings)
        return fail(ctx, settings.error());
    ChannelRegistry channels(ctx.config);
    IngestService service(*c, channels, Clock::system(),
                          {settings->integer(QStringLiteral("ingest.max_body_bytes"), 256 * 1024)});
    auto r = service.ingest(channel, request);
    if (!r) {
        ctx.err << "oncepay ingest: rejected ("
                << (r.error().reason.isEmpty() ? QStringLiteral("error") : r.error().reason)
                << "): " << r.error().message << '\n';
        return exitCodeFor(r.error());
    }
    switch (r->status) {
    case IngestStatus::Stored: ctx.out << "stored " << r->callbackId << '\n'; break;
    case IngestStatus::Skipped: ctx.out << "stored as skipped " << r->callbackId << '\n'; break;
    case IngestStatus::Duplicate: ctx.out << "already received " << r->callbackId << '\n'; break;
    }
    return Ok;
}

// How `work` ends on `e`: what starting it again will not cure has a code of its own
// (kPermanentExitCodes: the systemd unit does not restart on them) — an ops setting it
// refuses is how the system is configured (3, as reconcile), a refused login 6, a newer
// schema 5 — the rest as any command.
int workFailed(Context &ctx, const Error &e)
{
    if (e.code == ErrorCode::Invalid && e.reason == u"bad_setting")
        return ctx.err << "oncepay work: " << e.message << '\n', ConfigError;
    if (e.reason == u"login_refused")
        return ctx.err << "oncepay work: " << e.message << '\n', LoginRefused;
    return fail(ctx, e);
}

int work(Context &ctx, const QCommandLineParser &p)
{
    WorkerPoolOptions options;
    options.once = p.isSet(QStringLiteral("once"));
    options.batch = p.value(QStringLiteral("batch")).toInt();
    options.threads = p.value(QStringLiteral("threads")).toInt();
    options.config = ctx.config.worker;
    if (options.batch < 1 || options.batch > 1000 || options.threads < 1 || options.threads > 64)
        return ctx.err << "oncepay work: --batch 1..1000, --threads 1..64\n", Usage;

    if (auto c = openMigrated(ctx.config.orders, QStringLiteral("work")); !c) {
        // --once reports any failure. A standing worker waits for a database that cannot be
        // reached (WorkerPool::run migrates it once it is there); what waiting cannot cure
        // (a newer schema, a file that is no database, a refused login) ends the command now.
        if (options.once)
            return workFailed(ctx, c.error());
        if (!WorkerPool::waitingCures(c.error())) {
            spdlog::error("the worker cannot start: {}", c.error().message.toStdString());
            return workFailed(ctx, c.error());
        }
        spdlog::warn("worker: orders database unavailable at start ({}); waiting for it",
                     c.error().message.toStdString());
    }
    // The worker ships audit events on its own threads: after each busy round, every few
    // seconds while idle, and round after round while a backlog waits, at most 4 batches of
    // 500 at a time (WorkerAuditShipping). The audit database being down never blocks business
    // work: the outbox keeps the events.
    options.afterRound = workerAuditShippingHook(ctx.config.audit);
    std::signal(SIGTERM, onStopSignal);
    std::signal(SIGINT, onStopSignal);
    spdlog::info("worker starting: {} thread(s), batch {}{}", options.threads, options.batch,
                 options.once ? ", once" : "");
    auto stats = WorkerPool::run(ctx.config.orders, Clock::system(), options, g_stop);
    if (!stats)
        return workFailed(ctx, stats.error());
    ctx.out << stats->summary() << '\n';
    spdlog::info("worker stopped: {}", stats->summary().toStdString());
    return Ok;
}

const bool registered = registerCommands({
    {{QStringLiteral("ingest")},
     QStringLiteral("verify a channel webhook and store it in the message table"),
     QStringLiteral("FILE|-"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("channel"),
                      QStringLiteral("Whose signature and format: stripe, paypal, fedapay or "
                                     "kakaopay."),
                      QStringLiteral("CHANNEL")});
         p.addOption({QStringLiteral("header"),
                      QStringLiteral("A request header as received, 'Name: value' (repeatable); "
                                     "FILE is the raw body, - reads it from stdin."),
                      QStringLiteral("HEADER")});
     },
     ingest},
    {{QStringLiteral("work")},
     QStringLiteral("process pending callback messages (leases, retries, dead letters)"),
     {},
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("once"),
                      QStringLiteral("Stop when no message is due (default: run until SIGTERM or "
                                     "SIGINT, then finish the batch; a database that cannot be "
                                     "reached is waited for, while what waiting cannot cure — a "
                                     "newer schema (exit 5), refused ops settings (3), a login "
                                     "the server refuses (6: wrong user or password, no such "
                                     "database), a file that is no database (1) — ends the "
                                     "command with its error).")});
         p.addOption({QStringLiteral("batch"),
                      QStringLiteral("Messages claimed per round (default 50)."),
                      QStringLiteral("N"), QStringLiteral("50")});
         p.addOption({QStringLiteral("threads"),
                      QStringLiteral("Worker threads, one connection each (default 1)."),
                      QStringLiteral("K"), QStringLiteral("1")});
     },
     work,
     true},
});

} // namespace

} // namespace OncePay::Cli
