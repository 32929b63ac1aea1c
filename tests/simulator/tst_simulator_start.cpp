// When the simulated world happens: `simulate --start DATE` moves every timestamp — orders,
// callbacks, the audit outage, statements and the fee schedule — into the chosen period; the
// same seed and start tell the same story; `--demo` without --start is the latest month whose
// retries and settlements are all over by today, so a console opened today sees records aged as
// an operations team would; and a start that is no date or whose period (with its tail) has
// not passed yet is refused before anything is created.

#include "cliprocess.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "settlement/feeschedule.h"
#include "settlement/settlementimporter.h"
#include "simulator/simulator.h"
#include "testdatabases.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kDay = 24LL * 3600 * 1000;
// How far past the period's end the world may still move (the channels' last retries and the
// worker's back-offs, statements settling up to D+3): the tail the start rule allows for.
constexpr qint64 kTail = SimulationOptions::kTailDays * kDay;

qint64 at(const char *isoUtc)
{
    return QDateTime::fromString(QString::fromLatin1(isoUtc), Qt::ISODate).toMSecsSinceEpoch();
}

QString dayOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).date().toString(Qt::ISODate);
}

SimulationOptions inMarch(quint64 seed)
{
    SimulationOptions o;
    o.orders = 120;
    o.days = 3;
    o.seed = seed;
    o.startMs = at("2026-03-01T00:00:00Z");
    o.faults = *FaultProfile::named(QStringLiteral("hostile"));
    (void)o.faults.applyOverrides(QStringLiteral("poison=0.1,mismatch=0.1,workerCrash=0.2"));
    return o;
}

QString channelOfFile(const QString &name)
{
    if (name.startsWith(QStringLiteral("STL-")))
        return QStringLiteral("paypal");
    return name.section(u'_', 0, 0);
}

QStringList filesUnder(const QString &dir)
{
    QStringList files;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

} // namespace

