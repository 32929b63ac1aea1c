#pragma once

// Money is an integer count of the currency's minor units plus its ISO-4217 code.
// There is no floating point anywhere on the money path (DESIGN.md §8).
// Thread contract: plain values and pure functions; safe from any thread.

#include "result.h"

#include <QString>
#include <QtGlobal>

#include <optional>

namespace OncePay {

struct Money {
    qint64 minor = 0;
    QString currency; // ISO-4217, upper case

    friend bool operator==(const Money &, const Money &) = default;
};

namespace Currency {

// Number of decimals of the currency's minor unit (USD 2, JPY 0, KWD 3), or nothing
// for a code OncePay does not know — unknown currencies are refused, not guessed.
std::optional<int> exponent(const QString &code);

bool isKnown(const QString &code);

// Parses a decimal string as channels send it ("21.12", "1,234.50", "-3", "1000")
// into minor units of `code`. More decimals than the currency has, overflow, or
// anything that is not a number is an error. Thousands separators are accepted only
// when `allowGrouping` (settlement reports use them, webhook JSON never does).
Result<qint64> parseDecimal(const QString &text, const QString &code, bool allowGrouping = false);

// "21.12 USD"-style rendering without a currency symbol; exact for every amount. A code
// OncePay does not know is never given a decimal point: "12345 XYZ minor units (unknown
// currency)", and "12345 minor units (no currency)" for none. Unknown codes are refused where
// they could enter (ingest and every channel's parser, order creation, settlement and fee
// files), so they reach this only from rows written around those doors.
QString format(qint64 minor, const QString &code);
QString formatAmount(qint64 minor, int exponent);

// Checked arithmetic: nothing on the money path may wrap around.
std::optional<qint64> checkedAdd(qint64 a, qint64 b);
std::optional<qint64> checkedMul(qint64 a, qint64 b);

} // namespace Currency
} // namespace OncePay
