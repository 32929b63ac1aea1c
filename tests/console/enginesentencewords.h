#pragma once

// Words people type that are word for word engine sentences (tst_console_layout,
// tst_console_wording): shown as the person's own words all the same, quoted, never translated.

#include <QString>

namespace OncePay::Test {

// Reviewers' comments on two decided proposals (tst_console_layout), a shop's reasons
// (tst_console_wording).
inline const QString kRejectComment = QStringLiteral("amount and currency confirmed");
inline const QString kApproveComment = QStringLiteral("not an event OncePay acts on");

} // namespace OncePay::Test
