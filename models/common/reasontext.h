#pragma once

// A reason as the console shows it (an order's, a transition's, an audit row's). A reason is an
// engine sentence (common/enginetext.h), a reason code, or someone's own words: a shop's reason
// for rolling an order back or cancelling it, a staff member's comment. Engine sentences and
// codes read in the interface language, each code with itself in parentheses for auditors;
// someone's own words are data from outside and are never translated: they are shown quoted
// after a translated lead-in that says whose words they are.
// Thread contract: GUI thread (uses the installed translators).

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

// `raw` as shown: an engine sentence translated, else the author's own words after a lead-in.
QString givenReason(const QString &raw, ReasonAuthor author);

// An audit row's reason, as its action stores it: a fix's reason code and comment
// ("payment_verified: …"), a rejection's reason code and comment, a fix's bare reason code, a
// sign-in's code, or a sentence or someone's words (givenReason). Known codes read as words with
// the code in parentheses: "Payment verified with the channel (payment_verified): “…”".
QString auditReason(const QString &action, const QString &actorRole, const QString &raw);

} // namespace OncePay::Labels
