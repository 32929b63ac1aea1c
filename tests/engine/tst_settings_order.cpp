// Settings that only work in an order stay in it (Administration, DESIGN.md §4): the worker
// waits min(backoff_max_ms, backoff_base_ms * 2^n) before a retry, so a maximum below the base
// would make every retry wait only the maximum and turn a short outage into dead letters. Such
// a change is refused with the reason, audited, and nothing is stored — from either side; a
// stored setting that is no number is said in the log, not silently replaced.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "settings/opssettings.h"
#include "settings/settingsservice.h"

#include <QTest>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

using namespace OncePay;
using namespace OncePay::Test;

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

    void aStoredSettingThatIsNoNumberIsLogged_data() { addEngineRows(); }
    void aStoredSettingThatIsNoNumberIsLogged()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral("UPDATE ops_settings SET setting_value = 'abc'"
                                         " WHERE setting_key = 'stuck.pending_seconds'"))
                    .ok());
        std::ostringstream captured;
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(captured);
        sink->set_pattern("%l %v");
        auto previous = spdlog::default_logger();
        spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink));
        auto s = OpsSettings::load(*f.orders);
        QVERIFY(s.ok());
        const qint64 v = s->integer(QStringLiteral("stuck.pending_seconds"), 300);
        const qint64 fine = s->integer(QStringLiteral("stuck.idempotency_pending_seconds"), 1);
        spdlog::set_default_logger(previous);
        QCOMPARE(v, 300);
        QCOMPARE(fine, 600);
        const QString log = QString::fromStdString(captured.str());
        QVERIFY2(log.contains(QStringLiteral("warning ops setting stuck.pending_seconds holds"
                                             " 'abc', which is no whole number; using 300")),
                 qPrintable(log));
        QCOMPARE(log.count(u'\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TstSettingsOrder)
#include "tst_settings_order.moc"
