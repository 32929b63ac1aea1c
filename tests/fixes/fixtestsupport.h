#pragma once

// What the fix tests share (tst_fixes, tst_fix_offers, tst_fix_lease_skew, tst_fix_console,
// tst_fix_console_offers): the staff desk (or the console's three), the actors, a proposal,
// targets for the rule, a message claimed by a worker, an ops setting written as a person with
// database access might.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
#include "fixes/fixsettings.h"
#include "investigation/stuckquery.h"

#include <QDateTime>
#include <QTest>

namespace OncePay::Test::FixSupport {

inline const QString kOrigin = QStringLiteral("test@localhost");

struct Desk {
    explicit Desk(EngineFixture &f)
        : fixes(*f.orders, f.clock)
    {
        StaffService staff(*f.orders, f.clock);
        const QList<QPair<QString, StaffRole>> people = {
            {"amy", StaffRole::Agent},   {"fay", StaffRole::Finance}, {"fin", StaffRole::Finance},
            {"fox", StaffRole::Finance}, {"aud", StaffRole::Auditor}, {"adm", StaffRole::Admin}};
        for (const auto &[name, role] : people) {
            auto a = staff.add({name, name, role}, QStringLiteral("correct horse battery"),
                               Actor::system(QStringLiteral("test")));
            if (!a)
                qFatal("staff: %s", qPrintable(a.error().message));
        }
    }
    static Actor as(const QString &name, const QString &role) { return {name, role}; }
    FixService fixes;
};

// The staff the console tests sign in as: amy (agent), fin (finance) and adm (admin).
inline void addStaff(EngineFixture &f)
{
    StaffService staff(*f.orders, f.clock);
    for (const auto &[name, role] : QList<QPair<QString, StaffRole>>{
             {"amy", StaffRole::Agent}, {"fin", StaffRole::Finance}, {"adm", StaffRole::Admin}})
        QVERIFY(staff.add({name, name, role}, "correct horse battery", Actor::system("test")).ok());
}

inline const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
inline const Actor fay{QStringLiteral("fay"), QStringLiteral("finance")};
inline const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
inline const Actor fox{QStringLiteral("fox"), QStringLiteral("finance")};
inline const Actor aud{QStringLiteral("aud"), QStringLiteral("auditor")};
inline const Actor adm{QStringLiteral("adm"), QStringLiteral("admin")};

inline FixProposal proposal(const QString &kind, const QString &target,
                            const QString &comment = "seen in the stuck view")
{
    FixProposal p;
    p.kind = kind;
    p.targetId = target;
    p.reasonCode = QStringLiteral("poison_message");
    p.comment = comment;
    p.origin = kOrigin;
    return p;
}

// An order whose capture disagrees with it: the channel captured `captured` (in `capturedIn`,
// else in the order's `currency`) for `amount`, so the order waits in paid_unconfirmed for a
// person (a confirm_payment fix).
inline Order makeUnconfirmed(EngineFixture &f, const QString &orderId, qint64 amount,
                             qint64 captured, const QString &currency = QStringLiteral("USD"),
                             const QString &capturedIn = {})
{
    Order o = f.createOrder(orderId, amount, currency);
    o = f.pay(orderId, o.version, "req-" + orderId);
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params(orderId, "req-" + orderId, captured, capturedIn.isEmpty() ? currency : capturedIn,
                 "evt_" + orderId, "pi_" + orderId)));
    f.drain();
    return f.order(orderId);
}

// The stuck records of one message (any kind), and the dead-letter counts as the stuck list
// and the dashboard read them.
inline QList<StuckRecord> stuckOf(const StuckReport &r, const QString &callbackId)
{
    QList<StuckRecord> out;
    for (const StuckRecord &s : r.records)
        if (s.callbackId == callbackId)
            out << s;
    return out;
}

// A stuck record as a fix target, with what the stuck query read (as the stuck page hands it
// to the offer).
inline FixTargetState targetOf(const StuckRecord &r)
{
    return {.targetKind = QStringLiteral("message"),
            .targetId = r.callbackId,
            .status = r.status,
            .leaseUntilMs = r.leaseUntilMs};
}

inline FixTargetState target(const QString &kind, const QString &status,
                             std::optional<qint64> leaseUntilMs = {},
                             const QString &discrepancyKind = {})
{
    return {.targetKind = kind,
            .targetId = QStringLiteral("t-") + status,
            .status = status,
            .discrepancyKind = discrepancyKind,
            .leaseUntilMs = leaseUntilMs};
}

// Sets an ops setting as a person with database access might (bypassing SettingsService's
// range check, as a bad value would get there).
inline bool setSetting(EngineFixture &f, const QString &key, const QString &value)
{
    auto n = Sql::update(f.orders->db(),
                         "UPDATE ops_settings SET setting_value = ? WHERE setting_key = ?",
                         {value, key});
    return n && *n == 1;
}

// The rule's clock as the service judges with it: the fixture's clock and the stored allowance.
inline FixClock judgedAt(EngineFixture &f)
{
    auto skew = FixSettings::leaseSkewMs(*f.orders);
    if (!skew)
        qFatal("lease skew: %s", qPrintable(skew.error().message));
    return {.nowMs = f.clock.nowMs(), .leaseSkewMs = *skew};
}

// A worker claimed the message six minutes ago; its lease ends at `leaseUntil`.
inline bool claimed(EngineFixture &f, const QString &callbackId, qint64 leaseUntil)
{
    auto n = Sql::update(f.orders->db(),
                         "UPDATE callback_messages SET status = 'processing',"
                         " lease_owner = 'worker:slow/1', lease_until = ?, updated_at = ?"
                         " WHERE callback_id = ?",
                         {leaseUntil, f.clock.nowMs() - 6 * 60 * 1000, callbackId});
    return n && *n == 1;
}

// A worker claimed the message an hour ago (by the wall clock, which the pages read with); its
// lease ends `leaseLeftMs` from now (negative: it ran out).
inline bool claimedAnHourAgo(EngineFixture &f, const char *callbackId, qint64 leaseLeftMs)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    auto n = Sql::update(
        f.orders->db(),
        "UPDATE callback_messages SET status = 'processing', lease_owner = 'worker:x/1',"
        " lease_until = ?, updated_at = ? WHERE callback_id = ?",
        {now + leaseLeftMs, now - 3600 * 1000, QString::fromLatin1(callbackId)});
    return n && *n == 1;
}

} // namespace OncePay::Test::FixSupport
