#pragma once

// A staff account as services hand it out — never with its password hash.
// Thread contract: plain values.

#include "permissions.h"

#include <QString>

namespace OncePay {

struct StaffAccount {
    qint64 id = 0;
    QString username;
    QString displayName;
    StaffRole role = StaffRole::Agent;
    bool disabled = false;
    int failedAttempts = 0;
    qint64 lockedUntil = 0; // epoch ms; 0 when not locked
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    // Locked now, by the clock that decides a lock (databasenow.h): set by StaffService::list
    // and find only, so that the Administration view and `staff list` do not judge a lock by
    // their own clock. (Last, so that no positional initialiser above shifts.)
    bool locked = false;

    Actor actor() const { return {username, staffRoleName(role)}; }
};

enum class SignInRefusal {
    None,
    // An unknown user name, a wrong password, or a locked account (whatever password was
    // typed): one answer for all three, so the answer cannot tell which user names exist
    // and a lock cannot be used to find out whether a guess was right. The audit row says
    // which it was.
    BadCredentials,
    // The right password for an account an administrator disabled: only someone who knows
    // the password learns this.
    Disabled,
};

// The outcome of a sign-in attempt. A refusal is a normal answer, not an Error; an Error
// from authenticate() means the database could not be asked.
struct SignInResult {
    SignInRefusal refusal = SignInRefusal::None;
    StaffAccount account; // filled when signed in
    // The lockout policy (ops_settings auth.max_failed_logins, auth.lockout_seconds), the same
    // for every attempt and every user name, known or not: what a refusal may say about locks.
    // There is deliberately no per-account count of attempts left (issue #8): only existing
    // accounts have one, so showing it would tell anyone which user names exist. Counting for
    // unknown names too was rejected: it needs failure state for every name anyone types (a
    // table an attacker fills at will) and fake locks that mimic real ones in every detail,
    // and any mismatch is again an oracle. The rule, stated the same to everyone, tells an
    // honest person what they need (how many tries, how long a lock lasts) and nothing else.
    int maxFailedLogins = 0;
    int lockoutSeconds = 0;

    bool signedIn() const { return refusal == SignInRefusal::None; }
};

} // namespace OncePay
