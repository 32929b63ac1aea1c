// Settings that only work in an order stay in it (Administration, DESIGN.md §4): the worker
// waits min(backoff_max_ms, backoff_base_ms * 2^n) before a retry, so a maximum below the base
// would make every retry wait only the maximum and turn a short outage into dead letters. Such
// a change is refused with the reason, audited, and nothing is stored — from either side; a
// stored setting that is no number is said in the log, not silently replaced. Two
// administrators changing the two sides at the same moment cannot leave the pair out of order
// between them: the second waits for the first and is refused against the first's value.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "lockwait.h"
#include "logcapture.h"
#include "settings/opssettings.h"
#include "settings/settingsservice.h"
#include "sqlitelockwatch.h"

#include <QDeadlineTimer>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// A clock that, once armed, holds the first thread to ask it the time until it is opened.
// SettingsService::set asks for the time after its order check and before it writes, so a
// change on this clock stands there, in its transaction, with what it read and locked.
class SettingsOrderGateClock final : public Clock {
public:
    qint64 nowMs() const override
    {
        if (armed.exchange(false)) {
            paused.store(true);
            while (!open.load())
                QThread::msleep(2);
        }
        return 1767225600000;
    }
    bool waitUntilPaused(int timeoutMs) const
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!paused.load() && !deadline.hasExpired())
            QThread::msleep(2);
        return paused.load();
    }
    mutable std::atomic<bool> armed{false};
    mutable std::atomic<bool> paused{false};
    std::atomic<bool> open{false};
};

struct SettingsOrderMeeting {
    Result<SettingRow> first = makeError(ErrorCode::Internal, QStringLiteral("did not run"));
    Result<SettingRow> second = makeError(ErrorCode::Internal, QStringLiteral("did not run"));
    bool firstPaused = false;
    bool secondWaited = false;
};

// Administrator A sets `firstKey` on a connection of its own and stops after its check, its
// transaction open; meanwhile administrator B sets `secondKey` on another connection. Whether
// B waited is what the database reports (PostgreSQL, MariaDB: a session waiting on a lock;
// SQLite: B's connection found the write lock), not a timing. Then A goes on and commits.
SettingsOrderMeeting settingsChangesMeet(const ConnectionProfile &profile, const Clock &clock,
                                         const char *firstKey, const char *firstValue,
                                         const char *secondKey, const char *secondValue)
{
    const Actor a{QStringLiteral("adm-a"), QStringLiteral("admin")};
    const Actor b{QStringLiteral("adm-b"), QStringLiteral("admin")};
    SettingsOrderMeeting m;
    SettingsOrderGateClock gate;
    gate.armed.store(true);
    SqliteLockWatch sqliteLock;
    std::unique_ptr<QThread> one(QThread::create([&] {
        auto c = Connection::open(profile, QStringLiteral("admin-a"));
        if (!c) {
            m.first = c.error();
            gate.paused.store(true);
            return;
        }
        m.first = SettingsService(*c, gate).set(firstKey, firstValue, "first", a);
    }));
    std::unique_ptr<QThread> two(QThread::create([&] {
        auto c = Connection::open(profile, QStringLiteral("admin-b"));
        if (!c) {
            m.second = c.error();
            return;
        }
        sqliteLock.watch(*c, 30000);
        m.second = SettingsService(*c, clock).set(secondKey, secondValue, "second", b);
    }));
    auto join = qScopeGuard([&] {
        gate.open.store(true);
        one->wait();
        two->wait();
    });
    one->start();
    m.firstPaused = gate.waitUntilPaused(20000);
    two->start();
    if (profile.dialect == Dialect::Sqlite) {
        m.secondWaited = sqliteLock.waitUntilMet(10000);
        qInfo("on SQLite the second change %s the database's write lock, held by the first's"
              " BEGIN IMMEDIATE; SQLite has no row locks, so the rows of the pair being locked"
              " (FOR UPDATE) is checked on PostgreSQL and MariaDB only",
              m.secondWaited ? "waited for" : "did not meet");
    } else {
        m.secondWaited = aSessionWaitsOnALock(profile, 10000);
    }
    return m;
}

} // namespace

