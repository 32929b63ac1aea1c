#pragma once

// Words for the fix and reconciliation codes the services hand out (kinds, statuses, reason
// codes, discrepancy kinds), translated. Codes stay codes in the database and the audit trail.
// Thread contract: GUI thread (uses the installed translators).

#include <QString>

namespace OncePay::Labels {

QString fixKind(const QString &code);
QString fixStatus(const QString &code);
QString fixReason(const QString &code);
QString rejectionReason(const QString &code);
QString discrepancyKind(const QString &code);
QString discrepancyStatus(const QString &code);
QString runStatus(const QString &code);
QString coverage(qint64 ppm); // "99.97 %"

} // namespace OncePay::Labels
