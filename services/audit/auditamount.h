#pragma once

// Reading the amount of an audit row out of its before/after JSON, exactly (integer minor
// units as text, never through a double): the QJsonDocument path, and a strict byte-level
// scan for the bulk export that hands anything doubtful back to it. Plus the two byte checks
// the CSV cell writer shares with it.
// Thread contract: pure functions.

#include <QByteArrayView>

namespace OncePay::AuditBytes {

// An optional minus sign and at least one digit, nothing else (a cell that is a plain number).
bool isPlainInteger(QByteArrayView s);
bool isValidUtf8(QByteArrayView s);

} // namespace OncePay::AuditBytes
