#pragma once

// The console's connection-profile editor writes through here (issue 8): a profile is checked
// with the very rules AppConfig::load applies, and saving rewrites only the [orders],
// [messages] and [audit] sections of the configuration file, keeping every other section
// as it was. A password is never written: the file names where it comes from — an
// environment variable (password_env) or an OS keychain entry (password_keychain).
// Thread contract: plain functions; save() does file I/O on the calling thread.

#include "appconfig.h"
#include "core/result.h"

#include <optional>

namespace OncePay::ProfileStore {

// The key/value lines of one profile's section, as `load` reads them back. No password.
QMap<QString, QString> toSection(const ConnectionProfile &profile);

// Checks one edited profile; the error names the field (ErrorCode::Invalid).
Result<void> validate(const ConnectionProfile &profile);

// The keychain entry a profile's password is stored under when the editor saves it:
// "<role>/<user>@<host>:<port>/<database>" — no secret in the name.
QString keychainKey(const ConnectionProfile &profile);

// The keychain entries the profiles named `before` that none of the profiles `after` names:
// the server, port, user or database changed (the entry's name holds them), the password is
// no longer kept in the keychain (asked at start, an environment variable, SQLite). The
// editor removes them once the new profiles are saved, so no stale password stays behind.
QStringList staleKeychainEntries(const QList<ConnectionProfile> &before,
                                 const QList<ConnectionProfile> &after);

// The password a profile saved with password_env gets from `env` when `load` reads it (the
// variable AppConfig::passwordVariable names); nothing when that variable is not set. What the
// profile editor tests and switches with, so a test cannot pass on a password the saved
// profile would not use.
std::optional<QString>
environmentPassword(const ConnectionProfile &profile,
                    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

// Writes the three profiles into `path` (created with its folder when missing); messages
// always share the orders database (DESIGN.md §1). Comments inside the three rewritten
// sections are not kept. The file is replaced atomically, and only after the new text
// has been read back with the rules of AppConfig::load, keeping the old file's mode, owner
// and group; when the owner and group cannot be kept (Forbidden, reason "owner_not_kept")
// nothing is saved.
Result<void> save(const QString &path, const ConnectionProfile &orders,
                  const ConnectionProfile &audit);

} // namespace OncePay::ProfileStore
