#pragma once

// What reconciliation works on and what it finds (DESIGN.md §4, seed 002 pitfall 2).
// Thread contract: plain values, safe to hand from a worker thread to the GUI.

#include <QList>
#include <QMap>
#include <QString>

#include <functional>

namespace OncePay {

namespace DiscrepancyKind {
// A capture the channel has not settled (no charge line) after reconcile.unsettled_after_hours.
inline const QString NotSettled = QStringLiteral("not_settled");
// A refund OncePay booked that the channel has not reported (no refund line) after as long:
// money that left, where not_settled is money that has not come in; migration 0009 moved the
// rows recorded before as not_settled with a ":refund" key.
inline const QString RefundNotSettled = QStringLiteral("refund_not_settled");
inline const QString UnknownSettlement = QStringLiteral("unknown_settlement");
inline const QString AmountMismatch = QStringLiteral("amount_mismatch");
inline const QString FeeMismatch = QStringLiteral("fee_mismatch");
inline const QString CurrencyMismatch = QStringLiteral("currency_mismatch");
inline const QString DuplicateSettlement = QStringLiteral("duplicate_settlement");
inline const QString RefundDue = QStringLiteral("refund_due");
// Money the channel took back from the merchant for a dispute on a payment (a chargeback line:
// Stripe `dispute`, PayPal T12xx/T1106), or gave back when the dispute was won: one per line,
// actual_minor the line's gross as signed on the statement (negative when taken), migration 0012.
inline const QString Chargeback = QStringLiteral("chargeback");
// A line of a kind reconciliation does not match against a payment (an adjustment: holds and
// their releases, a fee line, a kind it does not know): reported, one per line, never dropped.
inline const QString SettlementAdjustment = QStringLiteral("settlement_adjustment");
// A not_settled or refund_not_settled discrepancy that was written off and whose line has
// arrived since: the write-off is to be reversed. It carries the write-off's amount as
// actual_minor (expected 0): one per written-off discrepancy, its key that one's key behind
// "settled_after_write_off:".
inline const QString SettledAfterWriteOff = QStringLiteral("settled_after_write_off");
QStringList all();
// Both "not settled" kinds: the open ones a later statement may settle (re-matched by
// ReconciliationMatcher::finish, resolved by ReconciliationWriter).
inline bool awaitsSettlement(const QString &kind)
{
    return kind == NotSettled || kind == RefundNotSettled;
}
} // namespace DiscrepancyKind

// The minimal-intervention rule (seed 002): a fee difference within the tolerance that the
// fee schedule's change explains is corrected automatically. Bump the version whenever the
// rule's logic changes, so every correction names the logic that allowed it.
// v1 explained a fee by the schedule in force on the line's settled_at — a different moment
// per channel (Stripe's available_on, KakaoPay's payout day) and not the one that fixes a fee.
// v2 judges a fee by the schedule in force at the channel's transaction time (when it made
// the charge), falling back to captured_at for a line without one; rows of v1 keep their 1.
inline const QString kFeeRuleId = QStringLiteral("fee.schedule_change");
constexpr int kFeeRuleVersion = 2;
// The longest lag between the channel's transaction time and OncePay's booking of the capture
// that a fee change in between may explain automatically: the channels' webhook retry horizon
// (Stripe and PayPal retry an undelivered event for up to three days), the longest a late
// callback can be. A charge further before its booking is something else — an authorisation
// captured later (PayPal allows a capture up to 29 days after the authorisation, and takes
// its fee at the capture) or a wrong time — so a fee answering to a schedule that long before
// captured_at is an exception for a person, never a correction.
constexpr qint64 kFeeExplainMaxLagMs = 72LL * 3600 * 1000;

// A payment record as reconciliation sees it: what OncePay believes was captured, and the
// order it belongs to.
struct PaymentFact {
    qint64 id = 0;
    QString orderId;
    QString channel;
    QString channelTxnId;
    qint64 amountMinor = 0;
    QString currency;
    // What OncePay booked as refunded of this payment: minus the sum of its ledger refund_debit
    // rows (partial refunds add up; payments.status turns 'refunded' only at the captured
    // amount), or the captured amount for a payment refunded before its confirmation (status
    // 'refunded', no ledger row). 0: nothing refunded.
    qint64 refundedMinor = 0;
    bool settled = false; // a settlement_matches row exists already
    qint64 capturedAtMs = 0;
    qint64 refundedAtMs = 0; // when the last of those refunds was booked
    qint64 orderAmountMinor = 0;
    QString orderCurrency;
    QString orderState;
};

struct LineFact {
    qint64 id = 0;
    QString channel;
    QString channelTxnId;
    QString kind;
    qint64 grossMinor = 0;
    qint64 feeMinor = 0;
    QString currency;
    qint64 settledAtMs = 0;
    qint64 transactedAtMs = 0; // the channel's transaction time; 0 when the line has none
};

struct Finding {
    QString key; // discrepancy_key: kind:channel:txn[:line id | :refund]
    QString kind;
    QString channel;
    QString channelTxnId;
    QString orderId;
    qint64 settlementLineId = 0;
    qint64 expectedMinor = 0;
    qint64 actualMinor = 0;
    bool hasAmounts = false;
    QString currency; // of actualMinor (the line's side)
    // Of expectedMinor (OncePay's side: the payment's or order's currency); empty = currency.
    // Differs from currency only when the channel settled in another currency: no difference is
    // computed between the two then (discrepancies.expected_currency, migration 0012).
    QString expectedCurrency;
    QString detail;
    // Set when the minimal-intervention rule applies: corrected, not opened.
    bool autoFix = false;
    qint64 feeScheduleId = 0;
    qint64 adjustmentMinor = 0; // ledger fee_adjustment: expected fee - actual fee
    QString evidenceJson;       // canonical; its SHA-256 is recorded
};

struct ReconcileOptions {
    qint64 fromMs = 0;
    qint64 toMs = 0; // exclusive; 0 = now + 1 day
    // Return false to cancel; called from the thread running reconcile (every few thousand rows).
    std::function<bool(qint64 done, qint64 total)> progress;
};

// From ops_settings (DESIGN.md §4: thresholds are settings, not code); the values here are
// only what an ops_settings row left out means.
struct ReconcileSettings {
    qint64 feeTolerancePpm = 1000;                // reconcile.fee_tolerance_ppm
    qint64 unsettledAfterMs = 24LL * 3600 * 1000; // reconcile.unsettled_after_hours
    // reconcile.capture_skew_minutes: payments.captured_at is when OncePay's worker booked the
    // capture, which can be hours after the channel made it (retried or delayed callbacks,
    // worker back-off). A fee that is exactly right for the schedule in force this long
    // before captured_at is accepted as right, so a capture made just before a fee change and
    // booked just after it is no exception. 0 judges fees strictly at captured_at.
    qint64 captureSkewMs = 6LL * 3600 * 1000;
};

struct ReconcileReport {
    qint64 runId = 0;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    QString status; // finished | cancelled
    qint64 payments = 0;
    qint64 lines = 0;
    qint64 eligible = 0;
    qint64 matched = 0;
    qint64 notYetDue = 0;
    qint64 adjusted = 0; // payments whose charge took adjustment lines (added to it)
    qint64 coveragePpm = 0;
    qint64 autoFixed = 0;         // corrections applied in this run
    qint64 opened = 0;            // new open discrepancies in this run
    qint64 stillOpen = 0;         // found again, already open
    qint64 resolved = 0;          // earlier not_settled now settled
    qint64 markedSettled = 0;     // payments matched to their line (settlement_matches)
    QMap<QString, qint64> counts; // findings by kind (auto-fixed fee mismatches included)
    QList<Finding> findings;      // this run's findings (all, for the report)
    qint64 elapsedMs = 0;
};

} // namespace OncePay
