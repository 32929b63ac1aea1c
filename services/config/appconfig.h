#pragma once

// The configuration of one OncePay process: three connection profiles, logging, and the
// per-channel settings the adapters read. Loaded once at start-up by app/ and passed down;
// services never read files or the environment for configuration themselves.
// Thread contract: plain value.

#include "connectionprofile.h"
#include "core/result.h"

#include <QMap>
#include <QProcessEnvironment>
#include <QString>

#include <optional>

namespace OncePay {

struct AppConfig {
    // The configuration file: --config, else $ONCEPAY_CONFIG, else defaultConfigPath(), as an
    // absolute path, kept when no file is there yet (the profile editor saves to it).
    QString sourcePath;
    bool fromFile = false; // a file was read at sourcePath (else defaults and environment)
    QString dataDir;       // where the embedded SQLite files and logs live
    ConnectionProfile orders;
    ConnectionProfile messages;
    ConnectionProfile audit;
    QString logLevel = QStringLiteral("info");
    QString logFile; // rotating file; empty = <dataDir>/logs/oncepay.log
    // [channel.stripe|fedapay|kakaopay|paypal] sections, with ONCEPAY_<NAME>_<KEY>
    // environment overrides applied.
    QMap<QString, QMap<QString, QString>> channels;
    // [worker] section: lease_seconds, max_attempts, backoff_base_ms, backoff_max_ms, batch.
    // `load` refuses backoff_base_ms above backoff_max_ms (Invalid, "out_of_order").
    QMap<QString, QString> worker;
    // [seal] section: key_file (Ed25519 secret key used by `audit seal`, default
    // <dataDir>/keys/audit-seal.key), public_key_file (what auditors verify with).
    QMap<QString, QString> seal;
    // [gateway] section: listen, max_body_bytes, batch_wait_ms.
    QMap<QString, QString> gateway;

    const ConnectionProfile &profile(DbRole role) const;

    // Default config file: $XDG_CONFIG_HOME/oncepay/oncepay.ini.
    static QString defaultConfigPath();
    // Default data directory: $XDG_DATA_HOME/oncepay.
    static QString defaultDataDir();

    // Precedence: explicit path (--config) > $ONCEPAY_CONFIG > default path; then
    // ONCEPAY_* environment variables override single keys. A missing file means
    // defaults (embedded SQLite); a malformed one is an error naming the line, and so is an
    // unknown section or key (README's configuration reference) or a whole-number key
    // ([worker], tolerance_seconds) that is not one in range; a channel variable
    // (ONCEPAY_STRIPE_<KEY>) naming no key of its section is an error naming the variable.
    static Result<AppConfig>
    load(const QString &explicitPath,
         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

    // One [orders|messages|audit] section as `load` reads it, with ONCEPAY_<ROLE>_<KEY>
    // overrides from `env`; the error names the section and the key. Used by the console's
    // profile editor to check a profile with the very rules of `load`.
    static Result<ConnectionProfile> profileFromSection(DbRole role,
                                                        const QMap<QString, QString> &section,
                                                        const QProcessEnvironment &env);

    // The environment variable `load` takes a profile's password from: its password_env, else
    // ONCEPAY_<ROLE>_PASSWORD.
    static QString passwordVariable(const ConnectionProfile &profile);

    // The keys a section outside the connection profiles may hold (README's configuration
    // reference); empty for a section `load` does not know. GatewayOptions reads [gateway]'s.
    static QStringList sectionKeys(const QString &section);

    // The values a whole-number key takes, `load` refusing any other with the line it is on;
    // none for a key that is no number. GatewayOptions reads [gateway]'s numbers in these.
    struct NumberRange {
        qint64 min = 0;
        qint64 max = 0;
    };
    static std::optional<NumberRange> numberRange(const QString &section, const QString &key);

    // What `load` would produce with no file and no environment.
    static AppConfig defaults(const QString &dataDir);
};

} // namespace OncePay
