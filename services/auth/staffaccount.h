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

    Actor actor() const { return {username, staffRoleName(role)}; }
};

enum class SignInRefusal {
    None,
    BadCredentials, // unknown user or wrong password: the same answer for both
    Locked,         // too many failures; lockedUntil says until when
    Disabled,       // an administrator disabled the account
};

// The outcome of a sign-in attempt. A refusal is a normal answer, not an Error; an Error
// from authenticate() means the database could not be asked.
struct SignInResult {
    SignInRefusal refusal = SignInRefusal::None;
    StaffAccount account;   // filled when signed in
    qint64 lockedUntil = 0; // for Locked
    int attemptsLeft = -1;  // for BadCredentials on a known account, before it locks

    bool signedIn() const { return refusal == SignInRefusal::None; }
};

} // namespace OncePay
