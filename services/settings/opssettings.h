#pragma once

// Operational thresholds kept in the `ops_settings` table (DESIGN.md §4: "thresholds live in
// ops_settings, not in code"): worker attempts and back-off, stuck thresholds, fee tolerance.
// Thread contract: plain value once loaded; load() on the connection's thread.

#include "core/result.h"
#include "db/connection.h"

#include <QMap>

namespace OncePay {

class OpsSettings {
public:
    static Result<OpsSettings> load(const Connection &connection);

    // The stored whole number; `fallback` when the key is absent, or (with a warning in the
    // log naming the key and the value) when what is stored is no whole number.
    qint64 integer(const QString &key, qint64 fallback) const;
    // The stored whole number when it lies within min … max; `fallback` when the key is
    // absent. Anything else — no whole number, or one outside the range (written around the
    // settings service, which stores only what fits) — is refused with a warning in the log,
    // never replaced by a substitute: Invalid "bad_setting", "ops setting <key> is not a whole
    // number from <min> to <max>: '<stored>'".
    Result<qint64> bounded(const QString &key, qint64 min, qint64 max, qint64 fallback) const;
    QString text(const QString &key, const QString &fallback = {}) const;
    const QMap<QString, QString> &all() const { return m_values; }

private:
    QMap<QString, QString> m_values;
};

} // namespace OncePay
