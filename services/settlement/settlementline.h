#pragma once

// One line of a channel's settlement statement, normalised: the channel's own layout is
// parsed into this, and the statement planter writes this back out in that layout.
// Money is integer minor units (DESIGN.md §8); fee is what the channel kept (positive when
// charged, negative when returned), so net = gross - fee.
// Thread contract: plain values.

#include <QList>
#include <QString>

namespace OncePay {

namespace SettlementKind {
inline const QString Charge = QStringLiteral("charge");
inline const QString Refund = QStringLiteral("refund");
inline const QString Fee = QStringLiteral("fee");
inline const QString Adjustment = QStringLiteral("adjustment");
// Money the channel took back from the merchant for a dispute (Stripe `dispute`, PayPal T12xx
// and T1106), or gave back when the dispute was won (Stripe `dispute_reversal`): signed like a
// charge, negative when taken.
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
    QString kind;         // SettlementKind
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
