// Changing staff accounts on every engine: a role change, a disable and an enable — their rules
// (the service's and the administration page's one rule, staffrules.h), a reason required, the last
// enabled administrator kept, two changes made at the same moment, a database failure logged,
// the administration page's offer — and the audit rows each leaves.

#include "admin/adminpage.h"
#include "auth/staffrules.h"
#include "auth/staffservice.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "fixes/adminmodels.h"
#include "lockwait.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QDeadlineTimer>
#include <QLabel>
#include <QMutex>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <sstream>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// Every column of every staff row: what a refused change must leave as it was.
QString staffRows(const Connection &c)
{
    auto q = Sql::exec(c.db(), "SELECT username, role, disabled, failed_attempts, locked_until,"
                               " updated_at, password_hash FROM staff ORDER BY username");
    if (!q)
        qFatal("staffRows: %s", qPrintable(q.error().message));
    QStringList rows;
    while (q->next()) {
        QStringList row;
        for (int i = 0; i < 7; ++i)
            row << q->value(i).toString();
        rows << row.join(u'|');
    }
    return rows.join(u'\n');
}

qint64 refusals(const Connection &c, const QString &step, const QString &reason)
{
    return count(c,
                 "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND after_json"
                 " LIKE ? AND after_json LIKE ?",
                 {QStringLiteral("%\"step\":\"%1\"%").arg(step),
                  QStringLiteral("%\"reason\":\"%1\"%").arg(reason)});
}

// `change` (`what`, for the messages) refused with `code` and `reason`: nothing in the staff
// table changed, no `changeAction` audited, one staff.refused row for `step`.
[[nodiscard]] bool refusedUnchanged(const Connection &c, const QString &what, const QString &step,
                                    const QString &changeAction, ErrorCode code,
                                    const QString &reason,
                                    const std::function<Result<StaffAccount>()> &change)
{
    const QString before = staffRows(c);
    const qint64 refused = refusals(c, step, reason);
    const QString changesSql =
        QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action = '%1'").arg(changeAction);
    const qint64 changes = count(c, changesSql);
    auto r = change();
    if (r) {
        qWarning("%s: changed", qPrintable(what));
        return false;
    }
    if (r.error().code != code || r.error().reason != reason) {
        qWarning("%s: %s (%s)", qPrintable(what), qPrintable(r.error().toString()),
                 qPrintable(r.error().reason));
        return false;
    }
    const bool same = staffRows(c) == before;
    const qint64 nowRefused = refusals(c, step, reason);
    const qint64 nowChanges = count(c, changesSql);
    if (!same || nowRefused != refused + 1 || nowChanges != changes) {
        qWarning("%s: rows unchanged %d, refusal rows %lld -> %lld, changes %lld -> %lld",
                 qPrintable(what), int(same), refused, nowRefused, changes, nowChanges);
        return false;
    }
    return true;
}

// setRole refused with `code` and `reason`, nothing changed, one staff.refused row for it.
[[nodiscard]] bool roleRefused(const StaffService &staff, const Connection &c,
                               const QString &username, const QString &role, const Actor &by,
                               ErrorCode code, const QString &reason)
{
    return refusedUnchanged(
        c, QStringLiteral("%1 -> %2 by %3").arg(username, role, by.id), QStringLiteral("set_role"),
        QStringLiteral("staff.role_changed"), code, reason,
        [&] { return staff.setRole(username, role, by, QStringLiteral("test")); });
}

// disable refused with `code` and `reason`, nothing changed, one staff.refused row for it.
[[nodiscard]] bool disableRefused(const StaffService &staff, const Connection &c,
                                  const QString &username, const Actor &by, ErrorCode code,
                                  const QString &reason)
{
    return refusedUnchanged(c, QStringLiteral("disable %1 by %2").arg(username, by.id),
                            QStringLiteral("disable"), QStringLiteral("staff.disabled"), code,
                            reason,
                            [&] { return staff.disable(username, by, QStringLiteral("test")); });
}

// enable refused with `code` and `reason`, nothing changed, one staff.refused row for it.
[[nodiscard]] bool enableRefused(const StaffService &staff, const Connection &c,
                                 const QString &username, const Actor &by, ErrorCode code,
                                 const QString &reason, const QString &why = QStringLiteral("test"))
{
    return refusedUnchanged(c, QStringLiteral("enable %1 by %2").arg(username, by.id),
                            QStringLiteral("enable"), QStringLiteral("staff.enabled"), code, reason,
                            [&] { return staff.enable(username, by, why); });
}

