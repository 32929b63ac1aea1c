#pragma once

// One line of a channel's settlement statement, normalised: the channel's own layout is
// parsed into this, and the statement planter writes this back out in that layout.
// Money is integer minor units (DESIGN.md §8); fee is what the channel kept (positive when
// charged, negative when returned), so net = gross - fee.
//
// How the signed amounts of each kind read, the same in every format (the matcher relies on
// it; each format refuses a line whose sign is impossible for its kind, naming the column):
//   charge      gross >= 0: what the customer paid; fee >= 0.
//   refund      gross <= 0: money given back to the customer (Stripe `refund`, PayPal T1107,
//               partial refunds included, KakaoPay 취소/부분취소, FedaPay refunded rows), never
//               an absolute value; fee 0, or negative where the channel returns part of its fee.
//               A payment's refunded total is minus the sum of its refund lines' gross.
//   chargeback  gross < 0 when the channel took the money back for a dispute (Stripe `dispute`,
//               PayPal T1201, T1106, T1207), > 0 when it gave it back (Stripe `dispute_reversal`,
//               PayPal T1202, T1205, T1208); fee the dispute fee (positive charged, negative
//               returned). Stripe's signs are checked; PayPal's follow its CR/DR flag.
//   adjustment  signed as the channel booked it, named by the payment it belongs to (Stripe's
//               payment intent, PayPal's Reference ID): summed with the payment's charge it
//               gives what the channel settled for the payment. Stripe
//               `partial_capture_reversal` (negative: the uncaptured part of the authorisation;
//               charge + reversal = the captured amount), PayPal holds and releases and other
//               reversals (T1105, T1110 hold DR, T1111 release CR, T1114, ...; a hold and its
//               release sum to 0), PayPal T1200/T1203/T1204 account adjustments, and any category
//               the format does not know. Never dropped. Also a PayPal T00xx debit: a payment
//               the merchant's account sent (T00xx is DR for the sender), named by its own
//               Transaction ID, which no OncePay payment has: reported, never matched.
//   fee         signed: money the channel took (negative gross) or returned.
// Thread contract: plain values.

#include <QList>
#include <QString>

namespace OncePay {

namespace SettlementKind {
inline const QString Charge = QStringLiteral("charge");
inline const QString Refund = QStringLiteral("refund");
inline const QString Fee = QStringLiteral("fee");
inline const QString Adjustment = QStringLiteral("adjustment");
// Money the channel took back from the merchant for a dispute (Stripe `dispute`, PayPal T1201,
// T1106, T1207), or gave back when the dispute was won or cancelled (Stripe `dispute_reversal`,
// PayPal T1202, T1205, T1208): signed like a charge, negative when taken.
inline const QString Chargeback = QStringLiteral("chargeback");
} // namespace SettlementKind

// What a line's settled_at is, channel by channel: each statement dates its lines by a moment
// of its own, and OncePay keeps the one its format reads (StatementFormat::settledAtMeaning).
// They are not the same moment: PayPal's and FedaPay's are when the transaction happened on
// the channel, Stripe's when its net funds became available in the Stripe balance (T+2 and
// more; not the payout), KakaoPay's the 정산일, the day KakaoPay pays the merchant (D+3).
namespace SettledAt {
inline const QString FundsAvailable = QStringLiteral("funds_available"); // Stripe available_on
inline const QString Completed = QStringLiteral("completed");            // PayPal Completion Date
inline const QString PayoutDate = QStringLiteral("payout_date");         // KakaoPay 정산일
inline const QString Approved = QStringLiteral("approved");              // FedaPay approved_at
inline const QString Refunded = QStringLiteral("refunded");              // FedaPay refunded_at
} // namespace SettledAt

struct SettlementLine {
    int lineNo = 0;       // 1-based physical line of the file (for error messages and raw)
    QString channelTxnId; // the id the channel's webhooks carry (pi_…, capture id, tid, id)
    // The channel's own id of this statement line (migration 0011, settlement_lines.line_key,
    // unique per channel): the same line in another export of the statement — re-saved with
    // other line endings, re-downloaded after a refund — has the same key, so it is imported
    // once. Stripe: balance_transaction_id; PayPal: Transaction ID + ":" + event code;
    // KakaoPay: TID + ":" + kind + ":" + 거래일시 (ms); FedaPay: id + ":" + kind. The importer
    // appends "#2", "#3", ... when one file lists the same key again (the channel settled it
    // twice: a duplicate settlement, kept for the matcher to find).
    QString lineKey;
    QString kind; // SettlementKind
    qint64 grossMinor = 0;
    qint64 feeMinor = 0;
    qint64 netMinor = 0;
    QString currency; // ISO-4217, upper case
    qint64 settledAtMs = 0;
    // The channel's transaction time: when it made the charge or the refund, the moment it
    // fixed the fee (StatementFormat::transactedAtColumn names the column). 0 when the layout
    // has none; stored as settlement_lines.transacted_at (NULL for 0 and for lines imported
    // before migration 0010).
    qint64 transactedAtMs = 0;
    QString raw; // the record as it stood in the file
    // Only used when writing a statement (the planter): what the channel also prints.
    QString reference; // the merchant's order reference
};

struct ParsedStatement {
    QString channel;
    QList<SettlementLine> lines;
    int skippedRecords = 0; // payouts, headers, footers: not settlement of a payment
    qint64 periodFromMs = 0;
    qint64 periodToMs = 0;
};

} // namespace OncePay
