#pragma once

// The run's report for people (text) and for tools (--json); exact amounts, findings sorted
// by key so that two runs over the same data print the same.
// Thread contract: pure functions.

#include "reconciliationtypes.h"

#include <QJsonObject>

namespace OncePay::ReconciliationReportFormat {

QString text(const ReconcileReport &report, int maxFindings = 50);
QJsonObject json(const ReconcileReport &report);
QString coverage(qint64 ppm); // "99.97 %"

} // namespace OncePay::ReconciliationReportFormat
