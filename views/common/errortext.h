#pragma once

// Turns a service error into a sentence for people, translated; the technical message goes
// to the tooltip and the log.
// Thread contract: GUI thread only.

#include "common/enginetext.h"
#include "core/result.h"

#include <QCoreApplication>
#include <QLabel>

namespace OncePay {

// The database server refused what this console's database login asked (Sql::classify's
// "permission_denied"): a desk console (oncepay_desk) asked to decide a fix or change an
// account, or the grants of an upgrade not applied. Not the signed-in person's role: the
// service has already allowed that.
inline QString permissionDeniedText()
{
    return QCoreApplication::translate(
        "OncePay::ErrorText",
        "The database refused this console's login: it may not do this. Fix decisions,"
        " accounts and settings are made from a console whose connection profile uses the"
        " finance login (oncepay_console); if this is one, the database's grants need"
        " applying.");
}

inline QString errorText(const Error &e)
{
    switch (e.code) {
    case ErrorCode::Unavailable:
        if (e.reason == u"database_missing") // the console opens existing files only
            return QCoreApplication::translate("OncePay::ErrorText",
                                               "Database file not found: %1. Check the connection"
                                               " profile, or put the file back.")
                .arg(e.message.section(QStringLiteral("database file not found: "), 1));
        if (e.reason == u"login_refused") // waiting will not cure it: the profile must change
            return QCoreApplication::translate(
                "OncePay::ErrorText",
                "The database server refused the login. Check the user, its password and the"
                " database name in the connection profile.");
        return QCoreApplication::translate(
            "OncePay::ErrorText", "The database cannot be reached. It will be tried again on the"
                                  " next refresh.");
    case ErrorCode::Newer:
        return QCoreApplication::translate(
            "OncePay::ErrorText", "The database was created by a newer OncePay. Upgrade this"
                                  " console before using it.");
    case ErrorCode::Forbidden:
        if (e.reason == u"permission_denied") // the database refused this console's login
            return permissionDeniedText();
        return QCoreApplication::translate("OncePay::ErrorText", "Your role may not see this.");
    case ErrorCode::NotFound:
        return QCoreApplication::translate("OncePay::ErrorText", "Nothing was found.");
    case ErrorCode::Invalid:
        if (e.reason == u"schema_older")
            return QCoreApplication::translate(
                "OncePay::ErrorText",
                "The database has an older schema; run `oncepay db migrate`.");
        if (e.reason == u"wrong_schema") // swapped connection profiles: which database it is
            return QCoreApplication::translate("OncePay::ErrorText",
                                               "This is not the database this profile is for: %1.")
                .arg(Labels::engineText(e.message));
        if (e.reason == u"empty_search")
            return QCoreApplication::translate(
                "OncePay::ErrorText",
                "Type an order, customer, transaction, callback or request id.");
        if (e.reason == u"search_too_long")
            return QCoreApplication::translate("OncePay::ErrorText",
                                               "That is longer than any identifier.");
        [[fallthrough]];
    case ErrorCode::Stale:
    case ErrorCode::Conflict:
        return QCoreApplication::translate("OncePay::ErrorText", "The request was refused: %1")
            .arg(Labels::engineText(e.message));
    default:
        return QCoreApplication::translate("OncePay::ErrorText", "Something went wrong: %1")
            .arg(Labels::engineText(e.message));
    }
}

// A service said no to what was asked (rights, the target's state, bad input) — as opposed to
// a database that failed or is away: the service's own sentence (Labels::engineText) is the
// answer to show.
inline bool isRefusal(const Error &e)
{
    switch (e.code) {
    case ErrorCode::Forbidden:
    case ErrorCode::NotFound:
    case ErrorCode::Invalid:
    case ErrorCode::Conflict:
    case ErrorCode::Stale: return true;
    default: return false;
    }
}

// What a page says when an action it asked for did not happen: a refusal as the service's
// own sentence ("The request was refused: …"), anything else as errorText() says it.
inline QString actionErrorText(const Error &e)
{
    if (e.code == ErrorCode::Forbidden && e.reason == u"permission_denied")
        return permissionDeniedText();
    if (isRefusal(e))
        return QCoreApplication::translate("OncePay::ErrorText", "The request was refused: %1")
            .arg(Labels::engineText(e.message));
    return errorText(e);
}

// Shows a failed load in a page's summary line: the sentence, with the technical message as
// its tooltip. Returns the sentence (for the page's failed() signal).
inline QString showFailure(QLabel *line, const Error &e)
{
    line->setText(errorText(e));
    line->setToolTip(e.message);
    return line->text();
}

} // namespace OncePay