class TstSettingsOrder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void backoffMaximumStaysAboveItsBase_data() { addEngineRows(); }
    void backoffMaximumStaysAboveItsBase()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettingsService settings(*f.orders, f.clock);
        const Actor admin{QStringLiteral("adm"), QStringLiteral("admin")};
        QVERIFY(StaffService(*f.orders, f.clock)
                    .add({"adm", "adm", StaffRole::Admin}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        auto value = [&](const char *key) {
            return OpsSettings::load(*f.orders)->integer(QLatin1String(key), -1);
        };
        auto refusals = [&] {
            return f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.refused'"
                           " AND reason LIKE '%may not be above%'");
        };

        // The maximum below the (default 5000 ms) base: refused, nothing stored.
        auto low = settings.set("worker.backoff_max_ms", "1000", "faster retries", admin);
        QVERIFY(!low.ok());
        QCOMPARE(low.error().code, ErrorCode::Invalid);
        QCOMPARE(low.error().reason, QStringLiteral("out_of_order"));
        QCOMPARE(low.error().message,
                 QStringLiteral("worker.backoff_base_ms (5000) may not be above"
                                " worker.backoff_max_ms (1000)"));
        QCOMPARE(value("worker.backoff_max_ms"), 3600000);
        QCOMPARE(refusals(), 1);

        // The base above the (stored) maximum: refused from that side too.
        QVERIFY(settings.set("worker.backoff_max_ms", "60000", "an hour is too long", admin).ok());
        auto high = settings.set("worker.backoff_base_ms", "120000", "slower first retry", admin);
        QVERIFY(!high.ok());
        QCOMPARE(high.error().message,
                 QStringLiteral("worker.backoff_base_ms (120000) may not be above"
                                " worker.backoff_max_ms (60000)"));
        QCOMPARE(value("worker.backoff_base_ms"), 5000);
        QCOMPARE(refusals(), 2);

        // Equal is in order; so is anything between.
        QVERIFY(settings.set("worker.backoff_base_ms", "60000", "flat back-off", admin).ok());
        QVERIFY(settings.set("worker.backoff_base_ms", "2000", "back to normal", admin).ok());
        QVERIFY(settings.set("worker.backoff_max_ms", "2000", "flat again", admin).ok());
        QCOMPARE(value("worker.backoff_max_ms"), 2000);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.changed'"), 4);
    }

    // A sets the base to 50000 under a maximum of 60000 while B sets the maximum to 10000 over
    // the base of 5000 (and the other way round): each is in order against the value before,
    // together they are not. B waits for A and is refused against A's value.
    void twoAdministratorsAtOnceKeepTheOrder_data() { addEngineRows(); }
    void twoAdministratorsAtOnceKeepTheOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        for (const char *name : {"adm-a", "adm-b"})
            QVERIFY(staff
                        .add({name, name, StaffRole::Admin}, "correct horse battery",
                             Actor::system("test"))
                        .ok());
        SettingsService settings(*f.orders, f.clock);
        const Actor admin{QStringLiteral("adm-a"), QStringLiteral("admin")};
        auto value = [&](const char *key) {
            return OpsSettings::load(*f.orders)->integer(QLatin1String(key), -1);
        };
        struct Side {
            const char *firstKey, *firstValue, *secondKey, *secondValue;
        };
        const Side sides[] = {
            {"worker.backoff_base_ms", "50000", "worker.backoff_max_ms", "10000"},
            {"worker.backoff_max_ms", "10000", "worker.backoff_base_ms", "50000"},
        };
        for (const Side &side : sides) {
            QVERIFY(settings.set("worker.backoff_base_ms", "5000", "start", admin).ok());
            QVERIFY(settings.set("worker.backoff_max_ms", "60000", "start", admin).ok());
            const auto m = settingsChangesMeet(f.config.orders, f.clock, side.firstKey,
                                               side.firstValue, side.secondKey, side.secondValue);
            const QString what = QStringLiteral("%1 then %2").arg(side.firstKey, side.secondKey);
            QVERIFY2(m.firstPaused, qPrintable(what));
            if (!m.first)
                QFAIL(qPrintable(what + u": " + m.first.error().toString()));
            const qint64 base = value("worker.backoff_base_ms");
            const qint64 max = value("worker.backoff_max_ms");
            QVERIFY2(base <= max, qPrintable(QStringLiteral("%1: both stored, base %2 above max %3")
                                                 .arg(what)
                                                 .arg(base)
                                                 .arg(max)));
            QCOMPARE(value(side.firstKey), QByteArray(side.firstValue).toLongLong());
            QVERIFY2(m.secondWaited, qPrintable(what + u": the second did not wait for the first"));
            QVERIFY2(!m.second.ok(), qPrintable(what + u": the second was stored"));
            QCOMPARE(m.second.error().reason, QStringLiteral("out_of_order"));
            QCOMPARE(m.second.error().message,
                     QStringLiteral("worker.backoff_base_ms (50000) may not be above"
                                    " worker.backoff_max_ms (10000)"));
        }
    }

    // The pair's rows deleted (the migrations seed them): the check holds against the defaults
    // and a refusal leaves the rows as they were — missing.
    void missingRowsAreCheckedAgainstTheDefaults_data() { addEngineRows(); }
    void missingRowsAreCheckedAgainstTheDefaults()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(StaffService(*f.orders, f.clock)
                    .add({"adm", "adm", StaffRole::Admin}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        SettingsService settings(*f.orders, f.clock);
        const Actor admin{QStringLiteral("adm"), QStringLiteral("admin")};
        const QString pairRows =
            QStringLiteral("SELECT COUNT(*) FROM ops_settings WHERE setting_key IN"
                           " ('worker.backoff_base_ms', 'worker.backoff_max_ms')");
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("DELETE FROM ops_settings WHERE setting_key IN"
                                         " ('worker.backoff_base_ms', 'worker.backoff_max_ms')"))
                    .ok());
        auto low = settings.set("worker.backoff_max_ms", "1000", "faster retries", admin);
        QVERIFY(!low.ok());
        QCOMPARE(low.error().reason, QStringLiteral("out_of_order"));
        QCOMPARE(f.count(pairRows), 0);
        QVERIFY(settings.set("worker.backoff_max_ms", "60000", "an hour is too long", admin).ok());
        auto listed = settings.list(admin);
        QVERIFY(listed.ok());
        for (const SettingRow &row : std::as_const(*listed))
            if (row.spec.key == u"worker.backoff_base_ms") {
                QCOMPARE(row.value, QStringLiteral("5000"));
                QCOMPARE(row.updatedBy, QStringLiteral("default"));
            }
        auto high = settings.set("worker.backoff_base_ms", "70000", "slower", admin);
        QVERIFY(!high.ok());
        QCOMPARE(high.error().reason, QStringLiteral("out_of_order"));
    }

    void aStoredSettingThatIsNoNumberIsLogged_data() { addEngineRows(); }
    void aStoredSettingThatIsNoNumberIsLogged()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE ops_settings SET setting_value = 'abc'"
                                         " WHERE setting_key = 'stuck.pending_seconds'"))
                    .ok());
        auto capture = std::make_unique<LogCapture>();
        auto s = OpsSettings::load(*f.orders);
        QVERIFY(s.ok());
        const qint64 v = s->integer(QStringLiteral("stuck.pending_seconds"), 300);
        const qint64 fine = s->integer(QStringLiteral("stuck.idempotency_pending_seconds"), 1);
        const QString log = capture->text();
        capture.reset();
        QCOMPARE(v, 300);
        QCOMPARE(fine, 600);
        QVERIFY2(log.contains(QStringLiteral("warning ops setting stuck.pending_seconds holds"
                                             " 'abc', which is no whole number; using 300")),
                 qPrintable(log));
        QCOMPARE(log.count(u'\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TstSettingsOrder)
#include "tst_settings_order.moc"
