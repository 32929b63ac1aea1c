#include "appconfig.h"

#include "inifile.h"
#include "logging/logging.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <spdlog/spdlog.h>

#include <functional>
#include <limits>

namespace OncePay {

namespace {

const QStringList kProfileKeys = {
    QStringLiteral("driver"),       QStringLiteral("path"),
    QStringLiteral("host"),         QStringLiteral("port"),
    QStringLiteral("database"),     QStringLiteral("user"),
    QStringLiteral("password_env"), QStringLiteral("options"),
    QStringLiteral("same_as"),      QStringLiteral("password_keychain")};

// The keys of every section outside the connection profiles (kProfileKeys): README's
// configuration reference. A key not listed is an error naming its line, as a typo'd profile
// key is, never a silently ignored setting — in `db check` and every other command, not only in
// the command that uses the section. [gateway]'s listen address is checked when the gateway
// starts (GatewayOptions::parseListen); its numbers here (numberKeys).
const QMap<QString, QStringList> &knownSectionKeys()
{
    static const QStringList signedChannel = {QStringLiteral("webhook_secret"),
                                              QStringLiteral("webhook_secrets"),
                                              QStringLiteral("tolerance_seconds")};
    static const QMap<QString, QStringList> keys = {
        {QStringLiteral("general"), {QStringLiteral("data_dir")}},
        {QStringLiteral("log"), {QStringLiteral("level"), QStringLiteral("file")}},
        {QStringLiteral("worker"),
         {QStringLiteral("lease_seconds"), QStringLiteral("max_attempts"),
          QStringLiteral("backoff_base_ms"), QStringLiteral("backoff_max_ms"),
          QStringLiteral("batch")}},
        {QStringLiteral("seal"), {QStringLiteral("key_file"), QStringLiteral("public_key_file")}},
        {QStringLiteral("gateway"),
         {QStringLiteral("listen"), QStringLiteral("batch_wait_ms"), QStringLiteral("max_batch"),
          QStringLiteral("max_queue"), QStringLiteral("max_body_bytes"),
          QStringLiteral("max_connections"), QStringLiteral("read_timeout_ms"),
          QStringLiteral("idle_timeout_ms"), QStringLiteral("drain_timeout_ms")}},
        {QStringLiteral("channel.stripe"), signedChannel},
        {QStringLiteral("channel.fedapay"), signedChannel},
        {QStringLiteral("channel.kakaopay"), signedChannel},
        {QStringLiteral("channel.paypal"),
         {QStringLiteral("webhook_id"), QStringLiteral("cert_file"),
          QStringLiteral("tolerance_seconds")}}};
    return keys;
}

// Whole-number keys: the lowest and highest value each takes. The worker reads its keys as a
// whole number above 0 (Worker::policyFrom; the ops settings' own bounds apply only to what
// is stored in ops_settings), `gateway --with-worker` a batch of 1 to 1000; a channel's
// tolerance is at most a week (ChannelRegistry::settingsFor); the gateway's bounds are what its
// queue, batches and time-outs can be set to (GatewayOptions::fromConfig reads them here).
struct NumberKey {
    QString section; // "channel." for every channel
    QString key;
    qint64 min;
    qint64 max;
};
const QList<NumberKey> &numberKeys()
{
    constexpr qint64 kUnbounded = std::numeric_limits<qint64>::max();
    static const QList<NumberKey> keys = {
        {QStringLiteral("worker"), QStringLiteral("lease_seconds"), 1, kUnbounded},
        {QStringLiteral("worker"), QStringLiteral("max_attempts"), 1, kUnbounded},
        {QStringLiteral("worker"), QStringLiteral("backoff_base_ms"), 1, kUnbounded},
        {QStringLiteral("worker"), QStringLiteral("backoff_max_ms"), 1, kUnbounded},
        {QStringLiteral("worker"), QStringLiteral("batch"), 1, 1000},
        {QStringLiteral("channel."), QStringLiteral("tolerance_seconds"), 1, 7 * 24 * 3600},
        {QStringLiteral("gateway"), QStringLiteral("batch_wait_ms"), 0, 1000},
        {QStringLiteral("gateway"), QStringLiteral("max_batch"), 1, 5000},
        {QStringLiteral("gateway"), QStringLiteral("max_queue"), 1, 1000000},
        {QStringLiteral("gateway"), QStringLiteral("max_body_bytes"), 1024, 64 * 1024 * 1024},
        {QStringLiteral("gateway"), QStringLiteral("max_connections"), 1, 100000},
        {QStringLiteral("gateway"), QStringLiteral("read_timeout_ms"), 100, 3600000},
        {QStringLiteral("gateway"), QStringLiteral("idle_timeout_ms"), 100, 3600000},
        {QStringLiteral("gateway"), QStringLiteral("drain_timeout_ms"), 0, 3600000}};
    return keys;
}

const NumberKey *numberKey(const QString &section, const QString &key)
{
    for (const NumberKey &n : numberKeys())
        if (n.key == key &&
            (section == n.section || (n.section.endsWith(u'.') && section.startsWith(n.section))))
            return &n;
    return nullptr;
}

Error unknownKey(const QString &where, const QString &section, const QString &key)
{
    return makeError(ErrorCode::Invalid,
                     QStringLiteral("%1[%2] unknown key '%3'").arg(where, section, key));
}

// A whole-number key's value, refused with where it came from when it is not one in range.
Result<void> checkNumber(const QString &where, const QString &section, const QString &key,
                         const QString &value)
{
    const NumberKey *n = numberKey(section, key);
    if (!n)
        return {};
    bool ok = false;
    const qint64 v = value.trimmed().toLongLong(&ok);
    if (ok && v >= n->min && v <= n->max)
        return {};
    const QString range = n->max == std::numeric_limits<qint64>::max()
                              ? QStringLiteral("above %1").arg(n->min - 1)
                              : QStringLiteral("from %1 to %2").arg(n->min).arg(n->max);
    return makeError(ErrorCode::Invalid, QStringLiteral("%1[%2] %3 '%4' is not a whole number %5")
                                             .arg(where, section, key, value.left(40), range));
}

// Where a profile's key came from, for its errors: "file:line: " for a key of the file, "file: "
// for what no line of it holds; empty for a profile not read from a file.
using KeyLocation = std::function<QString(const QString &key)>;

Error roleError(DbRole role, const QString &why, const QString &where = {})
{
    return makeError(ErrorCode::Invalid,
                     QStringLiteral("%1[%2] %3").arg(where, roleName(role), why));
}

// Applies one section of the file and then ONCEPAY_<ROLE>_<KEY> variables to a profile.
Result<void> applyProfile(ConnectionProfile &p, const QMap<QString, QString> &section,
                          const QProcessEnvironment &env, const KeyLocation &at = {})
{
    const auto where = [&at](const QString &key) { return at ? at(key) : QString(); };
    QMap<QString, QString> values = section;
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (it.key() == u"password")
            return roleError(p.role,
                             QStringLiteral("passwords are never stored in the config "
                                            "file; set password_env or ONCEPAY_%1_PASSWORD")
                                 .arg(roleName(p.role).toUpper()),
                             where(it.key()));
        if (!kProfileKeys.contains(it.key()))
            return unknownKey(where(it.key()), roleName(p.role), it.key());
    }
    const QString prefix = QStringLiteral("ONCEPAY_%1_").arg(roleName(p.role).toUpper());
    for (const QString &key : kProfileKeys) {
        const QString var = prefix + key.toUpper();
        if (env.contains(var))
            values[key] = env.value(var);
    }

