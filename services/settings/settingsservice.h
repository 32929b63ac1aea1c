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

class SettingsService {
public:
    SettingsService(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    static const QList<SettingSpec> &specs();

    Result<QList<SettingRow>> list(const Actor &actor) const;
    // Refuses unknown keys, non-integers and values out of range (Invalid), and actors without
    // ManageSettings (Forbidden) — each refusal audited. Returns the row as stored.
    Result<SettingRow> set(const QString &key, const QString &value, const QString &reason,
                           const Actor &actor) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
