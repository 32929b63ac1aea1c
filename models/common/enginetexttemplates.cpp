// The engine's sentences, as engineText() (enginetext.cpp) recognises and translates them.

#include "enginetexttemplates.h"

#include <QtGlobal>

#include <iterator>
#include <vector>

namespace OncePay::Labels {

namespace {

// One template per sentence the engine writes, in the engine's exact English (services/ builds
// it with QString::arg). `args` says what each %n stands for, in the order of the numbers:
//   t  any text, shown as is (an amount with its currency, a person's comment)
//   c  one word, shown as is (a channel, an order id, an attempt, a transaction)
//   v  a number (a version, hours, a count)
//   s  an order state code, shown as its word
//   k  a settlement line kind code, shown as its word
//   f  a fix kind code, shown as its word
//   r  a fix reason code, shown as its word
//   e  a callback's event kind code, shown as its word
//   m  a callback message's status code, shown as its word
//   K  a cause kind code (request, callback, ...), shown as its word
//   D  a discrepancy kind code, shown as its word
//   S  a discrepancy status code, shown as its word
//   P  a payment status code, shown as its word
//   X  a fix status code, shown as its word
//   n  another engine sentence, translated in turn (as is when it is none)
//   N  another engine sentence that must be one (else the whole text is not this template)
//   o  a staff role code (agent, finance, auditor, admin), shown as its word
//   a  what a role may do, as services/auth/permissions.cpp names it ("read orders"), shown
//      in words (else the whole text is not this template)
//   q  a rollback's reason: the engine's own sentence when the engine rolled the order back
//      (a channel's failure, a fix) translated in turn, else a shop's words quoted as written
//   w  someone's own words (a fix's comment): quoted as written, never translated — even when
//      they read word for word as an engine sentence
// More specific templates come first: the first whole match wins.

const EngineTextTemplate kTemplates[] = {
    // What the worker did with a callback (services/worker/callbackprocessor.cpp), also the
    // reasons of refusals, refund obligations and dead letters.
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "not an event OncePay acts on"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "informational: payment still pending at %1"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "callback names no order"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "unknown order %1"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "stale: %1; captured money flagged for refund"), "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "stale: %1"), "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "success without transaction id or amount"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "already applied: capture %1 is recorded"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "attempt %1 is not the current attempt of order %2 (v%3, %4)"),
     "ccvs"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "success for attempt %1 while order %2 is %3 at v%4"),
     "ccsv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "currency %1 differs from the order's %2"), "cc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "amount %1 differs from the order's %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "confirmation refused: %1"), "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "paid_unconfirmed at v%1: %2; waiting for a person"),
     "vn"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "amount and currency confirmed"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "failure of attempt %1, which is not the current attempt of order %2 (v%3)"),
     "ccv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "already applied: attempt already failed"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "failure after success ignored: order %1 is %2 at v%3"),
     "csv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "refund of %1 arrived before its capture"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "lease expired before the worker finished; taken over by %1"),
     "t"}, // a worker's id, or "fix #12"
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refund of %1, not the order's current payment; %2 refund flag(s) resolved"),
     "cv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "already applied: order %1 already refunded"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "refund while order %1 is %2; waiting for it to be paid"),
     "cs"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 at v%2"), "sv"},
    // Transitions and refusals (services/orders).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 reports success"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 reports failure"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 reports refund"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "payment attempt on %1"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "rolled back after capture: %1"), "q"},
    // A fix's transition (services/fixes/fixtargets.cpp, FixTargets::applyOrder).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "fix #%1 (%2) proposed by %3: %4"), "vrcw"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1 is no longer at version %2 in state %3"),
     "cvs"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1 is at version %2, not %3"), "cvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1 has no captured payment to confirm"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "order %1: %2 → %3 is not a transition of the state machine"),
     "css"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1 does not exist"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "request id %1 was already used for a different request (%2 on order %3 at "
                       "version %4)"),
     "cccv"},
    // Discrepancies (services/reconciliation/reconciliationmatcher.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "captured money OncePay rejected (stale attempt) has settled; refund it"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 line for a transaction OncePay has no payment for"),
     "k"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "captured %1 UTC, no settlement line"), "t"},
    // As runs before 2026-11-30 wrote it (kept in rows still open).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "captured %1 h ago, no settlement line"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "settled again (first settlement line %1)"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "settled, but order %1 is %2"), "cs"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "settled in %1, order in %2"), "cc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "settled %1, order %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel refunded %1; OncePay has no refund of this payment"),
     "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "refunded %1 UTC, no refund line"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "refunded %1 h ago, no refund line"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "refund lines return %1, OncePay refunded %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "fee %1 instead of %2: the %3 schedule change (rate %4 ppm) explains it"),
     "ttvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "fee %1 instead of %2 (%3)"), "ttn"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "period closed"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "beyond the %1 ppm tolerance"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no fee schedule change explains it"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the settlement line's transaction time precedes every fee schedule: judged"
                       " at captured_at"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel's transaction time is after OncePay booked the capture: judged"
                       " at captured_at"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the channel's transaction time is more than %1 h before OncePay booked the"
                       " capture: not explained by a fee change"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "fee %1: no fee schedule was in force at captured_at"),
     "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the settlement line has no transaction time: judged at captured_at"),
     ""},
    // A fix (services/fixes/fixtargets.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "resolved by a manual fix"), ""},
    // A fix's lines on the order timeline (services/investigation/ordertimeline.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 proposed (%2: %3)"), "frt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 approved: %2"), "ft"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 approved"), "f"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 rejected: %2"), "ft"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 rejected"), "f"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 applied"), "f"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 failed: %2"), "fn"},
    // A fix's evidence, line by line (services/fixes/fixtargets.cpp, FixTargets::evidence).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 (%2 %3): %4 after %5 attempt(s), received %6, last change %7"),
     "ccemvcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  last error: %1"), "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 %2 on %3 %4, %5: expected %6, actual %7"),
     "vDccStt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "  settlement line #%1 (%2): gross %3, fee %4, net %5, settled %6"),
     "vktttc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  payment of order %1: %2, %3, captured %4"),
     "ctPc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "order %1 does not exist (yet): a callback for it cannot be applied"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1: %2 at version %3, %4"), "csvt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  state reason: %1"), "n"},
    // What was captured against the order (services/fixes/fixchange.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  payment %1 %2: %3, %4, captured %5"), "cctPc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  nothing captured against the order's %1"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  captured %1 in total, the order is %2 (another "
                                              "currency: no difference computed)"),
     "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "  captured %1 in total: %2 less than the order's %3"),
     "ttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "  captured %1 in total: %2 more than the order's %3"),
     "ttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  captured %1 in total: the order's amount"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  v%1 %2 → %3 by %4 (%5 %6) %7"), "vsscKtn"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  refused: %1"), "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "period %1, bound to %2"), "ct"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "  %1"), "N"},
    // A fix refused (services/fixes: FixService, FixTargets).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 already has an open proposal (#%2); decide that one first"),
     "cv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 got an open proposal at the same moment; decide that one first"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "fix #%1 was decided meanwhile"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "fix #%1 is %2; only an open proposal is decided"),
     "vX"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 proposed fix #%2 and may not decide it"), "cv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 already approved fix #%2; a second approval must come from someone "
                       "else"),
     "cv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the change approved (%1) is not fix #%2's change (%3)"),
     "tvc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a rejection needs a reason code (one of: %1)"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "fix #%1 was not applied and is recorded as failed: %2. Propose it again "
                       "against the current state."),
     "vn"},
    // A proposal's or a decision's text refused (FixService's validateText).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a comment is required"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a comment is longer than %1 characters"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the target is required"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the target is longer than %1 characters"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the origin is longer than %1 characters"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "fix #%1's stored change no longer matches its digest"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "fix #%1's amount and currency columns no longer match its change"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "this database login may not read staff accounts: staff sign in through "
                       "the console's login (oncepay_console), not the engine's"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the database server's time could not be read (it gave '%1')"),
     "t"},
    // Swapped connection profiles (services/db/migrator.cpp, healthcheck.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "this is an audit database, not an orders database: check the orders "
                       "connection profile"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "this is an orders database, not an audit database: check the audit "
                       "connection profile"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "cannot keep the owner and group of %1 (%2:%3): %4; nothing was saved"),
     "ccct"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "order %1 is %2; %3 takes paid_unconfirmed orders"),
     "csf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "order %1 is %2; %3 takes paid_unconfirmed or payment_failed orders"),
     "csf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 is %2; %3 takes dead or failed messages and expired leases"),
     "cmf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 is %2 under a live lease; %3 takes dead or failed messages "
                       "and expired leases"),
     "cmf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 is %2; %3 takes dead or failed messages, pending ones and "
                       "expired leases"),
     "cmf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 is %2 under a live lease; %3 takes dead or failed messages, "
                       "pending ones and expired leases"),
     "cmf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 is processing under a lease that ended %2 ms ago, within the "
                       "clock-skew allowance of %3 ms (fixes.lease_skew_ms); %4 takes it once "
                       "its lease is past its end by more than that"),
     "cvvf"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "message %1 is processing under a lease that ended; without a valid "
                       "clock-skew allowance (fixes.lease_skew_ms) it is not judged expired"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "discrepancy #%1 is %2, not open"), "vS"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 is a %2; adjust_fee takes fee mismatches"),
     "vD"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 has no order to book a fee adjustment on"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "discrepancy #%1 carries no amounts; give the amount to book"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 discrepancies of the period are still open; decide them first"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "no finished reconciliation run covers the period; reconcile it first"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the period overlaps a period that is already closed"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no discrepancy #%1"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no message with callback id '%1'"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no order '%1'"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a fix of amount 0 changes nothing"), ""},
    // Settings (services/settings/settingsservice.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 (%2) may not be above %3 (%4)"), "cvcv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1: [worker] backoff_base_ms (%2) may not be above backoff_max_ms (%3)"),
     "tvv"},
    // The audit chain (services/audit/auditverifier.cpp, auditexporter.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the audit chain is broken: %1; nothing was exported (run `oncepay audit"
                       " verify` or Verify chain)"),
     "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 was altered (its content does not match its hash; event %2)"),
     "vc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 was altered (its content does not match its hash)"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "row seq %1 is missing (next row found is seq %2)"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 is reordered or relinked (its prev_hash is not the hash of seq"
                       " %2)"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "cannot create %1: %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "checkpoint %1 (seq %2) cannot be checked: no seal public key"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "checkpoint %1 (seq %2) is signed by unknown key %3 (expected %4)"),
     "vvcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "checkpoint %1 (seq %2) has a bad signature"), "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "chain truncated: checkpoint %1 seals seq %2 but the chain ends at seq %3"
                       " (rows %4..%2 are missing)"),
     "vvvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 is missing (the chain ends at seq %2, its head was seq %3)"),
     "vvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the audit trail is empty: there is nothing to export (audited events"
                       " reach it when they are shipped)"),
     ""},
    // An export checked (services/audit/auditexportverify.cpp, auditexporter.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 has SHA-256 %2 (%3 bytes) but the manifest says %4 (%5 bytes): the file"
                       " was changed"),
     "tcvtv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 has SHA-256 %2 (%3 bytes), but its audit row (seq %4) recorded %5 (%6"
                       " bytes) when it was exported: the file was changed"),
     "tcvvtv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 has SHA-256 %2 (%3 bytes), but its audit event (not yet shipped)"
                       " recorded %4 (%5 bytes) when it was exported: the file was changed"),
     "tcvtv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the manifest's %1 differs from what its audit row (seq %2) recorded: the"
                       " manifest was changed"),
     "nv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the manifest's %1 differs from what its audit event (not yet shipped)"
                       " recorded: the manifest was changed"),
     "n"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "file digest"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "format"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "row count"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "filter"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "chain head"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "author"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "no export %1 is recorded in this audit trail: the manifest was not written"
                       " by this OncePay, or its export id was changed"),
     "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "export %1 is recorded more than once in the audit log (seq %2 and %3):"
                       " rows were added to the trail"),
     "tvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "export %1 is recorded more than once in the outbox: rows were added to"
                       " it"),
     "t"},
    // Before the general "cannot read %1: %2", which would otherwise match it too.
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "cannot read manifest %1: %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "cannot read %1: %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "cannot write %1: %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "export: cannot write the file: %1"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "export: the file was abandoned; it holds part of the export at most"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "export: OpenSSL gives no SHA-256; nothing was exported"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "audit verify: OpenSSL gives no SHA-256; nothing was checked"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the export's audit row (seq %1) does not match its hash: it was altered"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the export's audit row (seq %1) is not where the export wrote it (after"
                       " seq %2, linked into the chain): it was inserted or moved"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row %1 of the file (the audit log's seq %2) differs in %3: the file says"
                       " \u201c%4\u201d, the audit log \u201c%5\u201d"),
     "vvctt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row %1 of the file (the audit log's seq %2) differs from the audit log's"
                       " row"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the file goes on after the %1 row(s) the audit log holds for its filter,"
                       " from line %2: rows were added"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the file ends before the audit log's row seq %1 (row %2 of %3): rows were"
                       " removed"),
     "vvv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the file's header line is not the one an OncePay CSV export has"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 in the file does not match its hash: it was altered"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 in the file shows the amount %2 %3, but its hashed content says"
                       " %4 %5"),
     "vtttt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "row seq %1 in the file is not linked to seq %2 before it: reordered or"
                       " relinked"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the file holds %1 row(s), the manifest says %2"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the chain head seq %1 is no longer in the audit log"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the audit log's row seq %1 has hash %2, not the manifest's %3"),
     "vcc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "seal %1 (seq %2) named by the manifest is missing or changed in the audit"
                       " database"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is no OncePay JSON export (%2)"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 cannot be read: %2"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the rows cannot be re-hashed: OpenSSL gives no SHA-256"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "not an OncePay audit export manifest (format '%1')"),
     "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "the manifest lacks the file, its SHA-256 or the head"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "manifest %1 is not a JSON object: %2"), "tt"},
    // Staff accounts (services/auth/staffservice.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "a display name may not contain control characters (such as a line break"
                       " or a tab)"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "a display name is at most %1 characters (this one has %2)"),
     "vv"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "unknown role: a role is agent, finance, auditor or admin"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "there is no staff account by that name"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "there is no staff account %1"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "an administrator may not change their own role"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 already has the role %2"), "co"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is the last enabled administrator and keeps the role"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the staff account %1 was not changed"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "a user name is 2–64 of a-z, 0-9, '.', '_', '-', starting with a letter or"
                       " digit"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a staff account %1 already exists"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a password needs at least %1 characters"), "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the password is too long"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a reason is required"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "an administrator may not disable their own account"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is disabled already"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is enabled already"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1 is the last enabled administrator and stays enabled"),
     "c"},
    // Rights (services/auth/permissions.cpp, staffrights.cpp; the reconciliation desk's own).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 (%2) may not start a reconciliation run"), "co"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 (%2) may not %3: %4"), "coaN"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 (%2) may not %3"), "coa"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "there is no such staff account"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the staff account has been disabled"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the staff account's role is now %1"), "o"},
    // Reconciliation refused (services/reconciliation/reconciler.cpp).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "the period ends before it starts"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "ops setting %1 is not a non-negative number"), "c"},
    // A settings change (services/settings/settingsservice.cpp, settingChangeFits): shown in
    // the Administration page's dialog as it is typed.
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 takes a whole number from %2 to %3, not '%4'"),
     "cvvt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "a settings change needs a reason"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "unknown setting '%1'"), "t"},
    // The fix rule's setting (services/fixes/fixsettings.cpp), before the general range, whose
    // "%2" would take its 0.
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "ops setting %1 is not a whole number from 0 to %2: '%3'"),
     "cvt"},
    // A bounded setting refused where it is read (services/settings/opssettings.cpp: the stuck
    // thresholds of the Stuck records page and the dashboard).
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "ops setting %1 is not a whole number from %2 to %3: '%4'"),
     "cvvt"},
    // What a channel's signature is (ChannelRegistry::signatureScheme, each adapter's
    // signatureScheme()), shown with a stored callback; %n are header names.
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"t.body\" under a webhook "
                       "signing secret>; timestamp within the tolerance window"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1: t=<unix seconds>,s=<hex HMAC-SHA256 of \"t.body\" under a webhook "
                       "secret>; timestamp within the tolerance window"),
     "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1: v1,<base64 HMAC-SHA256 of \"%2.%3.body\" under the relay's secret> "
                       "(Standard Webhooks); timestamp within the tolerance window"),
     "ccc"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "%1: base64 RSA-SHA256 (%2 SHA256withRSA) of \"%3|%4|webhook id|CRC32 of "
                       "the body\", verified with the configured PayPal certificate (cert_file, "
                       "never fetched; %5 must be on paypal.com); transmission time within the "
                       "tolerance window"),
     "ccccc"},
    // Callbacks refused at the door (services/channels, prefixed with the channel).
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1: %2"), "cN"},
    // A callback's amount the channel's parser refuses (services/channels/channeljson.cpp): the
    // rejection's detail after its channel, `%1` the field.
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is not a whole number"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is not a number"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is negative"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 overflows 64 bits"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 is not a decimal string"), "t"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "%1 '%2' is not a plain decimal"), "tt"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "unknown currency '%1'"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no '%1' signature matches"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no v1 signature matches"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "signature does not verify with the configured certificate"),
     ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "signature header has no '%1' signature"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "signature header is empty"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "signature header is malformed"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "signature header has a bad timestamp"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "signature header has no timestamp"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "signature timestamp is %1 s behind, outside the allowed window"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText",
                       "signature timestamp is %1 s ahead, outside the allowed window"),
     "v"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no webhook secret configured"), ""},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "no %1 header"), "c"},
    {QT_TRANSLATE_NOOP("OncePay::EngineText", "several %1 headers"), "c"},
};

} // namespace

std::span<const EngineTextTemplate> engineTextTemplateTable()
{
    static const std::vector<EngineTextTemplate> all = [] {
        const auto newer = moneyEngineTextTemplates();
        std::vector<EngineTextTemplate> v(newer.begin(), newer.end());
        v.insert(v.end(), std::begin(kTemplates), std::end(kTemplates));
        return v;
    }();
    return all;
}

} // namespace OncePay::Labels
