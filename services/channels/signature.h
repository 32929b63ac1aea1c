#pragma once

// Building blocks every channel adapter verifies with: HMAC-SHA256, hex and base64, a
// constant-time comparison, the `t=…,v1=…` header layout (Stripe, FedaPay) and the
// timestamp window. Reasons in the returned errors are those of channeladapter.h.
// Thread contract: pure functions; safe from any thread. Nothing here logs.

#include "channels/inboundrequest.h"
#include "core/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QtGlobal>

#include <initializer_list>
#include <optional>

namespace OncePay::Signature {

QByteArray hmacSha256(const QByteArray &key, const QByteArray &data);
// The HMAC of the concatenation of `parts`, without building it.
QByteArray hmacSha256(const QByteArray &key, std::initializer_list<QByteArrayView> parts);

QByteArray toHex(const QByteArray &bytes); // lower case
// Strict: even length, [0-9a-fA-F] only; nothing for anything else.
std::optional<QByteArray> fromHex(const QByteArray &hex);

QByteArray toBase64(const QByteArray &bytes); // standard alphabet, padded
// Strict standard base64 (padding optional); nothing for any other character.
std::optional<QByteArray> fromBase64(const QByteArray &text);

// Constant time in the length of the inputs; different lengths are unequal (the length of
// a signature is no secret).
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

// A header of comma-separated `key=value` pairs with one `t` (unix seconds) and any number
// of signatures under `schemeKey` ("v1" for Stripe, "s" for FedaPay). Pairs with other keys
// are ignored, as the channels' own libraries do.
struct TimestampedHeader {
    QByteArray timestampText; // exactly as sent; it is part of the signed payload
    qint64 timestampSeconds = 0;
    QList<QByteArray> signatures; // every value of `schemeKey`, in order
};

// Errors: missing_signature (empty header, or no value under `schemeKey`), bad_signature
// (no or non-numeric `t`, a pair without '=').
Result<TimestampedHeader> parseTimestampedHeader(const QByteArray &header,
                                                 const QByteArray &schemeKey);

// Parses a unix-seconds timestamp (digits only, at most 12 of them); nothing otherwise.
std::optional<qint64> parseUnixSeconds(const QByteArray &text);

// The signature's time must lie within `toleranceMs` of `nowMs` in BOTH directions: a
// signature from the future is as suspect as an old one. Error reason: stale_timestamp.
Result<void> checkTimestampWindow(qint64 timestampMs, qint64 nowMs, qint64 toleranceMs);

// True when any of `candidates` equals `expected` (each compared in constant time).
bool anyEquals(const QList<QByteArray> &candidates, const QByteArray &expected);

// The `t=…,<scheme>=…` construction Stripe and FedaPay share: each signature is the hex
// HMAC-SHA256 of "{t}.{raw body}"; any signature may match any of `secrets` (rotation);
// then the timestamp window. Exactly one `headerName` header must be present.
// Errors: not_configured, missing_signature, bad_signature, stale_timestamp; messages
// start with `channel` and never contain a secret.
Result<void> verifyTimestampedHmac(const InboundRequest &request, const QByteArray &headerName,
                                   const QByteArray &schemeKey, const QStringList &secrets,
                                   qint64 nowMs, qint64 toleranceMs, const QString &channel);

// CRC-32 (IEEE 802.3, as zlib computes it) — PayPal signs the body's CRC-32 in decimal.
quint32 crc32(const QByteArray &data);

// The same error with "channel: " in front of its message.
Error prefixed(const QString &channel, const Error &error);

} // namespace OncePay::Signature