    if (values.contains(QStringLiteral("same_as"))) {
        const QString target = values.value(QStringLiteral("same_as")).toLower();
        if (p.role != DbRole::Messages || target != u"orders")
            return roleError(p.role, QStringLiteral("same_as may only be 'orders', on [messages]"),
                             where(QStringLiteral("same_as")));
        p.sameAsOrders = true;
    }
    if (values.contains(QStringLiteral("driver"))) {
        if (!parseDialect(values.value(QStringLiteral("driver")), &p.dialect))
            return roleError(p.role,
                             QStringLiteral("unknown driver '%1' (sqlite, postgresql, mysql)")
                                 .arg(values.value(QStringLiteral("driver"))),
                             where(QStringLiteral("driver")));
        if (p.dialect != Dialect::Sqlite && p.port == 0)
            p.port = p.dialect == Dialect::Postgres ? 5432 : 3306;
        if (p.role == DbRole::Messages)
            p.sameAsOrders = values.contains(QStringLiteral("same_as"));
    }
    if (values.contains(QStringLiteral("path")))
        p.path = values.value(QStringLiteral("path"));
    if (values.contains(QStringLiteral("host")))
        p.host = values.value(QStringLiteral("host"));
    if (values.contains(QStringLiteral("port"))) {
        bool ok = false;
        const int port = values.value(QStringLiteral("port")).toInt(&ok);
        if (!ok || port <= 0 || port > 65535)
            return roleError(p.role,
                             QStringLiteral("port '%1' is not a TCP port")
                                 .arg(values.value(QStringLiteral("port"))),
                             where(QStringLiteral("port")));
        p.port = port;
    }
    if (values.contains(QStringLiteral("database")))
        p.database = values.value(QStringLiteral("database"));
    if (values.contains(QStringLiteral("user")))
        p.user = values.value(QStringLiteral("user"));
    if (values.contains(QStringLiteral("options"))) {
        // A password in the driver options would sit in the file (or the environment) in
        // clear: refused, naming the option and where it came from, never its value.
        const QString options = values.value(QStringLiteral("options"));
        if (const QString secret = secretOption(options); !secret.isEmpty()) {
            const QString var = prefix + QStringLiteral("OPTIONS");
            const bool fromEnv = env.contains(var);
            const QString source = fromEnv ? var : QStringLiteral("options");
            spdlog::warn("{} profile: option '{}' in {} refused: it would carry a secret",
                         roleName(p.role).toStdString(), secret.toStdString(),
                         source.toStdString());
            return makeError(
                ErrorCode::Invalid,
                QStringLiteral("%4[%1] %2: the option '%3' would carry a secret, and the "
                               "configuration is plain text; remove it and give the password "
                               "through password_env, the keychain (password_keychain) or at "
                               "start")
                    .arg(roleName(p.role), source, secret,
                         fromEnv ? QString() : where(QStringLiteral("options"))),
                QStringLiteral("secret_in_options"));
        }
        p.options = options;
    }

