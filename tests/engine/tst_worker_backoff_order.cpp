// The worker's back-off base stays at or below its maximum wherever the two come from: the
// worker waits min(backoff_max_ms, backoff_base_ms * 2^n) before a retry, so a base above the
// maximum makes every retry wait only the maximum. A [worker] section of the configuration
// file with both out of order is refused at load — `oncepay work` exits 3 (configuration)
// naming both keys, before anything runs; one key from the file and the other from
// ops_settings crossing is clamped by the worker with a warning that names where each came from.

#include "cliprocess.h"
#include "config/appconfig.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "logcapture.h"
#include "worker/messagestore.h"
#include "worker/worker.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <spdlog/spdlog.h>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QString writeWorkerConfig(const QTemporaryDir &dir, const QByteArray &worker)
{
    const QString path = dir.filePath(QStringLiteral("oncepay.ini"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write("[general]\ndata_dir = " + dir.filePath(QStringLiteral("data")).toUtf8() +
            "\n[worker]\n" + worker);
    return path;
}

} // namespace

class TstWorkerBackoffOrder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A retry's delay is exponential, capped, within ±20 % — and the same for the same message
    // and attempt: a simulated month run again with the same seed retries at the same times
    // (README: the same seed gives the same business digest), while messages that failed
    // together still retry apart.
    void theRetryDelayIsTheMessagesOwnAndSpread()
    {
        RetryPolicy policy;
        policy.backoffBaseMs = 5000;
        policy.backoffMaxMs = 3600 * 1000;
        QSet<qint64> delays;
        for (qint64 id = 1; id <= 200; ++id) {
            for (int attempt = 1; attempt <= 12; ++attempt) {
                const qint64 d = MessageStore::backoffMs(id, attempt, policy);
                QCOMPARE(MessageStore::backoffMs(id, attempt, policy), d);
                const qint64 raw = std::min<qint64>(policy.backoffMaxMs, 5000LL << (attempt - 1));
                QVERIFY2(d >= raw - raw / 5 && d <= raw + raw / 5,
                         qPrintable(QStringLiteral("%1 for %2").arg(d).arg(raw)));
                if (attempt == 3)
                    delays.insert(d);
            }
        }
        // 200 messages on their third attempt: spread over the ±4 s window, not bunched.
        QVERIFY2(delays.size() > 150, qPrintable(QString::number(delays.size())));
        QVERIFY(*std::min_element(delays.cbegin(), delays.cend()) < 20000 - 3000);
        QVERIFY(*std::max_element(delays.cbegin(), delays.cend()) > 20000 + 3000);
        QCOMPARE(MessageStore::backoffMs(7, 1, RetryPolicy{1, 1, 1, 1}), 1); // never 0
    }

    void theConfigurationRefusesABaseAboveTheMaximum()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QProcessEnvironment none;
        auto crossed = AppConfig::load(
            writeWorkerConfig(dir, "backoff_base_ms = 120000\nbackoff_max_ms = 60000\n"), none);
        QVERIFY(!crossed.ok());
        QCOMPARE(crossed.error().code, ErrorCode::Invalid);
        QCOMPARE(crossed.error().reason, QStringLiteral("out_of_order"));
        QVERIFY2(crossed.error().message.endsWith(
                     QStringLiteral("oncepay.ini: [worker] backoff_base_ms (120000) may not be"
                                    " above backoff_max_ms (60000)")),
                 qPrintable(crossed.error().message));

        // Equal is in order; one of the two alone is left to the worker (below).
        auto equal = AppConfig::load(
            writeWorkerConfig(dir, "backoff_base_ms = 60000\nbackoff_max_ms = 60000\n"), none);
        QVERIFY(equal.ok());
        QCOMPARE(equal->worker.value(QStringLiteral("backoff_max_ms")), QStringLiteral("60000"));
        QVERIFY(AppConfig::load(writeWorkerConfig(dir, "backoff_base_ms = 120000\n"), none).ok());
    }

    void workExitsWithAConfigurationError()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString config =
            writeWorkerConfig(dir, "backoff_base_ms = 120000\nbackoff_max_ms = 60000\n");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ONCEPAY_CONFIG"));
        env.remove(QStringLiteral("ONCEPAY_DATA_DIR"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg-config")));
        CliRun r = runOncepay({"--config", config, "work", "--once"}, env);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("oncepay: configuration: ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("[worker] backoff_base_ms (120000) may not be above"
                                               " backoff_max_ms (60000)")),
                 qPrintable(r.err));
        // Refused before anything ran: no database was made.
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("data/orders.db"))));
    }

    void oneFromTheFileAndOneFromTheSettingsIsClampedAndSaid_data() { addEngineRows(); }
    void oneFromTheFileAndOneFromTheSettingsIsClampedAndSaid()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE ops_settings SET setting_value = '60000'"
                                         " WHERE setting_key = 'worker.backoff_max_ms'"))
                    .ok());
        auto capture = std::make_unique<LogCapture>();
        auto inOrder = Worker::policyFrom(*f.orders, {{"backoff_base_ms", "30000"}});
        const QString quiet = capture->text();
        auto crossed = Worker::policyFrom(*f.orders, {{"backoff_base_ms", "120000"}});
        const QString log = capture->text();
        capture.reset();
        QVERIFY(inOrder.ok());
        QCOMPARE(inOrder->backoffBaseMs, 30000);
        QCOMPARE(inOrder->backoffMaxMs, 60000);
        QCOMPARE(quiet, QString());
        QVERIFY(crossed.ok());
        QCOMPARE(crossed->backoffBaseMs, 60000);
        QCOMPARE(crossed->backoffMaxMs, 60000);
        QCOMPARE(log, QStringLiteral("warning worker back-off base 120000 ms ([worker]"
                                     " backoff_base_ms) is above its maximum 60000 ms (ops setting"
                                     " worker.backoff_max_ms); every retry waits the maximum: using"
                                     " 60000 ms as the base\n"));
    }
};

QTEST_GUILESS_MAIN(TstWorkerBackoffOrder)
#include "tst_worker_backoff_order.moc"
