// Load for `oncepay gateway` (issue 7), from a separate process over loopback: starts the
// real binary on fresh scratch databases, sends signed Stripe callbacks at a fixed
// concurrency with a share of duplicates (channel retries), stops the gateway with SIGTERM
// and checks that every distinct callback answered 200 is stored exactly once.
//
//   oncepay_gateway_load [--engine sqlite|postgresql|mariadb] [--requests 20000]
//                        [--concurrency 32] [--duplicates 0.3] [--max-batch N]
//                        [--batch-wait-ms N]
// PostgreSQL/MariaDB servers come from ONCEPAY_TEST_PG_* / ONCEPAY_TEST_MYSQL_*
// (packaging/test.sh).

#include "gatewaytestsupport.h"

#include "db/sql.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <random>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOption({QStringLiteral("engine"), QStringLiteral("sqlite, postgresql or mariadb"),
                 QStringLiteral("E"), QStringLiteral("sqlite")});
    p.addOption({QStringLiteral("requests"), QStringLiteral("requests"), QStringLiteral("N"),
                 QStringLiteral("20000")});
    p.addOption({QStringLiteral("concurrency"), QStringLiteral("client connections"),
                 QStringLiteral("C"), QStringLiteral("32")});
    p.addOption({QStringLiteral("duplicates"), QStringLiteral("share of duplicates"),
                 QStringLiteral("D"), QStringLiteral("0.3")});
    p.addOption({QStringLiteral("max-batch"), QStringLiteral("[gateway] max_batch"),
                 QStringLiteral("N"), QStringLiteral("256")});
    p.addOption({QStringLiteral("batch-wait-ms"), QStringLiteral("[gateway] batch_wait_ms"),
                 QStringLiteral("N"), QStringLiteral("2")});
    p.process(app);
    QTextStream out(stdout);

    Dialect dialect = Dialect::Sqlite;
    if (!parseDialect(p.value(QStringLiteral("engine")), &dialect))
        return out << "unknown engine\n", 2;
    const int requests = p.value(QStringLiteral("requests")).toInt();
    const int concurrency = std::max(1, p.value(QStringLiteral("concurrency")).toInt());
    const double dupShare = p.value(QStringLiteral("duplicates")).toDouble();
    const int unique = std::max(1, int(double(requests) * (1.0 - dupShare) + 0.5));

    auto dbs = ScratchDatabases::create(dialect);
    if (!dbs)
        return out << "scratch databases: " << dbs.error().message << '\n', 4;
    QProcessEnvironment env;
    const QString config = (*dbs)->writeConfigFile(&env);
    {
        QFile f(config);
        f.open(QIODevice::Append);
        f.write("\n[gateway]\nmax_batch = " + p.value(QStringLiteral("max-batch")).toUtf8() +
                "\nbatch_wait_ms = " + p.value(QStringLiteral("batch-wait-ms")).toUtf8() + "\n");
    }
    env.insert(QStringLiteral("ONCEPAY_STRIPE_WEBHOOK_SECRET"),
               QString::fromLatin1(kGwStripeSecret));

    const QString bin =
        qEnvironmentVariable("ONCEPAY_BIN_DIR", QCoreApplication::applicationDirPath());
    QProcess gw;
    gw.setProcessEnvironment(env);
    // The access log goes to a file: nobody drains a pipe while the clients run.
    gw.setStandardErrorFile((*dbs)->tempPath() + QStringLiteral("/gateway.err"));
    gw.start(bin + QStringLiteral("/oncepay"),
             {QStringLiteral("--config"), config, QStringLiteral("gateway"),
              QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
    if (!gw.waitForStarted())
        return out << "cannot start oncepay\n", 1;
    QByteArray banner;
    QRegularExpressionMatch m;
    const QRegularExpression listening(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
    QElapsedTimer wait;
    wait.start();
    while (!(m = listening.match(QString::fromUtf8(banner))).hasMatch() && wait.elapsed() < 30000) {
        gw.waitForReadyRead(200);
        banner += gw.readAllStandardOutput();
    }
    if (!m.hasMatch())
        return out << "gateway did not start: " << gw.readAllStandardError() << '\n', 1;
    const quint16 port = quint16(m.captured(1).toUInt());

    std::vector<int> sequence;
    for (int i = 0; i < requests; ++i)
        sequence.push_back(i < unique ? i : int(std::mt19937(i)() % unique));
    std::shuffle(sequence.begin(), sequence.end(), std::mt19937(42));
    // Bodies are made up front; signing (the timestamp) happens at send time.
    QList<QByteArray> bodies;
    for (int i = 0; i < unique; ++i)
        bodies << StripeEvents::paymentIntentSucceeded(
            stripeParams(QStringLiteral("evt_load_%1").arg(i), QStringLiteral("o-%1").arg(i)));

    std::mutex mutex;
    std::vector<double> latencies;
    QMap<int, int> statuses;
    QSet<int> acknowledged;
    int stored = 0, duplicate = 0;
    QElapsedTimer clock;
    clock.start();
    std::vector<std::thread> clients;
    for (int t = 0; t < concurrency; ++t) {
        clients.emplace_back([&, t] {
            TestHttpClient c(port, 60000);
            std::vector<double> mine;
            for (size_t i = size_t(t); i < sequence.size(); i += size_t(concurrency)) {
                const int id = sequence[i];
                const InboundRequest req =
                    StripeSigner::sign(bodies[id], kGwStripeSecret, nowSeconds());
                QElapsedTimer one;
                one.start();
                HttpResult r = c.request("POST", "/webhooks/stripe", req.body, req.headers);
                mine.push_back(double(one.nsecsElapsed()) / 1e6);
                const QString s =
                    QJsonDocument::fromJson(r.body).object().value("status").toString();
                std::lock_guard lock(mutex);
                ++statuses[r.status];
                if (r.status == 200) {
                    acknowledged.insert(id);
                    (s == u"stored" ? stored : duplicate)++;
                }
            }
            std::lock_guard lock(mutex);
            latencies.insert(latencies.end(), mine.begin(), mine.end());
        });
    }
    for (auto &t : clients)
        t.join();
    const double seconds = double(clock.nsecsElapsed()) / 1e9;

    ::kill(pid_t(gw.processId()), SIGTERM);
    gw.waitForFinished(60000);
    const int exitCode = gw.exitStatus() == QProcess::NormalExit ? gw.exitCode() : -1;

    auto c = Connection::open((*dbs)->orders(), QStringLiteral("load"));
    qint64 rows = -1, distinctRows = -1;
    if (c) {
        rows = Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM callback_messages"))
                   ->toLongLong();
        distinctRows =
            Sql::scalar(c->db(),
                        QStringLiteral("SELECT COUNT(DISTINCT callback_id) FROM callback_messages"))
                ->toLongLong();
    }
    int fiveXX = 0;
    QStringList codes;
    for (auto it = statuses.cbegin(); it != statuses.cend(); ++it) {
        codes << QStringLiteral("%1:%2").arg(it.key()).arg(it.value());
        if (it.key() >= 500 || it.key() < 0)
            fiveXX += it.value();
    }
    const bool pass = fiveXX == 0 && rows == acknowledged.size() && rows == distinctRows &&
                      stored == acknowledged.size() && exitCode == 0;
    out << dialectName(dialect) << " max_batch=" << p.value(QStringLiteral("max-batch"))
        << " batch_wait_ms=" << p.value(QStringLiteral("batch-wait-ms")) << ": " << requests
        << " requests, concurrency " << concurrency << ", " << unique << " distinct\n"
        << "  " << QString::number(double(requests) / seconds, 'f', 0) << " req/s, p50 "
        << QString::number(percentile(latencies, 0.5), 'f', 2) << " ms, p99 "
        << QString::number(percentile(latencies, 0.99), 'f', 2) << " ms; statuses "
        << codes.join(u' ') << "\n  stored " << stored << ", already received " << duplicate
        << ", rows " << rows << " (distinct " << distinctRows << "), gateway exit " << exitCode
        << " -> " << (pass ? "PASS" : "FAIL") << Qt::endl;
    return pass ? 0 : 1;
}
