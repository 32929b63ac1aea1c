// Starting and stopping reconciliation runs on SQLite, PostgreSQL and MariaDB: every
// refusal to start a run audited, with nothing else written; a run that finds nothing still
// recorded; a cancelled run keeps nothing it found.

#include "auth/staffservice.h"
#include "desk/reconciliationdesk.h"
#include "reconcilescenario.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

namespace {

// What a run writes, and every audit row but a refusal's: a refusal must leave it as it was.
QList<qint64> footprint(const EngineFixture &f)
{
    QList<qint64> out;
    for (const char *sql :
         {"SELECT COUNT(*) FROM reconciliation_runs", "SELECT COUNT(*) FROM discrepancies",
          "SELECT COUNT(*) FROM settlement_matches", "SELECT COUNT(*) FROM ledger_entries",
          "SELECT COUNT(*) FROM audit_outbox WHERE action <> 'reconciliation.refused'"})
        out << f.count(QString::fromLatin1(sql));
    return out;
}

// The newest reconciliation.refused audit row: its actor, role, reason and after_json fields.
QJsonObject lastRefusal(const EngineFixture &f)
{
    auto q = Sql::exec(f.orders->db(),
                       QStringLiteral("SELECT actor, actor_role, entity_kind, reason, after_json"
                                      " FROM audit_outbox WHERE action = 'reconciliation.refused'"
                                      " ORDER BY id DESC"));
    if (!q || !q->next())
        return {};
    QJsonObject o = QJsonDocument::fromJson(q->value(4).toString().toUtf8()).object();
    o.insert(QStringLiteral("actor"), q->value(0).toString());
    o.insert(QStringLiteral("actor_role"), q->value(1).toString());
    o.insert(QStringLiteral("entity_kind"), q->value(2).toString());
    o.insert(QStringLiteral("message"), q->value(3).toString());
    return o;
}

} // namespace

class TstReconcileRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every refusal to start a run — a period that ends before it starts, an ops setting that
    // is no number, and from the console a person who may not start one (by role, with no
    // account, disabled) — answers with the error, writes one reconciliation.refused audit
    // row naming the step and the cause, and nothing else. A run that may start then does.
    void refusalsToStartAreAuditedAndChangeNothing_data() { addEngineRows(); }
    void refusalsToStartAreAuditedAndChangeNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        s.paid("o-1", 10000, "pi_1");
        s.importStatement({line("pi_1", 10000, 320, kT0 + kDay)}, "refusals.csv");
        StaffService staff(*f.orders, f.clock);
        const Actor op = Actor::system(QStringLiteral("test"));
        for (const auto &[name, role] : QList<std::pair<QString, StaffRole>>{
                 {"amy", StaffRole::Agent}, {"fin", StaffRole::Finance}})
            QVERIFY(staff.add({name, name, role}, "correct horse battery", op).ok());
        f.clock.set(kT0 + 3 * kDay);
        QList<qint64> before = footprint(f);
        const qint64 runsBefore = before.first();
        qint64 refusals = 0;
        auto refused = [&](const Result<ReconcileReport> &r, ErrorCode code, const char *reason,
                           const char *step, const Actor &by) {
            QVERIFY(!r.ok());
            QCOMPARE(r.error().code, code);
            QCOMPARE(r.error().reason, QLatin1String(reason));
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE"
                             " action = 'reconciliation.refused'"),
                     ++refusals);
            const QJsonObject row = lastRefusal(f);
            QCOMPARE(row.value("step").toString(), QLatin1String(step));
            QCOMPARE(row.value("reason").toString(), QLatin1String(reason));
            QCOMPARE(row.value("code").toString(), errorCodeName(code));
            QCOMPARE(row.value("actor").toString(), by.id);
            QCOMPARE(row.value("actor_role").toString(), by.role);
            QCOMPARE(row.value("entity_kind").toString(), QStringLiteral("reconciliation_run"));
            QCOMPARE(row.value("message").toString(), r.error().message);
            QCOMPARE(footprint(f), before);
        };

        ReconcileOptions inverted;
        inverted.fromMs = kT0 + 2 * kDay;
        inverted.toMs = kT0 + kDay;
        refused(Reconciler(*f.orders, f.clock, kFinance).run(inverted), ErrorCode::Invalid,
                "bad_period", "period", kFinance);
        QCOMPARE(lastRefusal(f).value("period_from").toString(), QString::number(inverted.fromMs));
        QCOMPARE(lastRefusal(f).value("period_to").toString(), QString::number(inverted.toMs));

        const QString skew = QStringLiteral("reconcile.capture_skew_minutes");
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE ops_settings SET setting_value = 'soon' WHERE setting_key = ?",
                          {skew})
                    .ok());
        refused(Reconciler(*f.orders, f.clock, kFinance).run({}), ErrorCode::Invalid, "bad_setting",
                "settings", kFinance);
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE ops_settings SET setting_value = '360' WHERE setting_key = ?",
                          {skew})
                    .ok());

        const ReconciliationDesk desk(*f.orders, f.clock);
        const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        const Actor ghost{QStringLiteral("ghost"), QStringLiteral("finance")};
        refused(desk.reconcile({}, amy), ErrorCode::Forbidden, "forbidden", "rights", amy);
        refused(desk.reconcile({}, ghost), ErrorCode::Forbidden, "unknown_staff", "rights", ghost);
        refused(desk.reconcile(inverted, amy), ErrorCode::Forbidden, "forbidden", "rights", amy);
        QVERIFY(staff.disable("fin", op, "left").ok());
        before = footprint(f); // with the disable's own audit row
        refused(desk.reconcile({}, fin), ErrorCode::Forbidden, "staff_disabled", "rights", fin);
        refused(desk.reconcile(inverted, fin), ErrorCode::Forbidden, "staff_disabled", "rights",
                fin);
        QVERIFY(
            Sql::exec(f.orders->db(), "UPDATE staff SET disabled = 0 WHERE username = 'fin'").ok());
        refused(desk.reconcile(inverted, fin), ErrorCode::Invalid, "bad_period", "period", fin);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs"), runsBefore);

        // Allowed, and a good period: the run starts, runs and is recorded as usual.
        auto ran = desk.reconcile({}, fin);
        QVERIFY2(ran.ok(), ran.ok() ? "" : qPrintable(ran.error().message));
        QCOMPARE(ran->markedSettled, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.run'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE"
                         " action = 'reconciliation.refused'"),
                 refusals);
    }

    void nothingFoundIsStillRecordedAndCancelWritesNothing_data() { addEngineRows(); }
    void nothingFoundIsStillRecordedAndCancelWritesNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Scenario s(f);
        const ReconcileReport empty = s.reconcile();
        QCOMPARE(empty.eligible, 0);
        QCOMPARE(empty.coveragePpm, 1000000);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.run'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs WHERE status = 'finished'"), 1);

        s.paid("o-1", 10000, "pi_1");
        f.clock.set(kT0 + 3 * kDay);
        qint64 calls = 0;
        const ReconcileReport cancelled = s.reconcile([&](qint64, qint64) { return ++calls < 1; });
        QCOMPARE(cancelled.status, QStringLiteral("cancelled"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM discrepancies"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs WHERE status = 'cancelled'"), 1);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'reconciliation.cancelled'"),
            1);
    }
};

QTEST_GUILESS_MAIN(TstReconcileRuns)
#include "tst_reconcile_runs.moc"
