#pragma once

// What the staff tests share (tst_auth: sign-in and rights; tst_staff_changes: role changes;
// tst_staff_enable_disable: disables and enables; tst_admin_*dialogs: the administration page's
// dialogs): the administrator they act as, its account, an ops setting set straight in the
// database, a count, the staff rows as they are, a change refused with nothing changed, and two
// changes made at the same moment.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "lockwait.h"
#include "sqlitelockwatch.h"

#include <QDeadlineTimer>
#include <QScopeGuard>
#include <QSqlRecord>
#include <QStringList>
#include <QThread>
#include <QtGlobal>

#include <atomic>
#include <functional>
#include <memory>

namespace OncePay::Test {

// Sets one ops setting straight in the database (what an administrator would set).
[[nodiscard]] inline bool setSetting(const Connection &c, const char *key, const char *value)
{
    return Sql::update(c.db(), "UPDATE ops_settings SET setting_value = ? WHERE setting_key = ?",
                       {QString::fromLatin1(value), QString::fromLatin1(key)})
        .ok();
}

// The administrator the tests act as; addRootAdmin() gives it its account (a staff actor's
// rights are read from its account at every change).
inline const Actor kAdmin{QStringLiteral("root-admin"), QStringLiteral("admin")};

[[nodiscard]] inline bool addRootAdmin(const StaffService &staff)
{
    auto a = staff.add({kAdmin.id, QString(), StaffRole::Admin}, "root-admin-secret",
                       Actor::system(QStringLiteral("cli:test")));
    if (!a)
        qWarning("root-admin: %s", qPrintable(a.error().message));
    return a.ok();
}

inline qint64 count(const Connection &c, const QString &sql, const QVariantList &binds = {})
{
    auto v = Sql::scalar(c.db(), sql, binds);
    if (!v)
        qFatal("count: %s", qPrintable(v.error().message));
    return v->toLongLong();
}

// Every column of every row `sql` reads, one line a row.
inline QString rows(const Connection &c, const char *sql)
{
    auto q = Sql::exec(c.db(), QString::fromLatin1(sql));
    if (!q)
        qFatal("rows: %s", qPrintable(q.error().message));
    QStringList lines;
    const int columns = q->record().count();
    while (q->next()) {
        QStringList row;
        for (int i = 0; i < columns; ++i)
            row << q->value(i).toString();
        lines << row.join(u'|');
    }
    return lines.join(u'\n');
}

// Every column of every staff row: what a refused change must leave as it was.
inline QString staffRows(const Connection &c)
{
    return rows(c, "SELECT username, display_name, role, disabled, failed_attempts, locked_until,"
                   " updated_at, password_hash FROM staff ORDER BY username");
}

inline qint64 refusals(const Connection &c, const QString &step, const QString &reason)
{
    return count(c,
                 "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND after_json"
                 " LIKE ? AND after_json LIKE ?",
                 {QStringLiteral("%\"step\":\"%1\"%").arg(step),
                  QStringLiteral("%\"reason\":\"%1\"%").arg(reason)});
}

// `change` (`what`, for the messages) refused with `code` and `reason`: nothing in the staff
// table changed, no `changeAction` audited, one staff.refused row for `step`.
[[nodiscard]] inline bool refusedUnchanged(const Connection &c, const QString &what,
                                           const QString &step, const QString &changeAction,
                                           ErrorCode code, const QString &reason,
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
[[nodiscard]] inline bool roleRefused(const StaffService &staff, const Connection &c,
                                      const QString &username, const QString &role, const Actor &by,
                                      ErrorCode code, const QString &reason)
{
    return refusedUnchanged(
        c, QStringLiteral("%1 -> %2 by %3").arg(username, role, by.id), QStringLiteral("set_role"),
        QStringLiteral("staff.role_changed"), code, reason,
        [&] { return staff.setRole(username, role, by, QStringLiteral("test")); });
}

// disable refused with `code` and `reason`, nothing changed, one staff.refused row for it.
[[nodiscard]] inline bool disableRefused(const StaffService &staff, const Connection &c,
                                         const QString &username, const Actor &by, ErrorCode code,
                                         const QString &reason)
{
    return refusedUnchanged(c, QStringLiteral("disable %1 by %2").arg(username, by.id),
                            QStringLiteral("disable"), QStringLiteral("staff.disabled"), code,
                            reason,
                            [&] { return staff.disable(username, by, QStringLiteral("test")); });
}

// enable refused with `code` and `reason`, nothing changed, one staff.refused row for it.
[[nodiscard]] inline bool enableRefused(const StaffService &staff, const Connection &c,
                                        const QString &username, const Actor &by, ErrorCode code,
                                        const QString &reason,
                                        const QString &why = QStringLiteral("test"))
{
    return refusedUnchanged(c, QStringLiteral("enable %1 by %2").arg(username, by.id),
                            QStringLiteral("enable"), QStringLiteral("staff.enabled"), code, reason,
                            [&] { return staff.enable(username, by, why); });
}

// Another console's change, not committed yet: it holds root-admin's row (as requireCurrent
// does for root-admin, by primary key) and runs `firstSql`. Meanwhile `second` runs on a connection
// of its own; it must wait for the first change's locks (`*waited`) and then see that change.
// Answers what `second` answered. `*waited` says the database reported the second waiting on a
// lock while the first held its locks (not merely that the second had not finished by some
// time): on PostgreSQL and MariaDB the server reports the session waiting on a lock (the row
// locks the service takes, in its order); on SQLite, which has no row locks, SQLite called the
// second connection's busy handler — it found the database's write lock, held by the first
// change's immediate transaction. Every staff change begins an immediate transaction, so there
// it holds whatever order the service locks rows in; that order is checked on PostgreSQL and
// MariaDB only (a line in the test's output says so). The second's thread is always joined
// before this returns, after the first change ended (committed, or rolled back on a failure).
inline Result<StaffAccount> whenTwoChangesMeet(
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
    SqliteLockWatch sqliteLock; // SQLite: whether the second found the write lock
    std::unique_ptr<QThread> other(QThread::create([&] {
        auto c2 = Connection::open(profile, QStringLiteral("second"));
        if (!c2) {
            answer = c2.error();
            return;
        }
        sqliteLock.watch(*c2);
        answer = second(StaffService(*c2, clock));
    }));
    // Whatever happens below, the first change ends before the thread is joined (else the
    // second would wait for it for ever), and the thread is joined before anything it
    // refers to goes away.
    auto join = qScopeGuard([&] {
        if (first.active())
            first.rollback();
        other->wait();
    });
    other->start();
    if (c.dialect() == Dialect::Sqlite) {
        *waited = sqliteLock.waitUntilMet(20000);
        qInfo("whenTwoChangesMeet on SQLite: the second change %s the database's write lock (the "
              "first's immediate transaction); SQLite has no row locks, so the order the service "
              "locks rows in is checked on PostgreSQL and MariaDB only",
              *waited ? "waited for" : "did not meet");
    } else {
        *waited = aSessionWaitsOnALock(profile, 20000);
    }
    auto committed = first.commit();
    join.dismiss();
    if (first.active())
        first.rollback();
    other->wait();
    if (!committed)
        return committed.error();
    return answer;
}

} // namespace OncePay::Test
