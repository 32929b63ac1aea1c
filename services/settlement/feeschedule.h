#pragma once

// The fee schedule (DESIGN.md §4): per channel and currency, a percentage (in ppm, parts per
// million: 2.9 % = 29000) and a fixed part, each effective from a date. It is what explains a
// legitimate fee change under the minimal-intervention rule. The CSV is
//   channel,currency,effective_from,rate_percent,fixed
//   stripe,USD,2025-11-15,2.95,0.30
// with the percentage and the fixed amount parsed exactly (no floating point).
// Thread contract: FeeSchedule is a plain value; FeeScheduleStore uses the caller's connection
// on the caller's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QHash>
#include <QList>

namespace OncePay {

struct FeeRule {
    qint64 id = 0; // fee_schedules.id (0 before import)
    QString channel;
    QString currency;
    qint64 effectiveFromMs = 0; // midnight UTC of the effective date
    qint64 ratePpm = 0;
    qint64 fixedMinor = 0;
    QString note;
};

namespace Fees {
// round-half-up(|gross| * ratePpm / 1e6) + fixed, computed in 128 bits.
qint64 feeFor(qint64 grossMinor, qint64 ratePpm, qint64 fixedMinor);
inline qint64 feeFor(qint64 grossMinor, const FeeRule &r)
{
    return feeFor(grossMinor, r.ratePpm, r.fixedMinor);
}
// "2.9" -> 29000; at most four decimals; no sign, no exponent.
Result<qint64> parsePercent(const QString &text);
QString formatPercent(qint64 ppm);
Result<QList<FeeRule>> parseCsv(const QByteArray &data);
QByteArray toCsv(const QList<FeeRule> &rules);
} // namespace Fees

// All rules, grouped by channel and currency and sorted by effective date.
class FeeSchedule {
public:
    explicit FeeSchedule(QList<FeeRule> rules = {});
    // The rule in effect at `atMs`, or nullptr.
    const FeeRule *ruleAt(const QString &channel, const QString &currency, qint64 atMs) const;
    // The channel's rules for the currency sorted by effective date, or nullptr; valid as long
    // as this schedule.
    const QList<FeeRule> *rulesFor(const QString &channel, const QString &currency) const;
    bool isEmpty() const { return m_byKey.isEmpty(); }

private:
    QHash<QString, QList<FeeRule>> m_byKey;
};

struct FeeImportReport {
    int inserted = 0;
    int unchanged = 0;
};

class FeeScheduleStore {
public:
    FeeScheduleStore(const Connection &c, const Clock &clock)
        : m_c(c)
        , m_clock(clock)
    {}
    // All or nothing; the same rule again changes nothing; a different rate for an existing
    // (channel, currency, date) is a Conflict — a schedule is history, not a setting.
    Result<FeeImportReport> import(const QList<FeeRule> &rules, const Actor &actor) const;
    Result<QList<FeeRule>> list() const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
