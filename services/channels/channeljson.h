#pragma once

// Strict readers for the channels' JSON. Qt's parser turns "1e3", "1.0" and even
// "9007199254740993e0" (rounded!) into integers, so amounts are read from the raw number
// token instead: digits only, 64-bit checked, never through a double (DESIGN.md §8).
// Errors carry the reasons of channeladapter.h (malformed, bad_amount, unknown_currency).
// Thread contract: plain values and pure functions; safe from any thread.

#include "core/result.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace OncePay::ChannelJson {

// A parsed body plus the raw text of every number in it, keyed by its path: members
// joined with '.', array elements as "[i]" ("data.object.amount", "refunds.data[0].amount").
struct Document {
    QJsonObject root;
    QHash<QByteArray, QByteArray> numbers; // UTF-8 path → raw token

    // The raw token of the number at `path`; empty when there is none.
    QByteArray numberToken(const QString &path) const;

    // The number at `path` as an exact non-negative integer: absent, not a number, a
    // fraction, an exponent, a sign or more than 64 bits → `bad_amount`.
    Result<qint64> nonNegativeInteger(const QString &path, const QString &what) const;
    // A non-empty string at `path`, or an integer rendered as its raw digits (FedaPay's
    // numeric ids); empty for anything else.
    QString idString(const QString &path) const;
    QJsonValue at(const QString &path) const;
};

// The body as a JSON object; `malformed` for anything else.
Result<Document> parse(const QByteArray &body);

// The digits of a raw JSON number token as an exact non-negative integer (`bad_amount`).
Result<qint64> integerToken(const QByteArray &raw, const QString &what);

// An ISO-4217 code as the channel writes it (any case) → upper case, known to
// Currency::exponent, else `unknown_currency`.
Result<QString> currencyCode(const QJsonValue &value);

// A decimal string ("21.12", "1000") in `currency` → minor units; `bad_amount` when it is
// not a plain non-negative decimal with at most the currency's decimals.
Result<qint64> decimalString(const QJsonValue &value, const QString &currency, const QString &what);

Error malformed(const QString &message);
Error badAmount(const QString &message);

} // namespace OncePay::ChannelJson