// Another console's change, not committed yet: it holds root-admin's row (as requireCurrent
// does for root-admin, by primary key) and runs `firstSql`. Meanwhile `second` runs on a connection
// of its own; it must wait for the first change's locks (`*waited`) and then see that change.
// Answers what `second` answered. On PostgreSQL and MariaDB `*waited` says the server
// reported the second session waiting on a lock while the first held its locks (not merely
// that the second had not finished by some time); SQLite reports no such thing, so there it
// says the second had begun and answered only after the first committed (its immediate
// transaction lets no other write begin). The second's thread is always joined before this
// returns, after the first change ended (committed, or rolled back on a failure).
Result<StaffAccount> whenTwoChangesMeet(
    const Connection &c, const ConnectionProfile &profile, const Clock &clock, const char *firstSql,
    const std::function<Result<StaffAccount>(const StaffService &)> &second, bool *waited)
{
    *waited = false;
    Transaction first(c.db(), Transaction::Mode::Immediate);
    if (auto r = first.begin(); !r)
        return r.error();
    if (c.dialect() != Dialect::Sqlite) {
        // By primary key, as requireCurrent locks it (lockStaffRow): the id read without a
        // lock first.
        const qint64 rootId = count(c, "SELECT id FROM staff WHERE username = 'root-admin'");
        if (auto r = Sql::exec(c.db(), "SELECT role FROM staff WHERE id = ? FOR UPDATE", {rootId});
            !r)
            return r.error();
    }
    if (auto r = Sql::update(c.db(), QString::fromLatin1(firstSql)); !r)
        return r.error();
    Result<StaffAccount> answer =
        makeError(ErrorCode::Internal, QStringLiteral("the second change did not run"));
    std::atomic<bool> begun = false;
    std::atomic<bool> firstEnded = false;
    std::atomic<bool> answeredAfterFirst = false;
    std::unique_ptr<QThread> other(QThread::create([&] {
        auto c2 = Connection::open(profile, QStringLiteral("second"));
        if (!c2) {
            answer = c2.error();
            return;
        }
        begun = true;
        answer = second(StaffService(*c2, clock));
        answeredAfterFirst = firstEnded.load();
    }));
    // Whatever happens below, the first change ends before the thread is joined (else the
    // second would wait for it for ever), and the thread is joined before anything it
    // refers to goes away.
    auto join = qScopeGuard([&] {
        if (first.active())
            first.rollback();
        firstEnded = true;
        other->wait();
    });
    other->start();
    if (c.dialect() == Dialect::Sqlite) {
        QDeadlineTimer deadline(20000);
        while (!begun && !other->isFinished() && !deadline.hasExpired())
            QThread::msleep(10);
        QThread::msleep(200); // a chance to reach the write lock; proven only by the order
    } else {
        *waited = aSessionWaitsOnALock(profile, 20000);
    }
    firstEnded = true;
    auto committed = first.commit();
    join.dismiss();
    if (first.active())
        first.rollback();
    other->wait();
    if (c.dialect() == Dialect::Sqlite)
        *waited = begun && answeredAfterFirst;
    if (!committed)
        return committed.error();
    return answer;
}

} // namespace

