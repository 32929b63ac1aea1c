#include "settingsservice.h"

#include "audit/auditevent.h"
#include "audit/auditoutbox.h"
#include "auth/permissions.h"
#include "auth/staffrights.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "fixes/fixsettings.h"

#include <QSqlQuery>
#include <QStringList>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace OncePay {

const QList<SettingSpec> &SettingsService::specs()
{
    static const QList<SettingSpec> all = {
        {QStringLiteral("worker.max_attempts"), 1, 100, 12},
        {QStringLiteral("worker.lease_seconds"), 5, 3600, 60},
        {QStringLiteral("worker.backoff_base_ms"), 100, 3600000, 5000},
        {QStringLiteral("worker.backoff_max_ms"), 1000, 86400000, 3600000},
        {QStringLiteral("stuck.pending_seconds"), 10, 604800, 300},
        {QStringLiteral("stuck.idempotency_pending_seconds"), 10, 604800, 600},
        {QStringLiteral("reconcile.fee_tolerance_ppm"), 0, 100000, 1000},
        {QStringLiteral("reconcile.unsettled_after_hours"), 1, 720, 24},
        {QStringLiteral("reconcile.capture_skew_minutes"), 0, 1440, 360},
        {QStringLiteral("reconcile.cadence_hours"), 1, 744, 24},
        {QStringLiteral("fixes.second_approver_above_minor"), 0, 1000000000000LL, 100000},
        {QStringLiteral("fixes.second_approver_above_minor.JPY"), 0, 1000000000000LL, 150000},
        {QStringLiteral("fixes.second_approver_above_minor.KRW"), 0, 1000000000000LL, 1300000},
        {QStringLiteral("fixes.second_approver_above_minor.XOF"), 0, 1000000000000LL, 600000},
        {FixSettings::LeaseSkewKey, 0, FixSettings::kLeaseSkewMaxMs,
         FixSettings::kLeaseSkewDefaultMs},
        {QStringLiteral("auth.max_failed_logins"), 1, 100, 5},
        {QStringLiteral("auth.lockout_seconds"), 10, 86400, 900},
        {QStringLiteral("ingest.max_body_bytes"), 1024, 10485760, 262144},
        {QStringLiteral("channels.timestamp_tolerance_seconds"), 10, 3600, 300},
    };
    return all;
}

Result<void> settingChangeFits(const QString &key, const QString &value, const QString &reason)
{
    const QList<SettingSpec> &all = SettingsService::specs();
    const auto spec =
        std::find_if(all.cbegin(), all.cend(), [&](const SettingSpec &s) { return s.key == key; });
    if (spec == all.cend())
        return makeError(ErrorCode::Invalid, QStringLiteral("unknown setting '%1'").arg(key),
                         QStringLiteral("unknown_setting"));
    bool ok = false;
    const qint64 v = value.trimmed().toLongLong(&ok);
    if (!ok || v < spec->min || v > spec->max)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1 takes a whole number from %2 to %3, not '%4'")
                             .arg(key)
                             .arg(spec->min)
                             .arg(spec->max)
                             .arg(value.left(40)),
                         QStringLiteral("out_of_range"));
    if (reason.trimmed().isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("a settings change needs a reason"),
                         QStringLiteral("reason_required"));
    return {};
}

