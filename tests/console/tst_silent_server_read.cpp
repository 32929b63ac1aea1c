// A console read on a PostgreSQL server that goes silent behind a proxy keeping the link open
// ends with "unavailable" instead of holding its pool thread for ever, and the console's next
// read, once the server answers again, works without a restart (runBackgroundQuery drops the
// cut connection and opens a new one); an audit job on a silent audit server and a health check
// on a silent server end the same way. The watch's limit is shortened to 1.5 s (60 s in the
// program); the proxy is tcpoutageproxy.h (freeze()), the server the test's PostgreSQL.

#include "audit/audittask.h"
#include "common/backgroundquery.h"
#include "common/taskpool.h"
#include "db/healthcheck.h"
#include "db/migrator.h"
#include "db/serversilence.h"
#include "db/sql.h"
#include "tcpoutageproxy.h"
#include "testdatabases.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>

#include <optional>

using namespace OncePay;
using namespace std::chrono_literals;

namespace {

constexpr auto kLimit = 1500ms;

// One read of the orders table's size through the console's pool; its outcome and how long it
// took to come back.
struct Read {
    std::optional<Result<qint64>> outcome;
    qint64 ms = 0;
};

Read countOrders(const ConnectionProfile &orders)
{
    QObject context;
    Read read;
    QElapsedTimer t;
    t.start();
    runBackgroundQuery<qint64>(
        &context, orders, QStringLiteral("silence"),
        [](const Connection &c) -> Result<qint64> {
            auto v = Sql::scalar(c.db(), QStringLiteral("SELECT COUNT(*) FROM orders"));
            if (!v)
                return v.error();
            return v->toLongLong();
        },
        [&read](const Result<qint64> &r) { read.outcome = r; });
    // The proxy thaws by itself after 20 s: a read that is never ended fails here, not by hanging.
    if (!QTest::qWaitFor([&read] { return read.outcome.has_value(); }, 30000))
        return read;
    read.ms = t.elapsed();
    return read;
}

// The role's schema on its scratch database, opened directly (before a proxy stands in front).
bool migrated(const ConnectionProfile &p)
{
    auto c = Connection::open(p, QStringLiteral("migrate"));
    return c.ok() && Migrator::migrate(*c).ok();
}

} // namespace

