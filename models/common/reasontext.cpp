#include "reasontext.h"

#include "auth/permissions.h"
#include "common/enginetext.h"
#include "fixes/fixlabels.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace OncePay::Labels {

namespace {

// lupdate files plain tr() calls here under the namespace's name.
QString tr(const char *text)
{
    return QCoreApplication::translate("OncePay::Labels", text);
}

// A code's word with the code kept: "Channel outage (channel_outage)"; the code alone when it
// has no word.
QString codeWithWord(const QString &code, const QString &word)
{
    return word == code ? code : tr("%1 (%2)").arg(word, code);
}

QString signInCode(const QString &code)
{
    if (code == u"wrong_password")
        return tr("Wrong password");
    if (code == u"too_many_failures")
        return tr("Too many failed sign-ins");
    return code;
}

// "code: comment" split, when the code is one `word` knows; nullopt otherwise.
std::optional<QString> codeAndComment(const QString &raw, QString (*word)(const QString &))
{
    const qsizetype colon = raw.indexOf(QStringLiteral(": "));
    const QString code = colon < 0 ? raw : raw.left(colon);
    const QString name = word(code);
    if (name == code)
        return std::nullopt; // not a code this action writes: shown as any other reason
    return codedComment(code, colon < 0 ? QString() : raw.mid(colon + 2), word);
}

// Whether the engine may have written `raw` in the name of `author`. It writes a reason in
// someone's name in two sentences only: the payment attempt a shop's platform asked for
// (services/orders/orderservice.cpp) and a fix applied to an order in its approver's name
// (services/fixes/fixtargets.cpp). Anything else in a shop's or a staff member's name is their
// own words, even a text that is word for word one of the engine's sentences.
bool engineMayHaveWritten(const QString &raw, ReasonAuthor author)
{
    static const QRegularExpression attempt(QStringLiteral("\\Apayment attempt on \\S+\\z"));
    static const QRegularExpression fix(
        QStringLiteral("\\Afix #\\d+ \\([a-z_]+\\) proposed by \\S+: "));
    switch (author) {
    case ReasonAuthor::Shop: return attempt.match(raw).hasMatch();
    case ReasonAuthor::Staff: return fix.match(raw).hasMatch();
    case ReasonAuthor::Unknown:
    case ReasonAuthor::Engine: break;
    }
    return true;
}

// Someone's own words after a lead-in that says whose, quoted as written; the engine's (a
// system actor's) as engineText shows them.
QString wordsOf(const QString &raw, ReasonAuthor author)
{
    switch (author) {
    case ReasonAuthor::Shop: return tr("Shop's reason: %1").arg(quoted(raw));
    case ReasonAuthor::Staff: return tr("Staff comment: %1").arg(quoted(raw));
    case ReasonAuthor::Unknown: return tr("Reason given: %1").arg(quoted(raw));
    case ReasonAuthor::Engine: break;
    }
    return engineText(raw);
}

} // namespace

ReasonAuthor reasonAuthorOf(const QString &actorRole)
{
    if (actorRole == u"platform")
        return ReasonAuthor::Shop;
    if (parseStaffRole(actorRole))
        return ReasonAuthor::Staff;
    if (actorRole.isEmpty())
        return ReasonAuthor::Unknown;
    return ReasonAuthor::Engine;
}

ReasonAuthor transitionAuthor(const QString &causeKind)
{
    if (causeKind == u"request")
        return ReasonAuthor::Shop;
    if (causeKind == u"fix")
        return ReasonAuthor::Staff;
    return ReasonAuthor::Unknown;
}

QString orderReason(const QString &stateReason, const QList<OrderTransition> &transitions)
{
    for (auto t = transitions.crbegin(); t != transitions.crend(); ++t)
        if (t->reason == stateReason)
            return givenReason(stateReason, transitionAuthor(t->causeKind));
    // Set by the engine beside a transition worded otherwise (a failed payment's reason is the
    // channel's event type, e.g. payment_intent.payment_failed): a sentence in words, anything
    // else quoted as stored.
    return isEngineText(stateReason) ? engineText(stateReason) : quoted(stateReason);
}

QString givenReason(const QString &raw, ReasonAuthor author)
{
    if (raw.isEmpty())
        return raw;
    if (engineMayHaveWritten(raw, author) && isEngineText(raw))
        return engineText(raw);
    return wordsOf(raw, author);
}

QString codedComment(const QString &code, const QString &comment, QString (*word)(const QString &))
{
    if (code.isEmpty())
        return comment.isEmpty() ? QString() : quoted(comment);
    const QString coded = codeWithWord(code, word(code));
    return comment.isEmpty() ? coded : tr("%1: %2").arg(coded, quoted(comment));
}

QString auditReason(const QString &action, const QString &actorRole, const QString &raw)
{
    if (raw.isEmpty())
        return raw;
    std::optional<QString> coded;
    if (action == u"fix.proposed" || action == u"fix.applied")
        coded = codeAndComment(raw, fixReason);
    else if (action == u"fix.rejected")
        coded = codeAndComment(raw, rejectionReason);
    else if (action.startsWith(u"login."))
        coded = codeAndComment(raw, signInCode);
    if (coded)
        return *coded;
    // Whose words a reason that is no engine sentence can be: a shop's or a person's for what
    // they asked of an order, a staff member's for a decision or a change of accounts or
    // settings. A refusal's or a failure's reason is the engine's, whoever the actor.
    const bool refusal = action.endsWith(u".refused") || action.endsWith(u".failed") ||
                         action.endsWith(u"_rejected") || action.endsWith(u"_refused");
    const bool ownWords =
        !refusal && (action.startsWith(u"order.") || action == u"fix.approved" ||
                     action == u"setting.changed" || action.startsWith(u"staff."));
    if (!ownWords)
        return engineText(raw);
    const ReasonAuthor author = reasonAuthorOf(actorRole);
    // Only a shop's platform asks for an order's change in words of its own, besides staff.
    if (author == ReasonAuthor::Shop && !action.startsWith(u"order."))
        return engineText(raw);
    // An order's reason is its transition's: the engine's sentence for what was asked, or the
    // asker's words (givenReason); a rollback is never the attempt the engine words for a shop.
    // A decision's comment, a settings or an account change's reason are the person's words.
    if (!action.startsWith(u"order.") ||
        (action == u"order.rollback" && author == ReasonAuthor::Shop))
        return wordsOf(raw, author);
    return givenReason(raw, author);
}

} // namespace OncePay::Labels
