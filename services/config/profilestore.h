#pragma once

// The console's connection-profile editor writes through here (issue 8): a profile is checked
// with the very rules AppConfig::load applies, and saving rewrites only the [orders],
// [messages] and [audit] sections of the configuration file, keeping every other section
// as it was. A password is never written: the file names where it comes from — an
// environment variable (password_env) or an OS keychain entry (password_keychain).
// Thread contract: plain functions; save() does file I/O on the calling thread.

#include "appconfig.h"
#include "core/result.h"

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

// Writes the three profiles into `path` (created with its folder when missing); messages
// always share the orders database (DESIGN.md §1). Comments inside the three rewritten
// sections are not kept. The file is replaced atomically, and only after the new text
// has been read back with the rules of AppConfig::load.
Result<void> save(const QString &path, const ConnectionProfile &orders,
                  const ConnectionProfile &audit);

} // namespace OncePay::ProfileStore
