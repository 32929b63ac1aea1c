#pragma once

// Changing the operational thresholds in `ops_settings` (DESIGN.md §4, §6): only the keys
// OncePay knows, each an integer within its documented range, by an administrator (or the
// operator's own command line), each change audited with before and after. Reading is for
// every staff role.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QList>
#include <QString>

namespace OncePay {

struct SettingSpec {
    QString key;
    qint64 min = 0;
    qint64 max = 0;
    qint64 fallback = 0;
};

struct SettingRow {
    SettingSpec spec;
    QString value;
    QString updatedBy;
    qint64 updatedAt = 0;
};

// Whether `value` may be stored under `key` with `reason`: the one rule both
// SettingsService::set and the administration page's dialog (when its OK is on, the sentence it
// shows) ask, so the two cannot drift. Pure: no database, no rights (set() checks those).
// Refused, all Invalid, in this order: "unknown_setting" (a key not in specs()),
// "out_of_range" (not a whole number within the key's min … max, after trimming),
// "reason_required" (an empty or blank reason).
// Thread contract: a plain function over plain values, any thread.
Result<void> settingChangeFits(const QString &key, const QString &value, const QString &reason);

class SettingsService {
public:
    SettingsService(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    static const QList<SettingSpec> &specs();

    Result<QList<SettingRow>> list(const Actor &actor) const;
    // Refuses actors without ManageSettings (Forbidden), then what settingChangeFits refuses
    // (Invalid: unknown keys, non-integers, values out of range, a blank reason), then a value
    // that puts two ordered settings out of order against the other's current value (Invalid
    // "out_of_order": worker.backoff_base_ms above worker.backoff_max_ms), each refusal
    // audited. The rows of such a pair are locked, both, in key order, before the check
    // (FOR UPDATE on PostgreSQL and MariaDB), so two administrators changing its two sides at
    // once cannot leave it out of order: the second waits and is checked against the first's
    // value. Returns the row as stored.
    Result<SettingRow> set(const QString &key, const QString &value, const QString &reason,
                           const Actor &actor) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