class TstSimulatorStart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The demo's default, exactly, against an injected clock: the period and its tail end at
    // today's UTC midnight, whatever the hour.
    void demoIsTheLatestPeriodOver_data()
    {
        QTest::addColumn<QString>("now");
        QTest::addColumn<int>("days");
        QTest::addColumn<QString>("start");
        QTest::newRow("afternoon") << "2026-11-30T12:48:07Z" << 30 << "2026-10-26";
        QTest::newRow("midnight") << "2026-03-01T00:00:00Z" << 1 << "2026-02-22";
        QTest::newRow("last ms of a leap day") << "2028-02-29T23:59:59.999Z" << 30 << "2028-01-25";
    }
    void demoIsTheLatestPeriodOver()
    {
        QFETCH(QString, now);
        QFETCH(int, days);
        QFETCH(QString, start);
        const ManualClock clock(at(qPrintable(now)));
        SimulationOptions o;
        o.days = days;
        o.startMs = SimulationOptions::latestStart(days, clock);
        QCOMPARE(dayOf(o.startMs), start);
        QCOMPARE(o.startMs % kDay, 0);
        QCOMPARE(o.startMs + (days + SimulationOptions::tailDays(days)) * kDay,
                 clock.nowMs() / kDay * kDay);
        QVERIFY(o.checkStart(clock).ok());
        o.startMs += kDay; // the latest: a day later is refused
        QVERIFY(!o.checkStart(clock).ok());
    }

    // Which starts are allowed, decided in the simulator without the CLI: dates only, from
    // 2000-01-01 on, and the period with its tail must be over by today (UTC).
    void startRule_data()
    {
        QTest::addColumn<QString>("date");
        QTest::addColumn<int>("days");
        QTest::addColumn<QString>("refusal"); // empty: accepted
        QTest::newRow("latest for 30 days") << "2026-10-26" << 30 << "";
        QTest::newRow("latest single day") << "2026-11-23" << 1 << "";
        QTest::newRow("latest week") << "2026-11-16" << 7 << "";
        QTest::newRow("week too late")
            << "2026-11-17" << 7 << "its last retries and settlements up to 2026-11-30, which";
        QTest::newRow("earliest") << "2000-01-01" << 30 << "";
        QTest::newRow("leap day") << "2024-02-29" << 30 << "";
        QTest::newRow("one day too late")
            << "2026-10-27" << 30
            << "--start 2026-10-27 with --days 30 would simulate up to 2026-11-25 and its last "
               "retries and settlements up to 2026-11-30, which has not passed yet (today is "
               "2026-11-30 UTC); the latest start for 30 days is 2026-10-26";
        QTest::newRow("single day too late") << "2026-11-24" << 1 << "up to 2026-11-30, which";
        QTest::newRow("today only") << "2026-11-30" << 1 << "would simulate up to 2026-11-30";
        QTest::newRow("tomorrow") << "2026-12-01" << 1 << "would simulate up to 2026-12-01";
        QTest::newRow("next year") << "2027-11-01" << 30 << "(today is 2026-11-30 UTC)";
        QTest::newRow("before 2000")
            << "1999-12-31" << 1 << "--start must be 2000-01-01 or later, not 1999-12-31";
        QTest::newRow("impossible")
            << "2026-02-30" << 1 << "--start must be a date YYYY-MM-DD, not '2026-02-30'";
        QTest::newRow("not padded") << "2026-2-3" << 1 << "must be a date YYYY-MM-DD";
        QTest::newRow("with a time") << "2026-02-03T10:00" << 1 << "must be a date YYYY-MM-DD";
        QTest::newRow("a word") << "yesterday" << 1 << "must be a date YYYY-MM-DD";
        QTest::newRow("empty") << "" << 1 << "must be a date YYYY-MM-DD";
    }
    void startRule()
    {
        QFETCH(QString, date);
        QFETCH(int, days);
        QFETCH(QString, refusal);
        const ManualClock now(at("2026-11-30T12:48:07Z"));
        auto start = SimulationOptions::startOfDate(date);
        Result<void> checked;
        if (start) {
            QCOMPARE(dayOf(*start), date);
            QCOMPARE(*start % kDay, 0);
            SimulationOptions o;
            o.days = days;
            o.startMs = *start;
            checked = o.checkStart(now);
        }
        const QString error = !start     ? start.error().message
                              : !checked ? checked.error().message
                                         : QString();
        if (refusal.isEmpty())
            QVERIFY2(error.isEmpty(), qPrintable(error));
        else
            QVERIFY2(error.contains(refusal), qPrintable(error));
    }

    // The simulator itself refuses a start whose period has not passed, whoever asks: nothing
    // is written, not even the output folder.
    void simulatorRefusesAFutureStart()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs.ok());
        SimulationOptions o = inMarch(7);
        o.startMs = SimulationOptions::latestStart(o.days, ManualClock(Clock::systemNowMs())) +
                    24LL * 3600 * 1000;
        o.outDir = (*dbs)->tempPath() + "/never";
        auto r = Simulator((*dbs)->config(), o).run();
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Invalid);
        QVERIFY2(r.error().message.contains(u"has not passed yet"), qPrintable(r.error().message));
        QVERIFY(!QFileInfo::exists(o.outDir));
    }

    void startBetweenMidnightsIsRefused()
    {
        SimulationOptions o;
        o.startMs = at("2026-03-01T09:00:00Z");
        auto r = o.checkStart(ManualClock(at("2026-11-30T12:00:00Z")));
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains("UTC midnight"));
    }

    // Everything the simulation writes happens in the chosen period (plus its tail of late
    // retries and settlements), nothing on the fixed default's dates.
    void startMovesEveryTimestamp_data() { addEngineRows(); }
    void startMovesEveryTimestamp()
    {
        ONCEPAY_SCRATCH(dbs);
        const QString out = dbs->tempPath() + "/sim";
        SimulationOptions o = inMarch(42);
        o.outDir = out;
        const qint64 start = o.startMs, end = start + o.days * kDay;
        auto summary = Simulator(dbs->config(), o).run();
        QVERIFY2(summary.ok(), qPrintable(summary.ok() ? QString() : summary.error().message));
        QVERIFY2(summary->invariantFailures.isEmpty(),
                 qPrintable(summary->invariantFailures.join('\n')));
        QCOMPARE(summary->startMs, start);
        QCOMPARE(summary->endMs, end);
        QVERIFY(summary->toText().contains("simulated days          2026-03-01 to 2026-03-03"));
        // The audit outage of "day 2" happened on the chosen period's day 2.
        QVERIFY(summary->auditShipRefused > 0);

        auto c = openMigrated(dbs->orders(), QStringLiteral("start-check"));
        QVERIFY(c.ok());
        const struct {
            const char *column;
            const char *table;
            qint64 last;
        } spans[] = {
            {"created_at", "orders", end},
            {"updated_at", "orders", end + kTail},
            {"paid_at", "orders", end + kTail},
            {"created_at", "order_transitions", end + kTail},
            {"created_at", "transition_rejections", end + kTail},
            {"captured_at", "payments", end + kTail},
            {"refunded_at", "payments", end + kTail},
            {"created_at", "ledger_entries", end + kTail},
            {"received_at", "callback_messages", end + kTail},
            {"finished_at", "callback_messages", end + kTail},
            {"created_at", "dead_letters", end + kTail},
            {"created_at", "ingest_rejections", end + kTail},
            {"created_at", "refund_obligations", end + kTail},
            {"occurred_at", "audit_outbox", end + kTail},
        };
        auto within = [&](const char *table, const char *column, qint64 last) -> QString {
            const QString what = QStringLiteral("%1.%2").arg(table, column);
            auto first =
                Sql::scalar(c->db(), QStringLiteral("SELECT MIN(%1) FROM %2").arg(column, table));
            auto lastSeen =
                Sql::scalar(c->db(), QStringLiteral("SELECT MAX(%1) FROM %2").arg(column, table));
            if (!first.ok() || !lastSeen.ok() || first->isNull())
                return what + " is empty";
            if (first->toLongLong() < start)
                return what + " starts " + dayOf(first->toLongLong());
            if (lastSeen->toLongLong() >= last)
                return what + " ends " + dayOf(lastSeen->toLongLong());
            return QString();
        };
        for (const auto &s : spans) {
            const QString wrong = within(s.table, s.column, s.last);
            QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        }
        // The statements and the fee schedule, imported as an operator would.
        const Actor finance{QStringLiteral("fin-1"), QStringLiteral("finance")};
        QVERIFY(!summary->statementFiles.isEmpty());
        SettlementImporter importer(*c, Clock::system());
        for (const QString &file : summary->statementFiles) {
            auto r = importer.importFile(channelOfFile(QFileInfo(file).fileName()), file, finance);
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        }
        QFile fees(out + "/fee_schedule.csv");
        QVERIFY(fees.open(QIODevice::ReadOnly));
        auto rules = Fees::parseCsv(fees.readAll());
        QVERIFY(rules.ok());
        QVERIFY(FeeScheduleStore(*c, Clock::system()).import(*rules, finance).ok());

        const QString lines = within("settlement_lines", "settled_at", end + kTail);
        QVERIFY2(lines.isEmpty(), qPrintable(lines));
        // The fee schedule covers the period: every rate known from before its first day, and
        // the channels' rate change inside it.
        auto covered =
            Sql::scalar(c->db(),
                        "SELECT COUNT(*) FROM (SELECT channel, currency FROM fee_schedules GROUP BY"
                        " channel, currency HAVING MIN(effective_from) <= ? AND MAX(effective_from)"
                        " > ? AND MAX(effective_from) < ?) covering",
                        {start, start, end});
        auto pairs = Sql::scalar(c->db(), "SELECT COUNT(*) FROM (SELECT DISTINCT channel, currency"
                                          " FROM fee_schedules) rated");
        QVERIFY(covered.ok() && pairs.ok());
        QVERIFY(pairs->toInt() > 0);
        QCOMPARE(covered->toInt(), pairs->toInt());
        // The audit database holds the period's events too.
        auto audit = openMigrated(dbs->audit(), QStringLiteral("start-check-audit"));
        QVERIFY(audit.ok());
        auto auditFirst = Sql::scalar(audit->db(), "SELECT MIN(occurred_at) FROM audit_log");
        auto auditLast = Sql::scalar(audit->db(), "SELECT MAX(occurred_at) FROM audit_log");
        QVERIFY(auditFirst.ok() && auditFirst->toLongLong() >= start);
        QVERIFY(auditLast.ok() && auditLast->toLongLong() < end + kTail);
    }

    void sameSeedSameStartSameStory()
    {
        QString digests[3];
        for (int i = 0; i < 3; ++i) {
            auto dbs = ScratchDatabases::create(Dialect::Sqlite);
            QVERIFY(dbs.ok());
            SimulationOptions o = inMarch(7);
            o.orders = 80;
            if (i == 2)
                o.startMs += kDay; // the same story a day later is another story
            auto s = Simulator((*dbs)->config(), o).run();
            QVERIFY(s.ok());
            QVERIFY(s->invariantFailures.isEmpty());
            digests[i] = s->businessDigest;
        }
        QCOMPARE(digests[0].size(), 64);
        QCOMPARE(digests[0], digests[1]);
        QVERIFY(digests[0] != digests[2]);
    }

    // The command line: --start puts the world where asked; --demo without it is the latest month
    // whose tail is over.
    void startAndDemoOnTheCommandLine()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs.ok());
        QProcessEnvironment env;
        const QString config = (*dbs)->writeConfigFile(&env);
        CliRun chosen = runOncepay({"--config", config, "simulate", "--start", "2026-03-01",
                                    "--days", "2", "--orders", "20", "--seed", "3", "--json"},
                                   env);
        QVERIFY2(chosen.exitCode == 0, qPrintable(chosen.err + chosen.out));
        QJsonObject j = QJsonDocument::fromJson(chosen.out.toUtf8()).object();
        QCOMPARE(j["first_day"].toString(), QStringLiteral("2026-03-01"));
        QCOMPARE(j["last_day"].toString(), QStringLiteral("2026-03-02"));

        const qint64 before = Clock::systemNowMs();
        CliRun demo =
            runOncepay({"--config", config, "simulate", "--demo", "--orders", "20", "--json"}, env);
        const qint64 after = Clock::systemNowMs();
        QVERIFY2(demo.exitCode == 0, qPrintable(demo.err + demo.out));
        j = QJsonDocument::fromJson(demo.out.toUtf8()).object();
        const QString lastDay = j["last_day"].toString();
        QVERIFY2(lastDay == dayOf(before - kDay - kTail) || lastDay == dayOf(after - kDay - kTail),
                 qPrintable(demo.out));

        auto c = openMigrated((*dbs)->orders(), QStringLiteral("cli-start-check"));
        QVERIFY(c.ok());
        auto span = [&](const QString &seed) {
            const QString where = QStringLiteral(" FROM orders WHERE order_id LIKE 'ord-%1-%'");
            return std::pair{
                Sql::scalar(c->db(), "SELECT MIN(created_at)" + where.arg(seed))->toLongLong(),
                Sql::scalar(c->db(), "SELECT MAX(created_at)" + where.arg(seed))->toLongLong()};
        };
        const auto [chosenFirst, chosenLast] = span("3");
        QVERIFY(chosenFirst >= at("2026-03-01T00:00:00Z"));
        QVERIFY(chosenLast < at("2026-03-03T00:00:00Z"));
        // The demo's orders are of the 30 days that ended 5 days ago, none later.
        const auto [demoFirst, demoLast] = span("2026");
        QVERIFY2(demoFirst >= before - 31 * kDay - kTail, qPrintable(dayOf(demoFirst)));
        QVERIFY2(demoLast <= after - kTail, qPrintable(dayOf(demoLast)));
    }

    // A start that is no date, or whose period has not happened yet: refused as bad usage
    // with its reason, before any database, statement or certificate is created.
    void badStartsAreRefusedAndCreateNothing_data()
    {
        const QDate today = QDateTime::currentDateTimeUtc().date();
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("a word") << QStringList{"--start", "last-month"}
                                << "--start must be a date YYYY-MM-DD, not 'last-month'";
        QTest::newRow("impossible date") << QStringList{"--start", "2026-02-30"}
                                         << "--start must be a date YYYY-MM-DD, not '2026-02-30'";
        QTest::newRow("not padded") << QStringList{"--start", "2026-3-1"}
                                    << "--start must be a date YYYY-MM-DD, not '2026-3-1'";
        QTest::newRow("before 2000") << QStringList{"--start", "1999-12-31"}
                                     << "--start must be 2000-01-01 or later, not 1999-12-31";
        QTest::newRow("tomorrow") << QStringList{"--start", today.addDays(1).toString(Qt::ISODate),
                                                 "--days", "1"}
                                  << "(today is " + today.toString(Qt::ISODate) + " UTC)";
        QTest::newRow("settlements not in")
            << QStringList{"--start", today.addDays(-34).toString(Qt::ISODate)}
            << "the latest start for 30 days is " + today.addDays(-35).toString(Qt::ISODate);
        QTest::newRow("demo in the future")
            << QStringList{"--demo", "--start", today.addDays(10).toString(Qt::ISODate)}
            << "(today is " + today.toString(Qt::ISODate) + " UTC)";
    }
    void badStartsAreRefusedAndCreateNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs.ok());
        QProcessEnvironment env;
        const QString config = (*dbs)->writeConfigFile(&env);
        const QString out = (*dbs)->tempPath() + "/out";
        const QStringList before = filesUnder((*dbs)->tempPath());
        QStringList all = QStringList{"--config", config, "simulate", "--orders", "5"} + args;
        if (!args.contains("--demo"))
            all << "--out" << out;
        CliRun r = runOncepay(all, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("oncepay simulate: --start "), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        // Only the CLI's log, which says why.
        const QString log = (*dbs)->tempPath() + "/cli.log";
        QStringList expected = QStringList(before) << log;
        expected.sort();
        QCOMPARE(filesUnder((*dbs)->tempPath()), expected);
        QFile logFile(log);
        QVERIFY(logFile.open(QIODevice::ReadOnly));
        const QString logged = QString::fromUtf8(logFile.readAll());
        QVERIFY2(logged.contains("simulate refused, nothing created: --start"), qPrintable(logged));
        QVERIFY2(logged.contains(message), qPrintable(logged));
        QVERIFY(!QFileInfo::exists((*dbs)->orders().path));
        QVERIFY(!QFileInfo::exists((*dbs)->audit().path));
    }
};

QTEST_GUILESS_MAIN(TstSimulatorStart)
#include "tst_simulator_start.moc"