class TstSilentServerRead : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        ServerSilenceWatch::setLimit(kLimit);
        // One pool thread: each read here runs on the thread that kept its connection (a new
        // thread would open a new link through the frozen proxy and wait for its connect
        // time-out instead).
        consoleTaskPool()->setMaxThreadCount(1);
    }

    void aSilentServerEndsTheReadAndTheNextReadWorks()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        auto scratch = Test::ScratchDatabases::create(Dialect::Postgres);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        ConnectionProfile orders = (*scratch)->orders();
        QVERIFY(migrated(orders));
        ONCEPAY_PROXY_IN_FRONT(proxy, orders)

        Read first = countOrders(orders);
        QVERIFY(first.outcome.has_value());
        QVERIFY2(first.outcome->ok(),
                 qPrintable(first.outcome->ok() ? QString() : first.outcome->error().message));
        QCOMPARE(first.outcome->value(), 0);
        QCOMPARE(proxy.accepted(), 1);

        proxy.freeze();
        Read silent = countOrders(orders);
        QVERIFY2(silent.outcome.has_value(), "a read on a silent server never came back");
        QVERIFY2(!silent.outcome->ok(), "a read through a silent proxy answered");
        QCOMPARE(silent.outcome->error().code, ErrorCode::Unavailable);
        QVERIFY2(silent.ms >= kLimit.count() && silent.ms < kLimit.count() + 3000,
                 qPrintable(QString::number(silent.ms)));
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);

        // The server answers again: the next read opens a new link and works.
        proxy.thaw();
        Read again = countOrders(orders);
        QVERIFY(again.outcome.has_value());
        QVERIFY2(again.outcome->ok(),
                 qPrintable(again.outcome->ok() ? QString() : again.outcome->error().message));
        QCOMPARE(again.outcome->value(), 0);
        QCOMPARE(proxy.accepted(), 2);
    }

    // An audit job (verification, export) whose audit server goes silent once the job has
    // opened its links ends as unavailable within the limit, and says which database — the
    // scope runAuditTask holds over the audit link (audittask.h). The orders link, left idle by
    // a long job, is direct here.
    void aSilentAuditServerEndsTheAuditJob()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        auto scratch = Test::ScratchDatabases::create(Dialect::Postgres);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        ConnectionProfile audit = (*scratch)->audit();
        const ConnectionProfile orders = (*scratch)->orders();
        QVERIFY(migrated(audit));
        QVERIFY(migrated(orders));
        ONCEPAY_PROXY_IN_FRONT(proxy, audit)

        QObject context;
        std::optional<Result<qint64>> outcome;
        AuditTaskDatabase which = AuditTaskDatabase::Audit;
        QElapsedTimer t;
        t.start();
        Test::TcpOutageProxy *link = &proxy;
        runAuditTask<qint64>(
            &context, audit, orders, QStringLiteral("verification"),
            [link](const Connection &a, const Connection &,
                   const AuditTaskProgress &) -> Result<qint64> {
                link->freeze(); // both links open: the audit server goes silent now
                auto v = Sql::scalar(a.db(), QStringLiteral("SELECT COUNT(*) FROM audit_log"));
                if (!v)
                    return v.error();
                return v->toLongLong();
            },
            [](qint64, qint64) {},
            [&](const Result<qint64> &r, AuditTaskDatabase failed) {
                outcome = r;
                which = failed;
            });
        // Unwatched, the statement waits for the proxy to thaw by itself after 20 s, and answers.
        QVERIFY2(QTest::qWaitFor([&] { return outcome.has_value(); }, 30000),
                 "an audit job on a silent server never came back");
        const qint64 ms = t.elapsed();
        QVERIFY2(!outcome->ok(), "an audit job through a silent proxy answered");
        QCOMPARE(outcome->error().code, ErrorCode::Unavailable);
        QCOMPARE(which, AuditTaskDatabase::None); // both opened: the error is the job's own
        QVERIFY2(ms >= kLimit.count() && ms < kLimit.count() + 3000,
                 qPrintable(QString::number(ms)));
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);
        proxy.thaw();
    }

    // The status bar's health check of a database whose server goes silent once the check's
    // link is open reports it down within the limit, instead of holding the check (and the
    // next ones, and the status bar's word on the database) until the server answers: the
    // scope HealthCheck::check holds over its link. The proxy freezes when the check sends its
    // first statement after opening (the schema identity's look at information_schema).
    void aSilentServerEndsTheHealthCheck()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        auto scratch = Test::ScratchDatabases::create(Dialect::Postgres);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        ConnectionProfile orders = (*scratch)->orders();
        QVERIFY(migrated(orders));
        ONCEPAY_PROXY_IN_FRONT(proxy, orders)
        QCOMPARE(HealthCheck::check(orders).health(), Health::Ok); // through the proxy, answering

        proxy.freezeWhenClientSends("information_schema.tables");
        QElapsedTimer t;
        t.start();
        const RoleStatus s = HealthCheck::check(orders);
        const qint64 ms = t.elapsed();
        // Unwatched, the check waits for the proxy to thaw by itself after 20 s, and reads Ok.
        QCOMPARE(s.health(), Health::Down);
        QVERIFY2(!s.loginRefused && !s.fileMissing && !s.wrongSchema, qPrintable(s.error));
        QVERIFY2(!s.error.isEmpty(), "down without a reason");
        QVERIFY2(ms >= kLimit.count() && ms < kLimit.count() + 3000,
                 qPrintable(QString::number(ms)));
        QCOMPARE(proxy.accepted(), 2);
        QCOMPARE(ServerSilenceWatch::watchedCount(), 0);
        proxy.thaw();
        QCOMPARE(HealthCheck::check(orders).health(), Health::Ok); // and up again: no restart
    }
};

QTEST_MAIN(TstSilentServerRead)
#include "tst_silent_server_read.moc"