class TstStaffChanges : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The rule the service and the administration page share (staffrules.h), from plain
    // values: a reason given but blank, one's own account, the same role; nothing asked yet
    // (the page's offer) is judged on the account alone.
    void staffChangeRules()
    {
        const auto reason = [](const Result<void> &r) { return r ? QString() : r.error().reason; };
        const StaffChange amy{.by = "root-admin", .username = "amy", .role = StaffRole::Agent};
        QVERIFY(roleChangeFits(amy).ok());
        QVERIFY(disableFits(amy).ok());
        StaffChange own = amy;
        own.username = "root-admin";
        QCOMPARE(reason(roleChangeFits(own)), QStringLiteral("own_role"));
        QCOMPARE(reason(disableFits(own)), QStringLiteral("own_account"));
        QCOMPARE(roleChangeFits(own).error().code, ErrorCode::Conflict);

        StaffChange change = amy;
        change.newRole = StaffRole::Auditor;
        change.reason = QStringLiteral("audit team");
        QVERIFY(roleChangeFits(change).ok());
        change.newRole = StaffRole::Agent;
        QCOMPARE(reason(roleChangeFits(change)), QStringLiteral("same_role"));
        change.newRole = StaffRole::Auditor;
        for (const char *blank : {"", "   ", "\t\n"}) {
            change.reason = QString::fromLatin1(blank);
            QCOMPARE(reason(roleChangeFits(change)), QStringLiteral("reason_required"));
            QCOMPARE(roleChangeFits(change).error().code, ErrorCode::Invalid);
            StaffChange disable = amy;
            disable.reason = change.reason;
            QCOMPARE(reason(disableFits(disable)), QStringLiteral("reason_required"));
            QCOMPARE(reason(staffReasonGiven(*change.reason)), QStringLiteral("reason_required"));
        }
        StaffChange disable = amy;
        disable.reason = QStringLiteral("left");
        QVERIFY(disableFits(disable).ok());
        QVERIFY(staffReasonGiven(QStringLiteral("left")).ok());

        // A disabled account: not disabled again, but enabled; an enabled one not enabled.
        QCOMPARE(reason(enableFits(amy)), QStringLiteral("already_enabled"));
        QCOMPARE(enableFits(amy).error().code, ErrorCode::Conflict);
        QCOMPARE(enableFits(amy).error().message, QStringLiteral("amy is enabled already"));
        StaffChange off = amy;
        off.disabled = true;
        QCOMPARE(reason(disableFits(off)), QStringLiteral("already_disabled"));
        QCOMPARE(disableFits(off).error().code, ErrorCode::Conflict);
        QCOMPARE(disableFits(off).error().message, QStringLiteral("amy is disabled already"));
        QVERIFY(enableFits(off).ok());
        QVERIFY(roleChangeFits(off).ok()); // a disabled account's role may change
        off.reason = QStringLiteral("back from leave");
        QVERIFY(enableFits(off).ok());
        for (const char *blank : {"", "  "}) {
            off.reason = QString::fromLatin1(blank);
            QCOMPARE(reason(enableFits(off)), QStringLiteral("reason_required"));
            QCOMPARE(reason(disableFits(off)), QStringLiteral("reason_required"));
            StaffChange on = amy;
            on.reason = off.reason;
            QCOMPARE(reason(enableFits(on)), QStringLiteral("reason_required"));
        }
        // A blank reason is named first, whatever else is wrong.
        own.reason = QString();
        QCOMPARE(reason(roleChangeFits(own)), QStringLiteral("reason_required"));
        QCOMPARE(reason(disableFits(own)), QStringLiteral("reason_required"));
    }

    void changingARole_data() { addEngineRows(); }
    void changingARole()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        clock.advance(1000);
        auto promoted = staff.setRole("amy", "finance", kAdmin, "moved to the finance desk");
        QVERIFY2(promoted.ok(), qPrintable(promoted ? QString() : promoted.error().message));
        QCOMPARE(promoted->role, StaffRole::Finance);
        QCOMPARE(staff.find("amy")->role, StaffRole::Finance);
        QCOMPARE(staff.find("amy")->updatedAt, clock.nowMs());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"
                           " AND entity_kind = 'staff' AND entity_id = 'amy'"
                           " AND actor = 'root-admin' AND actor_role = 'admin'"
                           " AND before_json LIKE '%\"role\":\"agent\"%'"
                           " AND after_json LIKE '%\"role\":\"finance\"%'"
                           " AND reason = 'moved to the finance desk'"),
                 1);
        // The new role is the one she signs in with.
        QCOMPARE(staff.authenticate("amy", "amy-secret-pw", "test")->account.role,
                 StaffRole::Finance);

        // Refusals: each with its reason, nothing changed, each audited.
        QVERIFY(roleRefused(staff, *c, "amy", "finance", kAdmin, ErrorCode::Conflict, "same_role"));
        QVERIFY(roleRefused(staff, *c, "nobody", "agent", kAdmin, ErrorCode::NotFound,
                            "unknown_staff"));
        QVERIFY(roleRefused(staff, *c, "amy", "root", kAdmin, ErrorCode::Invalid, "unknown_role"));
        QVERIFY(roleRefused(staff, *c, "amy", "", system, ErrorCode::Invalid, "unknown_role"));
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        QVERIFY(roleRefused(staff, *c, "amy", "agent", fin, ErrorCode::Forbidden, "forbidden"));
        QVERIFY(roleRefused(staff, *c, "fin", "admin", fin, ErrorCode::Forbidden, "forbidden"));
        QVERIFY(roleRefused(staff, *c, "root-admin", "auditor", kAdmin, ErrorCode::Conflict,
                            "own_role"));
        // The only administrator keeps the role, whoever asks.
        QVERIFY(roleRefused(staff, *c, "root-admin", "agent", system, ErrorCode::Conflict,
                            "last_admin"));
        // A disabled administrator is not one who could take over.
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        QVERIFY(staff.disable("adm2", kAdmin, "on leave").ok());
        QVERIFY(roleRefused(staff, *c, "root-admin", "agent", system, ErrorCode::Conflict,
                            "last_admin"));
        // ...and may be demoted: the enabled administrators stay as they are.
        QVERIFY(staff.setRole("adm2", "auditor", kAdmin, "no longer an administrator").ok());
        // The refusal rows name who asked, the account and the role asked for (not a text
        // that is no role).
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND actor = 'fin' AND actor_role = 'finance' AND entity_id = 'amy'"
                           " AND after_json LIKE '%\"role\":\"agent\"%'"),
                 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"role\":\"(invalid)\"%'"),
                 2);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE after_json LIKE '%root\"%'"),
                 0);

        // A demoted administrator's rights end at once, as for a disable: with the Actor they
        // signed in with, their next change and the staff list are refused.
        QVERIFY(staff.add({"adm3", "", StaffRole::Admin}, "adm3-secret-pw", kAdmin).ok());
        const Actor adm3{QStringLiteral("adm3"), QStringLiteral("admin")};
        QVERIFY(staff.setRole("amy", "auditor", adm3, "audit team").ok());
        QVERIFY(staff.setRole("adm3", "agent", kAdmin, "back to the desk").ok());
        QVERIFY(roleRefused(staff, *c, "amy", "agent", adm3, ErrorCode::Forbidden, "role_changed"));
        QCOMPARE(staff.list(adm3).error().reason, QStringLiteral("role_changed"));
        QCOMPARE(staff.add({"x9", "", StaffRole::Agent}, "x9-secret-pw", adm3).error().reason,
                 QStringLiteral("role_changed"));

        // With another enabled administrator, one may be demoted; then the other is the last.
        QVERIFY(staff.setRole("adm3", "admin", system, "acting administrator").ok());
        QVERIFY(staff.setRole("root-admin", "agent", adm3, "handed over").ok());
        QVERIFY(
            roleRefused(staff, *c, "amy", "agent", kAdmin, ErrorCode::Forbidden, "role_changed"));
        QVERIFY(roleRefused(staff, *c, "adm3", "agent", system, ErrorCode::Conflict, "last_admin"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"),
                 6);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"set_role\"%'"),
                 12);
    }

    // A disable: never one's own account, never the last enabled administrator (a disabled
    // one does not count), whoever asks; each refusal changes nothing and is audited.
    void disablingAnAccount_data() { addEngineRows(); }
    void disablingAnAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());

        clock.advance(1000);
        auto disabled = staff.disable("amy", kAdmin, "left the company");
        QVERIFY2(disabled.ok(), qPrintable(disabled ? QString() : disabled.error().message));
        QVERIFY(disabled->disabled);
        QVERIFY(staff.find("amy")->disabled);
        QCOMPARE(staff.find("amy")->updatedAt, clock.nowMs());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND before_json LIKE '%\"disabled\":false%'"
                           " AND after_json LIKE '%\"disabled\":true%'"
                           " AND reason = 'left the company'"),
                 1);
        // Disabled already: refused with its own sentence, nothing written, audited.
        QVERIFY(disableRefused(staff, *c, "amy", kAdmin, ErrorCode::Conflict, "already_disabled"));
        QVERIFY(disableRefused(staff, *c, "amy", system, ErrorCode::Conflict, "already_disabled"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND after_json LIKE '%\"reason\":\"already_disabled\"%'"
                           " AND after_json LIKE '%\"code\":\"conflict\"%'"
                           " AND reason = 'amy is disabled already'"),
                 1);

        // Refusals: each with its reason, nothing changed, each audited.
        QVERIFY(
            disableRefused(staff, *c, "root-admin", kAdmin, ErrorCode::Conflict, "own_account"));
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));
        QVERIFY(disableRefused(staff, *c, "nobody", kAdmin, ErrorCode::NotFound, "unknown_staff"));
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        QVERIFY(disableRefused(staff, *c, "root-admin", fin, ErrorCode::Forbidden, "forbidden"));
        // A disabled administrator is not one who could take over.
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        QVERIFY(staff.disable("adm2", kAdmin, "on leave").ok());
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));
        // Nor is an administrator demoted.
        QVERIFY(staff.add({"adm3", "", StaffRole::Admin}, "adm3-secret-pw", kAdmin).ok());
        QVERIFY(staff.setRole("adm3", "auditor", kAdmin, "audit team").ok());
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));

        // With another enabled administrator, one may be disabled; then the other is the last,
        // and the one disabled may change nothing any more.
        QVERIFY(staff.setRole("adm3", "admin", system, "acting administrator").ok());
        const Actor adm3{QStringLiteral("adm3"), QStringLiteral("admin")};
        QVERIFY(staff.disable("root-admin", adm3, "handed over").ok());
        QVERIFY(disableRefused(staff, *c, "adm3", kAdmin, ErrorCode::Forbidden, "staff_disabled"));
        QVERIFY(disableRefused(staff, *c, "adm3", adm3, ErrorCode::Conflict, "own_account"));
        QVERIFY(disableRefused(staff, *c, "adm3", system, ErrorCode::Conflict, "last_admin"));
        QVERIFY(roleRefused(staff, *c, "adm3", "agent", system, ErrorCode::Conflict, "last_admin"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"), 3);
        // The refusal rows name who asked and the account; the last administrator's say so.
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"disable\"%'"),
                 11);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'adm3' AND actor = 'cli:test'"
                           " AND after_json LIKE '%\"reason\":\"last_admin\"%'"
                           " AND reason LIKE '%last enabled administrator%'"),
                 2);
    }

    // A role change and a disable are audited with a reason: an empty or blank one is
    // refused (Invalid reason_required) by the service itself, whoever asks (the CLI's
    // operator too), nothing changed and the refusal audited.
    void aChangeNeedsAReason_data() { addEngineRows(); }
    void aChangeNeedsAReason()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        for (const Actor &by : {kAdmin, system}) {
            for (const QString &blank : {QString(), QStringLiteral("  \t")}) {
                const QString what = QStringLiteral("by %1, reason '%2'").arg(by.id, blank);
                QVERIFY2(
                    refusedUnchanged(*c, what, "set_role", "staff.role_changed", ErrorCode::Invalid,
                                     "reason_required",
                                     [&] { return staff.setRole("amy", "finance", by, blank); }),
                    qPrintable(what));
                QVERIFY2(refusedUnchanged(*c, what, "disable", "staff.disabled", ErrorCode::Invalid,
                                          "reason_required",
                                          [&] { return staff.disable("amy", by, blank); }),
                         qPrintable(what));
            }
        }
        // The refusal row names the role asked for, like the other refusals of a role change.
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'amy' AND after_json LIKE '%\"role\":\"finance\"%'"
                           " AND after_json LIKE '%\"reason\":\"reason_required\"%'"),
                 4);
        // One refusal row whole (AuditOutbox::recordRefusal writes every service's refusal
        // rows; their form is what audit readers rely on).
        auto row = Sql::exec(c->db(), "SELECT actor, actor_role, entity_kind, entity_id,"
                                      " after_json, reason FROM audit_outbox WHERE action ="
                                      " 'staff.refused' ORDER BY id LIMIT 1");
        QVERIFY(row && row->next());
        QStringList fields;
        for (int i = 0; i < 6; ++i)
            fields << row->value(i).toString();
        QCOMPARE(fields.join(u'|'),
                 QStringLiteral("root-admin|admin|staff|amy|{\"code\":\"invalid\",\"reason\":"
                                "\"reason_required\",\"role\":\"finance\",\"step\":\"set_role\"}|"
                                "a reason is required"));
        QVERIFY(staff.setRole("amy", "finance", kAdmin, "finance desk").ok());
        QVERIFY(staff.disable("amy", kAdmin, "left").ok());
    }

    // A role change or a disable that a failing database ends leaves an error log line (and
    // no audit row: the database is away).
    void aDatabaseFailureIsLogged_data() { addEngineRows(); }
    void aDatabaseFailureIsLogged()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        const qint64 auditRows = count(*c, "SELECT COUNT(*) FROM audit_outbox");
        // The staff table gone: every read of it fails as a broken database's would.
        QVERIFY(Sql::exec(c->db(), "ALTER TABLE staff RENAME TO staff_away").ok());
        std::ostringstream log;
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
        sink->set_pattern("%l %v");
        spdlog::default_logger()->sinks().push_back(sink);
        auto restore = qScopeGuard([] { spdlog::default_logger()->sinks().pop_back(); });

        auto role = staff.setRole("amy", "finance", Actor::system("cli:test"), "finance desk");
        QVERIFY(!role.ok());
        QVERIFY2(
            role.error().code != ErrorCode::Forbidden && role.error().code != ErrorCode::Conflict &&
                role.error().code != ErrorCode::NotFound && role.error().code != ErrorCode::Invalid,
            qPrintable(role.error().toString()));
        auto disabled = staff.disable("amy", Actor::system("cli:test"), "left");
        QVERIFY(!disabled.ok());
        spdlog::default_logger()->flush();
        const QString logged = QString::fromStdString(log.str());
        QVERIFY2(logged.contains(u"error staff set_role of amy for cli:test (system) failed: ") &&
                     logged.contains(u"error staff disable of amy for cli:test (system) failed: "),
                 qPrintable(logged));
        QVERIFY(Sql::exec(c->db(), "ALTER TABLE staff_away RENAME TO staff").ok());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox"), auditRows);
    }

    // An administrator is demoted in a transaction that has not committed yet while the last
    // other one is being demoted: the second change must wait and then see the first, so one
    // enabled administrator is always left. Without its row locks the second change read the
    // administrators before the first committed and demoted the last one.
    void lastAdministratorHoldsWhenTwoChangesMeet_data() { addEngineRows(); }
    void lastAdministratorHoldsWhenTwoChangesMeet()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());

        bool waited = false;
        auto second = whenTwoChangesMeet(
            *c, dbs->orders(), clock, "UPDATE staff SET role = 'agent' WHERE username = 'adm2'",
            [](const StaffService &s) {
                return s.setRole("root-admin", "auditor", Actor::system(QStringLiteral("cli:test")),
                                 QStringLiteral("test"));
            },
            &waited);
        QVERIFY(waited); // waited for the first change's locks
        QVERIFY2(!second.ok(), "the last enabled administrator was demoted");
        QCOMPARE(second.error().reason, QStringLiteral("last_admin"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"), 1);
    }

    // The same for a disable: the other enabled administrator is disabled or demoted in a
    // transaction that has not committed yet while the last one is being disabled, or demoted
    // while it is being disabled. The second change waits, sees the first, and refuses.
    void lastAdministratorHoldsWhenADisableMeetsAnotherChange_data() { addEngineRows(); }
    void lastAdministratorHoldsWhenADisableMeetsAnotherChange()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        const Actor op = Actor::system(QStringLiteral("cli:test"));
        auto disableRoot = [op](const StaffService &s) {
            return s.disable("root-admin", op, QStringLiteral("test"));
        };
        auto demoteRoot = [op](const StaffService &s) {
            return s.setRole("root-admin", "agent", op, QStringLiteral("test"));
        };
        const struct {
            const char *first;
            std::function<Result<StaffAccount>(const StaffService &)> second;
        } meetings[] = {
            {"UPDATE staff SET disabled = 1 WHERE username = 'adm2'", disableRoot},
            {"UPDATE staff SET role = 'agent' WHERE username = 'adm2'", disableRoot},
            {"UPDATE staff SET disabled = 1 WHERE username = 'adm2'", demoteRoot},
        };
        for (const auto &m : meetings) {
            bool waited = false;
            auto second = whenTwoChangesMeet(*c, dbs->orders(), clock, m.first, m.second, &waited);
            QVERIFY2(waited, m.first);
            QVERIFY2(!second.ok(), m.first); // the last enabled administrator was not left
            QCOMPARE(second.error().reason, QStringLiteral("last_admin"));
            QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"),
                     1);
            QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE username = 'root-admin' AND"
                               " role = 'admin' AND disabled = 0"),
                     1);
            // adm2 an enabled administrator again for the next meeting.
            QVERIFY(Sql::update(c->db(), "UPDATE staff SET role = 'admin', disabled = 0"
                                         " WHERE username = 'adm2'")
                        .ok());
        }
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action IN ('staff.disabled',"
                           " 'staff.role_changed')"),
                 0);
    }

    // An enable: a disabled account may sign in again, with its failed sign-ins and lock
    // cleared; audited (staff.enabled, before and after, the reason). Refused, nothing changed
    // and audited: an account enabled already, an unknown one, no reason, someone who may not
    // manage staff (or an administrator disabled or demoted meanwhile).
    void enablingAnAccount_data() { addEngineRows(); }
    void enablingAnAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        // Enabled already: refused with its own sentence.
        QVERIFY(enableRefused(staff, *c, "amy", kAdmin, ErrorCode::Conflict, "already_enabled"));
        QVERIFY(staff.disable("amy", kAdmin, "on leave").ok());
        // While disabled, someone guessed her password until the account locked.
        const qint64 lockedUntil = clock.nowMs() + 3600000;
        QVERIFY(Sql::update(c->db(),
                            "UPDATE staff SET failed_attempts = 3, locked_until = ? WHERE"
                            " username = 'amy'",
                            {lockedUntil})
                    .ok());
        QCOMPARE(staff.authenticate("amy", "amy-secret-pw", "test")->refusal,
                 SignInRefusal::BadCredentials); // locked

        // Refusals: each with its reason, nothing changed, each audited.
        QVERIFY(enableRefused(staff, *c, "nobody", kAdmin, ErrorCode::NotFound, "unknown_staff"));
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        QVERIFY(enableRefused(staff, *c, "amy", fin, ErrorCode::Forbidden, "forbidden"));
        for (const Actor &by : {kAdmin, system})
            for (const QString &blank : {QString(), QStringLiteral(" \t")})
                QVERIFY2(enableRefused(staff, *c, "amy", by, ErrorCode::Invalid, "reason_required",
                                       blank),
                         qPrintable(by.id + " '" + blank + "'"));

        clock.advance(1000);
        auto enabled = staff.enable("amy", kAdmin, "back from leave");
        QVERIFY2(enabled.ok(), qPrintable(enabled ? QString() : enabled.error().message));
        QVERIFY(!enabled->disabled);
        QCOMPARE(enabled->failedAttempts, 0);
        QCOMPARE(enabled->lockedUntil, 0);
        QCOMPARE(enabled->updatedAt, clock.nowMs());
        const StaffAccount amy = *staff.find("amy");
        QVERIFY(!amy.disabled);
        QCOMPARE(amy.failedAttempts, 0);
        QCOMPARE(amy.lockedUntil, 0);
        QCOMPARE(amy.updatedAt, clock.nowMs());
        QCOMPARE(amy.role, StaffRole::Agent);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE username = 'amy' AND"
                           " locked_until IS NULL"),
                 1);
        QCOMPARE(count(*c,
                       "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"
                       " AND entity_kind = 'staff' AND entity_id = 'amy'"
                       " AND actor = 'root-admin' AND actor_role = 'admin'"
                       " AND before_json LIKE '%\"disabled\":true%'"
                       " AND before_json LIKE '%\"failed_attempts\":3%'"
                       " AND before_json LIKE ?"
                       " AND after_json LIKE '%\"disabled\":false%'"
                       " AND after_json LIKE '%\"failed_attempts\":0%'"
                       " AND after_json LIKE '%\"locked_until\":null%'"
                       " AND reason = 'back from leave'",
                       {QStringLiteral("%\"locked_until\":%1%").arg(lockedUntil)}),
                 1);
        // She signs in again, with her password and her role.
        auto in = staff.authenticate("amy", "amy-secret-pw", "test");
        QVERIFY(in.ok());
        QCOMPARE(in->refusal, SignInRefusal::None);
        QCOMPARE(in->account.role, StaffRole::Agent);
        // Now enabled: not enabled again.
        QVERIFY(enableRefused(staff, *c, "amy", kAdmin, ErrorCode::Conflict, "already_enabled"));
        QVERIFY(enableRefused(staff, *c, "amy", system, ErrorCode::Conflict, "already_enabled"));

        // An enable with nothing to clear says only what changed.
        QVERIFY(staff.disable("amy", system, "on leave again").ok());
        QVERIFY(staff.enable("amy", system, "back again").ok());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"
                           " AND actor = 'cli:test' AND actor_role = 'system'"
                           " AND before_json NOT LIKE '%failed_attempts%'"
                           " AND after_json NOT LIKE '%failed_attempts%'"
                           " AND reason = 'back again'"),
                 1);

        // A disabled administrator enabled again is one who counts: the other may then go.
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        QVERIFY(staff.disable("adm2", kAdmin, "on leave").ok());
        const Actor adm2{QStringLiteral("adm2"), QStringLiteral("admin")};
        // Disabled, adm2 may not enable anyone (itself included).
        QVERIFY(enableRefused(staff, *c, "adm2", adm2, ErrorCode::Forbidden, "staff_disabled"));
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));
        QVERIFY(staff.enable("adm2", kAdmin, "back").ok());
        QVERIFY(staff.disable("root-admin", adm2, "handed over").ok());
        // ...and root-admin, disabled, is refused in turn; adm2 may enable it again.
        QVERIFY(staff.add({"amy2", "", StaffRole::Agent}, "amy2-secret-pw", adm2).ok());
        QVERIFY(staff.disable("amy2", adm2, "test").ok());
        QVERIFY(enableRefused(staff, *c, "amy2", kAdmin, ErrorCode::Forbidden, "staff_disabled"));
        QVERIFY(staff.enable("root-admin", adm2, "back").ok());
        QVERIFY(staff.enable("amy2", kAdmin, "test").ok());

        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"), 5);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"enable\"%'"),
                 11);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND after_json LIKE '%\"reason\":\"already_enabled\"%'"
                           " AND reason = 'amy is enabled already'"),
                 2);
    }

    // An enable and a disable of the same account meet: the first, not committed yet, holds
    // the rows a staff change locks first (root-admin's, as requireCurrent and
    // lockEnabledAdmins take it) and has changed the account; the second waits, then sees the
    // first and acts on the account as it left it: a disable after an enable goes through, a
    // second disable (or enable) is refused with its own sentence. The account and its audit
    // rows then agree.
    void enableAndDisableMeet_data() { addEngineRows(); }
    void enableAndDisableMeet()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        const Actor op = Actor::system(QStringLiteral("cli:test"));
        auto enableAmy = [op](const StaffService &s) {
            return s.enable("amy", op, QStringLiteral("test"));
        };
        auto disableAmy = [op](const StaffService &s) {
            return s.disable("amy", op, QStringLiteral("test"));
        };
        const struct {
            bool disabledBefore;
            const char *first;
            std::function<Result<StaffAccount>(const StaffService &)> second;
            const char *refusal; // the second's, or none
            bool disabledAfter;
        } meetings[] = {
            {false, "UPDATE staff SET disabled = 1 WHERE username = 'amy'", enableAmy, nullptr,
             false},
            {true, "UPDATE staff SET disabled = 0 WHERE username = 'amy'", disableAmy, nullptr,
             true},
            {false, "UPDATE staff SET disabled = 1 WHERE username = 'amy'", disableAmy,
             "already_disabled", true},
            {true, "UPDATE staff SET disabled = 0 WHERE username = 'amy'", enableAmy,
             "already_enabled", false},
        };
        for (const auto &m : meetings) {
            QVERIFY(Sql::update(c->db(), "UPDATE staff SET disabled = ? WHERE username = 'amy'",
                                {m.disabledBefore ? 1 : 0})
                        .ok());
            const qint64 changes = count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                                             " ('staff.enabled', 'staff.disabled')");
            bool waited = false;
            auto second = whenTwoChangesMeet(*c, dbs->orders(), clock, m.first, m.second, &waited);
            QVERIFY2(waited, m.first);
            if (m.refusal) {
                QVERIFY2(!second.ok(), m.first);
                QCOMPARE(second.error().reason, QString::fromLatin1(m.refusal));
            } else {
                QVERIFY2(second.ok(), qPrintable(second ? QString() : second.error().toString()));
                QCOMPARE(second->disabled, m.disabledAfter);
            }
            QCOMPARE(staff.find("amy")->disabled, m.disabledAfter);
            QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                               " ('staff.enabled', 'staff.disabled')"),
                     changes + (m.refusal ? 0 : 1));
        }

        // Then free-running: one console disables amy over and over while another enables her.
        // Every call is done or refused as enabled/disabled already (no deadlock, no other
        // error), and the audit rows alternate in the order they committed, the last one
        // saying how she is now.
        const int rounds = 15;
        std::atomic<int> go = 0;
        QStringList failures;
        QMutex mutex;
        auto console = [&](bool disabling) {
            return QThread::create([&, disabling] {
                auto c2 = Connection::open(dbs->orders(), disabling ? QStringLiteral("disabler")
                                                                    : QStringLiteral("enabler"));
                if (!c2) {
                    QMutexLocker lock(&mutex);
                    failures << c2.error().toString();
                    return;
                }
                StaffService s(*c2, clock);
                ++go;
                while (go.load() < 2)
                    QThread::yieldCurrentThread();
                for (int i = 0; i < rounds; ++i) {
                    auto r = disabling ? s.disable("amy", op, QStringLiteral("race"))
                                       : s.enable("amy", op, QStringLiteral("race"));
                    if (!r && r.error().reason != (disabling ? QStringLiteral("already_disabled")
                                                             : QStringLiteral("already_enabled"))) {
                        QMutexLocker lock(&mutex);
                        failures << r.error().toString() + u' ' + r.error().reason;
                    }
                }
            });
        };
        std::unique_ptr<QThread> disabler(console(true)), enabler(console(false));
        disabler->start();
        enabler->start();
        QVERIFY(disabler->wait(120000));
        QVERIFY(enabler->wait(120000));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
        auto q = Sql::exec(c->db(), "SELECT action, before_json, after_json FROM audit_outbox"
                                    " WHERE action IN ('staff.enabled', 'staff.disabled')"
                                    " AND reason = 'race' ORDER BY id");
        QVERIFY(q.ok());
        QString last;
        int rows = 0;
        while (q->next()) {
            const QString action = q->value(0).toString();
            QVERIFY2(action != last, qPrintable(QStringLiteral("%1 twice in a row").arg(action)));
            const bool disabling = action == u"staff.disabled";
            QVERIFY(q->value(1).toString().contains(disabling ? u"\"disabled\":false"
                                                              : u"\"disabled\":true"));
            QVERIFY(q->value(2).toString().contains(disabling ? u"\"disabled\":true"
                                                              : u"\"disabled\":false"));
            last = action;
            ++rows;
        }
        QVERIFY2(rows >= 1, "no change went through");
        QCOMPARE(staff.find("amy")->disabled, last == u"staff.disabled");
    }

    // The administration page offers a role change to administrators, for a selected account
    // other than their own, and makes it through the service off the GUI thread; a refusal
    // reads as the error line says it.
    void adminPageChangesARole_data() { addEngineRows(); }
    void adminPageChangesARole()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(QDateTime::currentMSecsSinceEpoch());
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());

        AdminPage page(dbs->orders(), kAdmin);
        QSignalSpy loaded(&page, &AdminPage::loaded);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QVERIFY(page.roleButton()->isVisibleTo(&page));
        QVERIFY(!page.roleButton()->isEnabled()); // nothing selected
        auto select = [&](const QString &username) {
            for (int row = 0; row < page.staff()->rowCount(); ++row)
                if (page.staff()->rowAt(row).username == username)
                    page.staffTable()->setCurrentIndex(page.staff()->index(row, 0));
        };
        QVERIFY(!page.disableButton()->isEnabled());
        select("root-admin");
        QVERIFY(!page.roleButton()->isEnabled()); // never one's own
        QVERIFY(!page.disableButton()->isEnabled());
        QVERIFY2(page.disableButton()->toolTip().contains(u"own account"),
                 qPrintable(page.disableButton()->toolTip()));
        QVERIFY2(page.roleButton()->toolTip().contains(u"own role"),
                 qPrintable(page.roleButton()->toolTip()));
        select("amy");
        QVERIFY(page.roleButton()->isEnabled());
        QVERIFY(page.disableButton()->isEnabled());
        QVERIFY(page.disableButton()->toolTip().isEmpty());

        QSignalSpy changed(&page, &AdminPage::changed);
        page.setStaffRole("amy", "auditor", "audit team");
        QVERIFY(changed.wait(20000));
        QCOMPARE(changed.first().first().toBool(), true);
        QCOMPARE(staff.find("amy")->role, StaffRole::Auditor);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND reason = 'audit team'"),
                 1);

        // A refusal: the error line's sentence, the service's words as its tooltip.
        page.setStaffRole("root-admin", "agent", "trying");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).first().toBool(), false);
        const QString text = changed.at(1).at(1).toString();
        QVERIFY2(text.contains(u"The request was refused:") &&
                     text.contains(u"may not change their own role"),
                 qPrintable(text));
        QVERIFY2(page.summary()->toolTip().contains(u"own role"),
                 qPrintable(page.summary()->toolTip()));
        QCOMPARE(staff.find("root-admin")->role, StaffRole::Admin);

        // Disabling one's own account is refused by the service as well, read the same way.
        page.disableStaff("root-admin", "trying");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, 20000);
        QCOMPARE(changed.at(2).first().toBool(), false);
        const QString disableText = changed.at(2).at(1).toString();
        QVERIFY2(disableText.startsWith(u"Not disabled: The request was refused:") &&
                     disableText.contains(u"may not disable their own account"),
                 qPrintable(disableText));
        QVERIFY(!staff.find("root-admin")->disabled);

        // Every refusal of a change reads as the service's own sentence, an unknown account, a
        // missing reason and a refusal of rights too (not "Nothing was found." or "Your role
        // may not see this.").
        page.setStaffRole("nobody", "agent", "trying");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 4, 20000);
        QCOMPARE(changed.at(3).at(1).toString(),
                 QStringLiteral("Role not changed: The request was refused: there is no staff"
                                " account nobody"));
        page.disableStaff("amy", " ");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 5, 20000);
        QCOMPARE(changed.at(4).at(1).toString(),
                 QStringLiteral("Not disabled: The request was refused: a reason is required"));
        QVERIFY(!staff.find("amy")->disabled);
        AdminPage auditorPage(dbs->orders(), {QStringLiteral("amy"), QStringLiteral("auditor")});
        QSignalSpy refused(&auditorPage, &AdminPage::changed);
        auditorPage.disableStaff("root-admin", "trying");
        QVERIFY(refused.wait(20000));
        const QString forbidden = refused.first().at(1).toString();
        QVERIFY2(forbidden.startsWith(u"Not disabled: The request was refused: amy (auditor) may"
                                      u" not ") &&
                     !forbidden.contains(u"Your role may not see this"),
                 qPrintable(forbidden));

        // A disabled account: Disable is off with the rule's sentence, Enable on; enabled
        // again, the other way round.
        QVERIFY(staff.disable("amy", kAdmin, "on leave").ok());
        page.refresh();
        QVERIFY(loaded.wait(20000));
        select("amy");
        QVERIFY(!page.disableButton()->isEnabled());
        QCOMPARE(page.disableButton()->toolTip(), QStringLiteral("amy is disabled already"));
        QVERIFY(page.enableButton()->isEnabled());
        QVERIFY(page.enableButton()->toolTip().isEmpty());
        page.disableStaff("amy", "again");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 6, 20000);
        QCOMPARE(changed.at(5).at(1).toString(),
                 QStringLiteral("Not disabled: The request was refused: amy is disabled already"));
        page.enableStaff("amy", "back from leave");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 7, 20000);
        QCOMPARE(changed.at(6).at(1).toString(), QStringLiteral("Account amy enabled."));
        QVERIFY(!staff.find("amy")->disabled);
        // The page loads its list again after the report: amy shown enabled.
        const auto shownDisabled = [&] {
            for (int row = 0; row < page.staff()->rowCount(); ++row)
                if (page.staff()->rowAt(row).username == u"amy")
                    return page.staff()->rowAt(row).disabled;
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(!shownDisabled(), 20000);
        select("amy");
        QVERIFY(page.disableButton()->isEnabled());
        QVERIFY(!page.enableButton()->isEnabled());
        QCOMPARE(page.enableButton()->toolTip(), QStringLiteral("amy is enabled already"));

        // Not offered to anyone who may not manage staff.
        AdminPage notAdmin(dbs->orders(), {QStringLiteral("amy"), QStringLiteral("auditor")});
        QVERIFY(!notAdmin.roleButton()->isVisibleTo(&notAdmin));
    }
};

QTEST_MAIN(TstStaffChanges)
#include "tst_staff_changes.moc"
