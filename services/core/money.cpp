#include "money.h"

#include <QHash>

#include <limits>

namespace OncePay::Currency {

namespace {

const QHash<QString, int> &exponents()
{
    // ISO-4217 minor units for the currencies the channels settle in. Zero-decimal
    // and three-decimal currencies are listed explicitly; that is where bugs hide.
    static const QHash<QString, int> table = {
        {"USD", 2}, {"EUR", 2}, {"GBP", 2}, {"CNY", 2}, {"HKD", 2}, {"TWD", 2}, {"SGD", 2},
        {"AUD", 2}, {"CAD", 2}, {"NZD", 2}, {"CHF", 2}, {"SEK", 2}, {"NOK", 2}, {"DKK", 2},
        {"PLN", 2}, {"CZK", 2}, {"MXN", 2}, {"BRL", 2}, {"INR", 2}, {"THB", 2}, {"MYR", 2},
        {"PHP", 2}, {"IDR", 2}, {"ILS", 2}, {"ZAR", 2}, {"NGN", 2}, {"GHS", 2}, {"KES", 2},
        {"MAD", 2}, {"AED", 2}, {"SAR", 2}, {"TRY", 2}, {"RUB", 2}, {"EGP", 2}, {"HUF", 2},
        {"JPY", 0}, {"KRW", 0}, {"XOF", 0}, {"XAF", 0}, {"VND", 0}, {"CLP", 0}, {"ISK", 0},
        {"UGX", 0}, {"PYG", 0}, {"RWF", 0}, {"GNF", 0}, {"KMF", 0}, {"VUV", 0}, {"XPF", 0},
        {"BIF", 0}, {"DJF", 0}, {"MGA", 0}, {"BHD", 3}, {"KWD", 3}, {"OMR", 3}, {"JOD", 3},
        {"TND", 3}, {"IQD", 3}, {"LYD", 3},
    };
    return table;
}

} // namespace

std::optional<int> exponent(const QString &code)
{
    const auto it = exponents().constFind(code);
    if (it == exponents().constEnd())
        return std::nullopt;
    return *it;
}

bool isKnown(const QString &code)
{
    return exponents().contains(code);
}

std::optional<qint64> checkedAdd(qint64 a, qint64 b)
{
    qint64 out = 0;
    if (__builtin_add_overflow(a, b, &out))
        return std::nullopt;
    return out;
}

std::optional<qint64> checkedMul(qint64 a, qint64 b)
{
    qint64 out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        return std::nullopt;
    return out;
}

Result<qint64> parseDecimal(const QString &rawText, const QString &code, bool allowGrouping)
{
    const auto exp = exponent(code);
    if (!exp)
        return makeError(ErrorCode::Invalid, QStringLiteral("unknown currency '%1'").arg(code));

    QString text = rawText.trimmed();
    if (text.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("empty amount"));

    bool negative = false;
    if (text.startsWith(u'-') || text.startsWith(u'+')) {
        negative = text.startsWith(u'-');
        text.remove(0, 1);
    }
    if (allowGrouping)
        text.remove(u',');

    const qsizetype dot = text.indexOf(u'.');
    const QString whole = dot < 0 ? text : text.left(dot);
    QString fraction = dot < 0 ? QString() : text.mid(dot + 1);
    if (whole.isEmpty() && fraction.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("'%1' is not an amount").arg(rawText));

    auto allDigits = [](const QString &s) {
        for (QChar c : s)
            if (c < u'0' || c > u'9')
                return false;
        return true;
    };
    if (!allDigits(whole) || !allDigits(fraction) || (dot >= 0 && fraction.isEmpty()))
        return makeError(ErrorCode::Invalid, QStringLiteral("'%1' is not an amount").arg(rawText));

    // Trailing zeros beyond the exponent are harmless ("21.10" for JPY is not).
    while (fraction.size() > *exp && fraction.endsWith(u'0'))
        fraction.chop(1);
    if (fraction.size() > *exp)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("'%1' has more decimals than %2 allows (%3)")
                             .arg(rawText, code)
                             .arg(*exp));
    fraction = fraction.leftJustified(*exp, u'0');

    qint64 value = 0;
    const QString digits = whole + fraction;
    for (QChar c : digits) {
        const auto times10 = checkedMul(value, 10);
        const auto next = times10 ? checkedAdd(*times10, c.unicode() - u'0') : std::nullopt;
        if (!next)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("amount '%1' overflows").arg(rawText));
        value = *next;
    }
    return negative ? -value : value;
}

QString formatAmount(qint64 minor, int exp)
{
    const bool negative = minor < 0;
    // Work on the unsigned magnitude so that INT64_MIN renders too.
    quint64 magnitude = negative ? quint64(0) - quint64(minor) : quint64(minor);
    QString digits = QString::number(magnitude);
    if (exp > 0) {
        digits = digits.rightJustified(exp + 1, u'0');
        digits.insert(digits.size() - exp, u'.');
    }
    return negative ? QStringLiteral("-") + digits : digits;
}

QString format(qint64 minor, const QString &code)
{
    if (const auto exp = exponent(code))
        return formatAmount(minor, *exp) + u' ' + code;
    // A guessed exponent would show 12345 as 123.45 for a currency with none and as 12.345
    // for one with three: the count itself, said to be one.
    const QString count = formatAmount(minor, 0);
    if (code.trimmed().isEmpty())
        return count + QStringLiteral(" minor units (no currency)");
    return QStringLiteral("%1 %2 minor units (unknown currency)").arg(count, code.left(8));
}

} // namespace OncePay::Currency