    p.passwordEnv = values.value(QStringLiteral("password_env"));
    p.passwordKeychain = values.value(QStringLiteral("password_keychain")).trimmed();
    const QString passwordVar = AppConfig::passwordVariable(p);
    if (env.contains(passwordVar))
        p.password = env.value(passwordVar);

    if (p.dialect != Dialect::Sqlite && !p.sameAsOrders) {
        if (p.host.isEmpty())
            p.host = QStringLiteral("127.0.0.1");
        if (p.database.isEmpty())
            return roleError(p.role,
                             QStringLiteral("%1 needs 'database'").arg(dialectName(p.dialect)),
                             where({}));
    }
    if (p.dialect == Dialect::Sqlite && p.path.isEmpty() && !p.sameAsOrders)
        return roleError(p.role, QStringLiteral("sqlite needs 'path'"), where({}));
    return {};
}

} // namespace

Result<ConnectionProfile> AppConfig::profileFromSection(DbRole role,
                                                        const QMap<QString, QString> &section,
                                                        const QProcessEnvironment &env)
{
    ConnectionProfile p;
    p.role = role;
    p.sameAsOrders = role == DbRole::Messages && section.isEmpty();
    if (auto r = applyProfile(p, section, env); !r)
        return r.error();
    return p;
}

QString AppConfig::passwordVariable(const ConnectionProfile &profile)
{
    return profile.passwordEnv.isEmpty()
               ? QStringLiteral("ONCEPAY_%1_PASSWORD").arg(roleName(profile.role).toUpper())
               : profile.passwordEnv;
}

