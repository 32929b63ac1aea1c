#include "reasontext.h"

#include "auth/permissions.h"
#include "common/enginetext.h"
#include "fixes/fixlabels.h"

#include <QCoreApplication>

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
    if (colon < 0)
        return codeWithWord(code, name);
    return tr("%1: %2").arg(codeWithWord(code, name), quoted(raw.mid(colon + 2)));
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

QString givenReason(const QString &raw, ReasonAuthor author)
{
    if (raw.isEmpty() || isEngineText(raw))
        return engineText(raw);
    switch (author) {
    case ReasonAuthor::Shop: return tr("Shop's reason: %1").arg(quoted(raw));
    case ReasonAuthor::Staff: return tr("Staff comment: %1").arg(quoted(raw));
    case ReasonAuthor::Unknown: return tr("Reason given: %1").arg(quoted(raw));
    case ReasonAuthor::Engine: break;
    }
    return raw;
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
    return givenReason(raw, author);
}

} // namespace OncePay::Labels
