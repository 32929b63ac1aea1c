#pragma once

// A reason as the console shows it (an order's, a transition's, an audit row's). A reason is an
// engine sentence (common/enginetext.h), a reason code, or someone's own words: a shop's reason
// for rolling an order back or cancelling it, a staff member's comment. Engine sentences and
// codes read in the interface language, each code with itself in parentheses for auditors;
// someone's own words are data from outside and are never translated: they are shown quoted
// after a translated lead-in that says whose words they are.
// Thread contract: GUI thread (uses the installed translators).

#include "orders/order.h"

#include <QList>
#include <QString>

namespace OncePay::Labels {

// Whose words a reason is, when it is not an engine sentence.
enum class ReasonAuthor {
    Unknown, // not known here: "Reason given: “…”"
    Shop,    // the shop's platform (actor role platform, a request's cause)
    Staff,   // a staff member (agent, finance, auditor, admin)
    Engine,  // the engine (system, channel): shown as stored when it is no known sentence
};

// Who wrote the reasons of an actor with this role (an audit row's actor_role).
ReasonAuthor reasonAuthorOf(const QString &actorRole);

// Who wrote a transition's reason, by what caused it: the shop's platform through a request (a
// rollback's or a cancellation's reason), a staff member through a fix; not known otherwise.
ReasonAuthor transitionAuthor(const QString &causeKind);

// An order's present reason (its state_reason) as shown: whose words it is follows the transition
// that set it, the latest with that reason (givenReason) — a shop's rollback reason that reads
// word for word like an engine sentence is still the shop's words. A reason no transition gives
// is the engine's (a failed payment's channel event type): a sentence in words, else quoted.
QString orderReason(const QString &stateReason, const QList<OrderTransition> &transitions);

// `raw` as shown: an engine sentence translated, else the author's own words after a lead-in.
// Only the sentences the engine writes in that author's name count as the engine's (a shop's
// payment attempt, a fix applied in a staff member's name); any other text in a shop's or a
// staff member's name is their own words, shown as written even when it reads exactly like an
// engine sentence. An Unknown author's text that is an engine sentence is taken as the engine's.
QString givenReason(const QString &raw, ReasonAuthor author);

// A reason code and someone's comment on it (a proposal's, a rejection's): the code as its word
// (`word`, e.g. fixReason) with the code kept, the comment quoted as written and never
// translated: "Wrong amount (wrong_amount): “…”". The code alone without a comment, the quoted
// comment alone without a code (an approval's comment).
QString codedComment(const QString &code, const QString &comment, QString (*word)(const QString &));

// An audit row's reason, as its action stores it: a fix's reason code and comment
// ("payment_verified: …"), a rejection's reason code and comment, a fix's bare reason code, a
// sign-in's code, or a sentence or someone's words (givenReason). Known codes read as words with
// the code in parentheses: "Payment verified with the channel (payment_verified): “…”". A
// decision's comment and the reason of a settings or an account change are always the person's
// own words.
QString auditReason(const QString &action, const QString &actorRole, const QString &raw);

} // namespace OncePay::Labels