const ConnectionProfile &AppConfig::profile(DbRole role) const
{
    switch (role) {
    case DbRole::Orders: return orders;
    case DbRole::Messages: return messages.sameAsOrders ? orders : messages;
    case DbRole::Audit: return audit;
    }
    return orders;
}

QString AppConfig::defaultConfigPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/oncepay/oncepay.ini");
}

QString AppConfig::defaultDataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/oncepay");
}

QStringList AppConfig::sectionKeys(const QString &section)
{
    return knownSectionKeys().value(section);
}

std::optional<AppConfig::NumberRange> AppConfig::numberRange(const QString &section,
                                                             const QString &key)
{
    const NumberKey *n = numberKey(section, key);
    return n ? std::optional(NumberRange{n->min, n->max}) : std::nullopt;
}

AppConfig AppConfig::defaults(const QString &dataDir)
{
    AppConfig c;
    c.dataDir = dataDir;
    c.orders.role = DbRole::Orders;
    c.orders.path = QDir(dataDir).filePath(QStringLiteral("orders.db"));
    c.messages.role = DbRole::Messages;
    c.messages.sameAsOrders = true;
    c.audit.role = DbRole::Audit;
    c.audit.path = QDir(dataDir).filePath(QStringLiteral("audit.db"));
    return c;
}

