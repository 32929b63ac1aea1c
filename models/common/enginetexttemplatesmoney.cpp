// The engine's sentences written since 2026-12-01 — refunds, settlement lines, fixes of
// discrepancies, stored callbacks and the audit chain held to the orders database (partial
// refunds, chargebacks, adjustments, written-off money that settles, currencies kept apart,
// values a message table cannot hold, rows cut off the chain) — apart from the older catalogue
// in enginetexttemplates.cpp. They are matched first: each is more specific than the older
// sentence it extends ("settled %1, order %2: different currencies…" before "settled %1,
// order %2"). The letters of `args` are those of enginetexttemplates.cpp.

#include "enginetexttemplates.h"

#include <QtGlobal>

namespace OncePay::Labels {

namespace {

const EngineTextTemplate kMoneyTemplates[] = {
    // Refunds (services/worker/callbackprocessor.cpp, services/orders).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "partial refund of %1 booked; %2 of %3 refunded, order %4 stays %5"),
     "tttcs"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "refunded at v%1: %2 of %3 refunded"), "vtt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "already applied: %1 of payment %2 is refunded; this report's total is %3"),
     "tct"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "already applied: refund %1 is booked"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "refund of %1 of payment %2: nothing to book"), "tc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refund of %1 in %2, but payment %3 was captured in %4; not booked"),
     "tccc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refund of %1 would bring payment %2's refunds to %3, more than the %4 "
                       "captured; not booked"),
     "tctt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refund of %1 of payment %2 (%3 captured) while order %4 is "
                       "paid_unconfirmed; not booked"),
     "tctc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "held for a person: %1"), "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refunded before confirmation: order %1 back to pending_payment at v%2"),
     "cv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "stale: %1; captured money already flagged for refund"),
     "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 refunded %2 before the payment was confirmed"),
     "ct"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "unknown channel '%1'; OncePay's channels are: %2"),
     "ct"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "payment %1 was refunded by %2"), "ct"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 reported a refund of payment %2 (callback %3) not yet processed"),
     "ccc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1 cannot be confirmed: %2"), "cn"},
    // A Stripe amount in ISK or UGX that is not whole hundredths (stripeadapter.cpp): a
    // rejection's detail. The channels' other amount refusals are in enginetexttemplates.cpp,
    // matched after every more specific sentence.
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is not a whole number of %2: Stripe counts this currency in "
                       "hundredths, always ending in 00"),
     "vc"},
    // A statement import waiting on another of the same channel (settlementimporter.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "another %1 statement import is still being stored after %2 s; try again "
                       "when it has finished"),
     "cv"},
    // An approval whose approver is no longer an enabled finance reviewer (fixreads.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is no longer a finance reviewer: its approval no longer counts"),
     "c"},
    // Callbacks the message table cannot hold, and events that are not a payment's result
    // (services/ingest, services/channels/paypal).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is not a payment result; the capture's own event decides"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is %2 characters long; the message table stores at most %3"),
     "cvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is %2 bytes long; the message table stores at most %3"),
     "cvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 contains a NUL character, which the message table cannot store"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "approval reversal without order_id"), ""},
    // Fixes of discrepancies (services/fixes/fixdiscrepancy.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 differs by %2; %3 books that whole difference, not %4"),
     "vtft"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 has amounts in two currencies (expected in %2, settled in "
                       "%3); give the amount to book and its currency"),
     "vcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a fix of discrepancy #%1 books %2 or %3, not %4"),
     "vccc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a fix of discrepancy #%1 books %2, not %3"), "vcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 involves %2; a fix of %3 is more than that"),
     "vtt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 reverses a write-off that is no longer recorded; reconcile "
                       "again"),
     "v"},
    {QT_TRANSLATE_NOOP(
         "OncePay::EngineText",
         "fix #%1 on discrepancy #%2 (%3): reverses the write-off of discrepancy #%4"),
     "vvrv"},
    // The audit chain held to what the orders database recorded of it (services/audit:
    // verify, crosscheck).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the seal recorded in the orders database (seq %1) cannot be checked: no "
                       "seal public key"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the seal recorded in the orders database (seq %1) is signed by unknown key "
                       "%2 (expected %3)"),
     "vcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the seal recorded in the orders database (seq %1) has a bad signature"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 differs from the head sealed by the seal recorded in the orders "
                       "database"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "chain truncated: the seal recorded in the orders database seals seq %1 but "
                       "the chain ends at seq %2 (rows %3..%1 are missing)"),
     "vvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "chain truncated: %1 event(s) shipped to the audit database are not in the "
                       "chain, which ends at seq %2 (the first: event %3, %4)"),
     "vvcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the seal recorded in the orders database (outbox id %1) cannot be read"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 audited event(s) shipped to the audit database are not in the audit "
                       "log (the first: event %2, %3): rows were cut off the chain"),
     "vcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the seal recorded in the orders database seals seq %1 but the audit log "
                       "has no such row"),
     "v"},
    // Discrepancies (services/reconciliation).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "settled %1, order %2: different currencies, no difference computed"),
     "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "settled %1 (charge %2, adjustments %3), order %4"),
     "tttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refund lines return %1, OncePay refunded %2: different currencies, no "
                       "difference computed"),
     "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel took back %1 (fee %2) for a dispute on this payment of %3"),
     "ttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel returned %1 (fee %2) for a dispute on this payment of %3"),
     "ttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel took back %1 (fee %2) for a dispute on a transaction OncePay "
                       "has no payment for"),
     "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel returned %1 (fee %2) for a dispute on a transaction OncePay "
                       "has no payment for"),
     "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 line of %2 (fee %3) on this payment of %4: reconciliation does not "
                       "match such lines, review it"),
     "kttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 line of %2 (fee %3) for a transaction OncePay has no payment for: "
                       "reconciliation does not match such lines, review it"),
     "ktt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "written off %1 (discrepancy #%2), but the channel has settled it since "
                       "(settlement line %3): reverse the write-off"),
     "tvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "written off %1 (discrepancy #%2), but the channel has settled it since: "
                       "reverse the write-off"),
     "tv"},
};

} // namespace

std::span<const EngineTextTemplate> moneyEngineTextTemplates()
{
    return kMoneyTemplates;
}

} // namespace OncePay::Labels