namespace {

// Settings that only make sense in an order: `lower` may not exceed `upper`. The worker waits
// min(backoff_max_ms, backoff_base_ms * 2^n) before a retry, so a maximum below the base makes
// every retry come after the maximum — 12 attempts in seconds, and a short outage ends in dead
// letters.
struct OrderedSettings {
    const char *lower;
    const char *upper;
};
constexpr OrderedSettings kOrderedSettings[] = {
    {"worker.backoff_base_ms", "worker.backoff_max_ms"},
};

// The value `key` has now (stored, else its fallback), read in the change's transaction.
Result<qint64> currentValue(const QSqlDatabase &db, const QString &key)
{
    const auto &all = SettingsService::specs();
    const auto spec =
        std::find_if(all.cbegin(), all.cend(), [&](const SettingSpec &s) { return s.key == key; });
    const qint64 fallback = spec == all.cend() ? 0 : spec->fallback;
    auto q = Sql::exec(
        db, QStringLiteral("SELECT setting_value FROM ops_settings WHERE setting_key = ?"), {key});
    if (!q)
        return q.error();
    if (!q->next())
        return fallback;
    bool ok = false;
    const qint64 v = q->value(0).toString().trimmed().toLongLong(&ok);
    return ok ? v : fallback;
}

// Takes the rows of every ordered pair `key` belongs to, both keys, in key order, before the
// change reads either: FOR UPDATE on PostgreSQL and MariaDB (`Mode::Immediate` is only SQLite's
// BEGIN IMMEDIATE, which already holds the whole database), so two administrators changing the
// two sides at once meet here — the second waits for the first and then checks against the
// value the first stored, not the one before it. A missing row (the migrations seed them; an
// operator may have deleted one) is first inserted with its default, as list() shows it, so
// there is a row to lock; a refused change rolls that back with the rest.
Result<void> lockOrderedPairs(const Connection &c, const QString &key)
{
    const QString insert =
        QStringLiteral("INSERT INTO ops_settings (setting_key, setting_value, updated_by,"
                       " updated_at) VALUES (?, ?, 'default', 0)") +
        (c.dialect() == Dialect::MySql
             ? QStringLiteral(" ON DUPLICATE KEY UPDATE setting_key = setting_key")
             : QStringLiteral(" ON CONFLICT (setting_key) DO NOTHING"));
    const QString lock =
        QStringLiteral("SELECT setting_value FROM ops_settings WHERE setting_key = ?") +
        (c.dialect() == Dialect::Sqlite ? QString() : QStringLiteral(" FOR UPDATE"));
    for (const OrderedSettings &pair : kOrderedSettings) {
        QStringList keys = {QLatin1String(pair.lower), QLatin1String(pair.upper)};
        if (!keys.contains(key))
            continue;
        keys.sort(); // one order for every change, whichever side it sets
        for (const QString &k : std::as_const(keys)) {
            const auto &all = SettingsService::specs();
            const auto spec = std::find_if(all.cbegin(), all.cend(),
                                           [&](const SettingSpec &s) { return s.key == k; });
            if (auto r = Sql::exec(c.db(), insert, {k, QString::number(spec->fallback)}); !r)
                return r.error();
            if (auto r = Sql::exec(c.db(), lock, {k}); !r)
                return r.error();
        }
    }
    return {};
}

// Whether `key` = `value` keeps every ordered pair in order with the other values as they are.
Result<void> keepsOrder(const QSqlDatabase &db, const QString &key, qint64 value)
{
    for (const OrderedSettings &pair : kOrderedSettings) {
        const QString lower = QLatin1String(pair.lower);
        const QString upper = QLatin1String(pair.upper);
        if (key != lower && key != upper)
            continue;
        const QString other = key == lower ? upper : lower;
        auto otherValue = currentValue(db, other);
        if (!otherValue)
            return otherValue.error();
        const qint64 low = key == lower ? value : *otherValue;
        const qint64 high = key == lower ? *otherValue : value;
        if (low > high)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("%1 (%2) may not be above %3 (%4)")
                                 .arg(lower)
                                 .arg(low)
                                 .arg(upper)
                                 .arg(high),
                             QStringLiteral("out_of_order"));
    }
    return {};
}

} // namespace