Result<AppConfig> AppConfig::load(const QString &explicitPath, const QProcessEnvironment &env)
{
    QString path = explicitPath;
    if (path.isEmpty())
        path = env.value(QStringLiteral("ONCEPAY_CONFIG"));
    if (path.isEmpty())
        path = defaultConfigPath();

    IniFile ini;
    bool fromFile = false;
    if (QFileInfo::exists(path)) {
        auto parsed = IniFile::load(path);
        if (!parsed)
            return parsed.error();
        ini = std::move(parsed).value();
        fromFile = true;
    }

    QString dataDir = env.value(QStringLiteral("ONCEPAY_DATA_DIR"),
                                ini.value(QStringLiteral("general"), QStringLiteral("data_dir")));
    if (dataDir.isEmpty())
        dataDir = defaultDataDir();

    AppConfig c = defaults(dataDir);
    // Kept when no file is there yet: the console's profile editor saves to it.
    c.sourcePath = QFileInfo(path).absoluteFilePath();
    c.fromFile = fromFile;

    static const QStringList known = {QStringLiteral("general"),  QStringLiteral("orders"),
                                      QStringLiteral("messages"), QStringLiteral("audit"),
                                      QStringLiteral("log"),      QStringLiteral("worker"),
                                      QStringLiteral("seal"),     QStringLiteral("gateway")};
    // Errors name the file and the line they are about (IniFile::line).
    const auto at = [&path, &ini](const QString &section, const QString &key) {
        const int line = ini.line(section, key) > 0 ? ini.line(section, key) : ini.line(section);
        return line > 0 ? QStringLiteral("%1:%2: ").arg(path).arg(line)
                        : path + QStringLiteral(": ");
    };
    for (const QString &s : ini.sections()) {
        if (!known.contains(s) && !knownSectionKeys().contains(s))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("%1unknown section [%2]").arg(at(s, {}), s));
        if (!knownSectionKeys().contains(s))
            continue; // a profile's keys are applyProfile's
        const QMap<QString, QString> values = ini.section(s);
        for (auto it = values.cbegin(); it != values.cend(); ++it) {
            if (!knownSectionKeys().value(s).contains(it.key()))
                return unknownKey(at(s, it.key()), s, it.key());
            if (auto r = checkNumber(at(s, it.key()), s, it.key(), it.value()); !r)
                return r.error();
        }
    }

    for (ConnectionProfile *p : {&c.orders, &c.messages, &c.audit}) {
        const QString section = roleName(p->role);
        if (auto r = applyProfile(*p, ini.section(section), env,
                                  [&at, &section](const QString &key) { return at(section, key); });
            !r)
            return r.error();
    }

    // The worker claims a message, moves the order and books money in one local transaction,
    // so the message table cannot live anywhere but the orders database (DESIGN.md §1).
    if (!c.messages.sameAsOrders && !c.messages.sameDatabaseAs(c.orders))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1: [messages] must be the orders database (same_as = "
                                        "orders): the message table commits with the orders")
                             .arg(path));
    if (!c.messages.sameAsOrders)
        c.messages.sameAsOrders = true;

    c.logLevel = env.value(QStringLiteral("ONCEPAY_LOG_LEVEL"),
                           ini.value(QStringLiteral("log"), QStringLiteral("level"), c.logLevel));
    if (!Logging::isValidLevel(c.logLevel)) {
        const bool fromEnv = env.contains(QStringLiteral("ONCEPAY_LOG_LEVEL"));
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1unknown log level '%2' (trace, debug, info, warn, "
                                        "error, critical, off)")
                             .arg(fromEnv ? QStringLiteral("ONCEPAY_LOG_LEVEL: ")
                                          : at(QStringLiteral("log"), QStringLiteral("level")),
                                  c.logLevel.left(40)));
    }
    c.logFile = env.value(QStringLiteral("ONCEPAY_LOG_FILE"),
                          ini.value(QStringLiteral("log"), QStringLiteral("file")));
    if (c.logFile.isEmpty())
        c.logFile = QDir(dataDir).filePath(QStringLiteral("logs/oncepay.log"));
    c.worker = ini.section(QStringLiteral("worker"));
    // The worker waits min(backoff_max_ms, backoff_base_ms * 2^n) before a retry (both read as
    // Worker::policyFrom reads them: a whole number above 0, else the ops setting), so a base
    // above the maximum makes every retry wait only the maximum and turns a short outage into
    // dead letters. The settings service refuses the same pair out of order in ops_settings.
    {
        bool baseOk = false;
        bool maxOk = false;
        const qint64 base =
            c.worker.value(QStringLiteral("backoff_base_ms")).trimmed().toLongLong(&baseOk);
        const qint64 max =
            c.worker.value(QStringLiteral("backoff_max_ms")).trimmed().toLongLong(&maxOk);
        if (baseOk && maxOk && base > 0 && max > 0 && base > max)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("%1: [worker] backoff_base_ms (%2) may not be above"
                                            " backoff_max_ms (%3)")
                                 .arg(path)
                                 .arg(base)
                                 .arg(max),
                             QStringLiteral("out_of_order"));
    }
    c.seal = ini.section(QStringLiteral("seal"));
    c.gateway = ini.section(QStringLiteral("gateway"));

    for (const QString &s : ini.sections())
        if (s.startsWith(QStringLiteral("channel.")))
            c.channels[s.mid(8)] = ini.section(s);
    // ONCEPAY_STRIPE_WEBHOOK_SECRET etc. override or supply channel keys.
    for (const QString &channel : {QStringLiteral("stripe"), QStringLiteral("paypal"),
                                   QStringLiteral("fedapay"), QStringLiteral("kakaopay")}) {
        const QString prefix = QStringLiteral("ONCEPAY_%1_").arg(channel.toUpper());
        const QString section = QStringLiteral("channel.") + channel;
        for (const QString &var : env.keys()) {
            if (!var.startsWith(prefix))
                continue;
            const QString key = var.mid(prefix.size()).toLower();
            const QString where = var + QStringLiteral(": ");
            if (!knownSectionKeys().value(section).contains(key))
                return unknownKey(where, section, key);
            if (auto r = checkNumber(where, section, key, env.value(var)); !r)
                return r.error();
            c.channels[channel][key] = env.value(var);
        }
    }
    return c;
}

} // namespace OncePay
