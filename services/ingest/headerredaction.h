#pragma once

// Which request headers of a callback are kept as evidence and which carry a credential, whose
// value is never stored nor shown: ingest masks them before the row is written
// (IngestService::headersJson) and every reader masks them again (read(): rows stored before
// ingest masked them). The signature has been verified on the request as received before
// any of this runs; what is masked is only what is kept.
// A callback's body is signed evidence and is stored byte for byte (re-verification needs it),
// so the secrets in it (a Stripe payment intent's client_secret …) are masked where it is
// shown: bodyForDisplay().
// Thread contract: pure functions, any thread.

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringView>

#include <functional>

namespace OncePay::HeaderRedaction {

// Whether the header `name` (any case) with this value carries a credential: by its name, or
// whatever its name by its value — an HTTP authentication scheme ("Bearer", then a space or a
// tab), a bare JWT (eyJ….….…), a URL whose query carries one (access_token=, token=,
// X-Amz-Signature=, sig= …). The headers a channel's signature check reads are never
// credentials (they are the evidence).
bool isCredential(QByteArrayView name, QByteArrayView value);

// What a credential's value is stored and shown as: "[redacted, N bytes]", N its length in
// bytes as received. Not translated: it is stored text (the console translates it when shown).
QString marker(qsizetype bytes);
// Whether `value` is exactly such a marker; its byte count in *bytes.
bool isMarker(QStringView value, qsizetype *bytes = nullptr);

struct StoredHeader {
    QString name;
    QString value;         // as stored; the marker when redacted
    bool redacted = false; // a credential's value, masked
    qsizetype redactedBytes = 0;
};

struct StoredHeaders {
    // false: the stored text is not the list of [name, value] string pairs ingest writes, so
    // which part of it is a credential cannot be told: nothing of it is to be shown.
    bool readable = true;
    QList<StoredHeader> headers; // arrival order
    qsizetype storedChars = 0;   // of the stored text
};

// callback_messages.headers as readers show it, every credential masked.
StoredHeaders read(const QString &stored);

// Whether a JSON key of a callback body names a secret (any case; '_', '-', '.' ignored):
// client_secret, *secret*, *password*, *passwd*, *token* (not tokenization/tokenised…),
// api_key/apiKey, *credential*, private_key, access_key (aws_access_key_id), *authorization*; and
// the keys cvc, cvv, cvc2, cvv2, pin, otp as whole names.
bool isSecretBodyKey(QStringView key);

// Whether a JSON key of a callback body names one of the channel's identifiers, whose value —
// when it is a bare run of digits — is evidence shown whole even when it happens to pass the
// Luhn check (about one long number in ten does: FedaPay's 16-digit transaction_key): id, ID,
// *_id, *_ID, camelCase *Id and *ID (orderId; not PAID), transaction_key, reference,
// merchant_reference, KakaoPay's tid and aid. Exact names, case kept (card_number, number stay
// card fields). Text under such a key, or digits in groups, is still searched for card
// numbers; a secret-bearing key still masks its value.
bool isIdentifierBodyKey(QStringView key);

// What a masked body value is shown as, given its length in characters.
using BodyMarker = std::function<QString(qsizetype characters)>;
// "[redacted, N characters]", N the value's length in characters (not translated: the console
// passes its translation).
QString bodyMarker(qsizetype characters);

// A callback body (callback_messages.raw_body) as people read it: JSON pretty-printed with the
// value of every secret-bearing key (isSecretBodyKey) replaced by `marker` — a string or number
// whole; an object or array under such a key has each string and number in it masked (true,
// false and null say nothing secret and are kept). Under any key: a string in an HTTP
// authentication scheme ("Bearer …") or a bare JWT is masked whole; a string that is itself a
// JSON object or array is masked inside (shown compact when anything in it was); a card number
// in a string or a number — 13 to 19 digits, single spaces or dashes between groups, passing
// the Luhn check, not glued to a letter or digit — is shown as its first 6 digits, "…" and its
// last 4, except as the whole value, digits only, of an identifier key (isIdentifierBodyKey). Ids
// stay (id, payment_intent, latest_charge, idempotency_key, KakaoPay's "T…" tid, FedaPay's short
// numeric ids …). A body that is not a JSON object or array is returned as it is. Display only: the
// stored body is not changed.
QString bodyForDisplay(const QString &rawBody, const BodyMarker &marker = bodyMarker);

} // namespace OncePay::HeaderRedaction