Result<QList<SettingRow>> SettingsService::list(const Actor &actor) const
{
    if (auto r = require(actor, Action::ReadOrders); !r && actor.role != u"system")
        return r.error();
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT setting_key, setting_value, updated_by, updated_at"
                                      " FROM ops_settings"));
    if (!q)
        return q.error();
    QMap<QString, SettingRow> stored;
    while (q->next())
        stored.insert(
            q->value(0).toString(),
            {{}, q->value(1).toString(), q->value(2).toString(), q->value(3).toLongLong()});
    QList<SettingRow> out;
    for (const SettingSpec &s : specs()) {
        SettingRow row =
            stored.value(s.key, {{}, QString::number(s.fallback), QStringLiteral("default"), 0});
        row.spec = s;
        out.append(row);
    }
    return out;
}

Result<SettingRow> SettingsService::set(const QString &key, const QString &value,
                                        const QString &reason, const Actor &actor) const
{
    auto refuse = [&](const Error &why) -> Error {
        spdlog::warn("setting {} refused for {}: {}", key.toStdString(), actor.id.toStdString(),
                     why.message.toStdString());
        if (why.code == ErrorCode::Unavailable)
            return why;
        AuditEvent e;
        e.actor = actor.id;
        e.actorRole = actor.role;
        e.action = QStringLiteral("setting.refused");
        e.entityKind = QStringLiteral("setting");
        e.entityId = key.left(100);
        e.after = {{QStringLiteral("value"), value.left(100)},
                   {QStringLiteral("code"), errorCodeName(why.code)}};
        e.reason = why.message;
        (void)inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<QString> {
            return AuditOutbox::record(m_c.db(), e, m_clock);
        });
        return why;
    };
    if (auto r = require(actor, Action::ManageSettings); !r)
        return refuse(r.error());
    if (auto fits = settingChangeFits(key, value, reason); !fits)
        return refuse(fits.error());
    const auto spec = std::find_if(specs().cbegin(), specs().cend(),
                                   [&](const SettingSpec &s) { return s.key == key; });
    const qint64 v = value.trimmed().toLongLong(); // a whole number in range: the rule said so
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<SettingRow> {
        // The administrator's rights as they are now, not as at sign-in (issue #8).
        if (auto r = requireCurrent(m_c, actor, Action::ManageSettings); !r)
            return r.error();
        if (auto locked = lockOrderedPairs(m_c, key); !locked)
            return locked.error();
        auto before = Sql::exec(
            m_c.db(),
            QStringLiteral("SELECT setting_value FROM ops_settings WHERE setting_key = ?"), {key});
        if (!before)
            return before.error();
        const bool exists = before->next();
        const QString old = exists ? before->value(0).toString() : QString::number(spec->fallback);
        if (auto ordered = keepsOrder(m_c.db(), key, v); !ordered)
            return ordered.error();
        const qint64 now = m_clock.nowMs();
        auto w =
            exists
                ? Sql::exec(
                      m_c.db(),
                      QStringLiteral("UPDATE ops_settings SET setting_value = ?, updated_by = ?,"
                                     " updated_at = ? WHERE setting_key = ?"),
                      {QString::number(v), actor.id, now, key})
                : Sql::exec(m_c.db(),
                            QStringLiteral("INSERT INTO ops_settings (setting_key, setting_value,"
                                           " updated_by, updated_at) VALUES (?, ?, ?, ?)"),
                            {key, QString::number(v), actor.id, now});
        if (!w)
            return w.error();
        AuditEvent e;
        e.actor = actor.id;
        e.actorRole = actor.role;
        e.action = QStringLiteral("setting.changed");
        e.entityKind = QStringLiteral("setting");
        e.entityId = key;
        e.before = {{QStringLiteral("value"), old}};
        e.after = {{QStringLiteral("value"), QString::number(v)}};
        e.reason = reason.trimmed().left(500);
        if (auto a = AuditOutbox::record(m_c.db(), e, m_clock); !a)
            return a.error();
        return SettingRow{*spec, QString::number(v), actor.id, now};
    });
    if (!done)
        return refuse(done.error());
    spdlog::info("setting {} set to {} by {}", key.toStdString(), v, actor.id.toStdString());
    return done;
}

} // namespace OncePay
