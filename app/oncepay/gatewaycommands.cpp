// oncepay gateway — the channels' webhook endpoint (issue 7), optionally with the worker.

#include "channels/channelregistry.h"
#include "cli.h"
#include "db/migrator.h"
#include "gateway/gateway.h"
#include "settings/opssettings.h"
#include "worker/worker.h"
#include "worker/workerauditshipping.h"

#include <QEventLoop>
#include <QThread>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>

namespace OncePay::Cli {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onGatewayStopSignal(int)
{
    g_stop.store(true);
}

// The in-process worker until the gateway stops. The pool itself waits for a database that
// cannot be reached; it ends early only on what waiting cannot cure (a newer schema, refused
// ops settings, a refused login: WorkerPool::run), and is then not restarted — the gateway
// goes on storing callbacks for a worker started after the fix.
void runWorker(const AppConfig &config, int threads, const std::atomic<bool> &stop)
{
    WorkerPoolOptions options;
    options.threads = threads;
    options.config = config.worker;
    options.batch = config.worker.value(QStringLiteral("batch"), QStringLiteral("50")).toInt();
    if (options.batch < 1 || options.batch > 1000)
        options.batch = 50;
    // Ships the audit outbox as `oncepay work` does (WorkerAuditShipping): it never shipped
    // from the gateway's own worker, whose events waited for a separate `audit ship`.
    options.afterRound = workerAuditShippingHook(config.audit);
    while (!stop.load()) {
        auto stats = WorkerPool::run(config.orders, Clock::system(), options, stop);
        if (stats) {
            spdlog::info("worker stopped: {}", stats->summary().toStdString());
            continue;
        }
        spdlog::error("gateway: in-process worker stopped: {}; callbacks are still stored,"
                      " restart the gateway once it is fixed",
                      stats.error().message.toStdString());
        return;
    }
}

int gateway(Context &ctx, const QCommandLineParser &p)
{
    auto options = GatewayOptions::fromConfig(ctx.config.gateway);
    if (!options)
        return ctx.err << "oncepay gateway: " << options.error().message << '\n', ConfigError;
    if (p.isSet(QStringLiteral("listen")) &&
        !GatewayOptions::parseListen(p.value(QStringLiteral("listen")), &options->address,
                                     &options->port))
        return ctx.err << "oncepay gateway: --listen needs ADDR:PORT, e.g. 127.0.0.1:8080\n", Usage;
    const int workerThreads = p.value(QStringLiteral("worker-threads")).toInt();
    if (workerThreads < 1 || workerThreads > 64)
        return ctx.err << "oncepay gateway: --worker-threads 1..64\n", Usage;

    // Schema and thresholds now if the database is there; if it is not, start anyway and
    // answer 503 until it is (the committer migrates on connect). A login the server refuses
    // would be answered 503 for ever: it ends the command, as a newer schema does.
    if (auto c = openMigrated(ctx.config.orders, QStringLiteral("gateway"))) {
        auto settings = OpsSettings::load(*c);
        if (!settings)
            return fail(ctx, settings.error());
        if (!options->maxBodyFromConfig)
            options->maxBodyBytes =
                settings->integer(QStringLiteral("ingest.max_body_bytes"), options->maxBodyBytes);
    } else if (c.error().reason == u"login_refused") {
        spdlog::error("gateway cannot start: {}", c.error().message.toStdString());
        return ctx.err << "oncepay gateway: " << c.error().message << '\n', LoginRefused;
    } else if (c.error().code == ErrorCode::Unavailable) {
        spdlog::warn("gateway: orders database unavailable at start ({}); answering 503 until it"
                     " is back",
                     c.error().message.toStdString());
    } else {
        return fail(ctx, c.error());
    }

    std::signal(SIGTERM, onGatewayStopSignal);
    std::signal(SIGINT, onGatewayStopSignal);

    ChannelRegistry channels(ctx.config);
    Gateway gateway(ctx.config, channels, Clock::system(), *options);
    auto port = gateway.start();
    if (!port)
        return fail(ctx, port.error());
    ctx.out << "oncepay gateway listening on " << options->listenText(*port) << Qt::endl;

    std::atomic<bool> stopWorker{false};
    QThread *worker = nullptr;
    if (p.isSet(QStringLiteral("with-worker"))) {
        worker = QThread::create([&] { runWorker(ctx.config, workerThreads, stopWorker); });
        worker->start();
        spdlog::info("gateway: worker running in-process, {} thread(s)", workerThreads);
    }

    QEventLoop loop;
    QObject::connect(&gateway, &Gateway::stopped, &loop, &QEventLoop::quit);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &gateway, [&gateway] {
        if (g_stop.load())
            gateway.shutdown();
    });
    poll.start(50);
    loop.exec();

    if (worker) {
        stopWorker.store(true);
        worker->wait();
        delete worker;
    }
    ctx.out << "oncepay gateway stopped" << Qt::endl;
    return Ok;
}

const bool registered = registerCommands({
    {{QStringLiteral("gateway")},
     QStringLiteral("receive channel webhooks over HTTP; 200 only once stored"),
     {},
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("listen"),
                      QStringLiteral("Address and port (default [gateway] listen, else "
                                     "127.0.0.1:8080; port 0 picks a free one)."),
                      QStringLiteral("ADDR:PORT")});
         p.addOption({QStringLiteral("with-worker"),
                      QStringLiteral("Also process the message table in this process.")});
         p.addOption({QStringLiteral("worker-threads"),
                      QStringLiteral("Worker threads with --with-worker (default 1)."),
                      QStringLiteral("K"), QStringLiteral("1")});
     },
     gateway,
     true},
});

} // namespace

} // namespace OncePay::Cli
