#include "profilestore.h"

#include "inifile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace OncePay::ProfileStore {

namespace {

const QStringList kProfileSections{QStringLiteral("orders"), QStringLiteral("messages"),
                                   QStringLiteral("audit")};

QString sectionText(const QString &name, const QMap<QString, QString> &values)
{
    QString out = QStringLiteral("[%1]\n").arg(name);
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        out += QStringLiteral("%1 = %2\n").arg(it.key(), it.value());
    return out;
}

// A value that would not survive the INI reader (line breaks) is refused rather than mangled.
Result<void> checkValues(const QMap<QString, QString> &values, DbRole role)
{
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        if (it.value().contains(u'\n') || it.value().contains(u'\r'))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("[%1] %2 may not contain a line break")
                                 .arg(roleName(role), it.key()));
    return {};
}

QString ownerName(uid_t uid)
{
    const passwd *pw = ::getpwuid(uid);
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString::number(uid);
}

QString groupName(gid_t gid)
{
    const group *gr = ::getgrgid(gid);
    return gr ? QString::fromLocal8Bit(gr->gr_name) : QString::number(gid);
}

} // namespace

QMap<QString, QString> toSection(const ConnectionProfile &p)
{
    QMap<QString, QString> v;
    if (p.role == DbRole::Messages && p.sameAsOrders) {
        v.insert(QStringLiteral("same_as"), QStringLiteral("orders"));
        return v;
    }
    v.insert(QStringLiteral("driver"), dialectName(p.dialect));
    if (p.dialect == Dialect::Sqlite) {
        v.insert(QStringLiteral("path"), p.path.trimmed());
    } else {
        v.insert(QStringLiteral("host"), p.host.trimmed());
        if (p.port)
            v.insert(QStringLiteral("port"), QString::number(p.port));
        v.insert(QStringLiteral("database"), p.database.trimmed());
        if (!p.user.trimmed().isEmpty())
            v.insert(QStringLiteral("user"), p.user.trimmed());
        if (!p.passwordEnv.trimmed().isEmpty())
            v.insert(QStringLiteral("password_env"), p.passwordEnv.trimmed());
        if (!p.passwordKeychain.trimmed().isEmpty())
            v.insert(QStringLiteral("password_keychain"), p.passwordKeychain.trimmed());
    }
    if (!p.options.trimmed().isEmpty())
        v.insert(QStringLiteral("options"), p.options.trimmed());
    return v;
}

Result<void> validate(const ConnectionProfile &profile)
{
    const QMap<QString, QString> section = toSection(profile);
    if (auto r = checkValues(section, profile.role); !r)
        return r;
    if (profile.dialect != Dialect::Sqlite && !profile.sameAsOrders &&
        profile.host.trimmed().isEmpty())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("[%1] %2 needs 'host'")
                             .arg(roleName(profile.role), dialectName(profile.dialect)));
    auto parsed = AppConfig::profileFromSection(profile.role, section, QProcessEnvironment());
    if (!parsed)
        return parsed.error();
    return {};
}

QString keychainKey(const ConnectionProfile &p)
{
    return QStringLiteral("%1/%2@%3:%4/%5")
        .arg(roleName(p.role), p.user.trimmed(), p.host.trimmed())
        .arg(p.port)
        .arg(p.database.trimmed());
}

QStringList staleKeychainEntries(const QList<ConnectionProfile> &before,
                                 const QList<ConnectionProfile> &after)
{
    QStringList kept;
    for (const ConnectionProfile &p : after)
        if (p.dialect != Dialect::Sqlite && !p.sameAsOrders && !p.passwordKeychain.isEmpty())
            kept << p.passwordKeychain;
    QStringList stale;
    for (const ConnectionProfile &p : before)
        if (!p.passwordKeychain.isEmpty() && !kept.contains(p.passwordKeychain) &&
            !stale.contains(p.passwordKeychain))
            stale << p.passwordKeychain;
    return stale;
}

std::optional<QString> environmentPassword(const ConnectionProfile &profile,
                                           const QProcessEnvironment &env)
{
    const QString var = AppConfig::passwordVariable(profile);
    if (!env.contains(var))
        return std::nullopt;
    return env.value(var);
}

Result<void> save(const QString &path, const ConnectionProfile &orders,
                  const ConnectionProfile &audit)
{
    ConnectionProfile messages;
    messages.role = DbRole::Messages;
    messages.sameAsOrders = true;
    for (const ConnectionProfile *p : {&orders, &audit})
        if (auto r = validate(*p); !r)
            return r;
    const QMap<QString, QString> sections[] = {toSection(orders), toSection(messages),
                                               toSection(audit)};

    QString old;
    if (QFileInfo::exists(path)) {
        QFile in(path);
        if (!in.open(QIODevice::ReadOnly))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("cannot read %1: %2").arg(path, in.errorString()));
        old = QString::fromUtf8(in.readAll());
    }
    // Keep every line outside the three profile sections; put each rewritten section where
    // its old one was, or at the end.
    static const QRegularExpression header(QStringLiteral(R"(^\s*\[([A-Za-z0-9_.\-]+)\]\s*$)"));
    QStringList out;
    QList<bool> written(3, false);
    bool skipping = false;
    const QStringList lines = old.isEmpty() ? QStringList() : old.split(u'\n');
    for (const QString &line : lines) {
        if (const auto m = header.match(line); m.hasMatch()) {
            const qsizetype i = kProfileSections.indexOf(m.captured(1).toLower());
            skipping = i >= 0;
            if (skipping) {
                if (!written[i])
                    out << sectionText(kProfileSections[i], sections[i]);
                written[i] = true;
                continue;
            }
        }
        if (!skipping)
            out << line;
    }
    while (!out.isEmpty() && out.last().trimmed().isEmpty())
        out.removeLast();
    for (int i = 0; i < 3; ++i)
        if (!written[i])
            out << QString() << sectionText(kProfileSections[i], sections[i]);
    QString text = out.join(u'\n');
    if (!text.endsWith(u'\n'))
        text += u'\n';

    // Read the new text back with the loader's rules before replacing anything.
    auto ini = IniFile::parse(text, path);
    if (!ini)
        return ini.error();
    for (int i = 0; i < 3; ++i) {
        auto back = AppConfig::profileFromSection(DbRole(i), ini->section(kProfileSections[i]),
                                                  QProcessEnvironment());
        if (!back)
            return back.error();
    }

    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("cannot create the folder of %1").arg(path));
    // QSaveFile writes a new file and renames it over the old one: it keeps the mode but the
    // new file belongs to whoever saves. The old owner and group are put on it before it
    // replaces the old one (a 0640 root:oncepay /etc/oncepay/oncepay.ini must stay readable
    // by the oncepay units), or nothing is saved.
    struct stat old_ {};
    const bool hadFile = ::stat(QFile::encodeName(path).constData(), &old_) == 0;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.flush())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    if (hadFile && ::fchown(file.handle(), old_.st_uid, old_.st_gid) != 0) {
        const int error = errno;
        file.cancelWriting();
        spdlog::warn("connection profiles not saved to {}: cannot keep its owner {} and group {}:"
                     " {}",
                     path.toStdString(), old_.st_uid, old_.st_gid, std::strerror(error));
        return makeError(ErrorCode::Forbidden,
                         QStringLiteral("cannot keep the owner and group of %1 (%2:%3): %4; "
                                        "nothing was saved")
                             .arg(path, ownerName(old_.st_uid), groupName(old_.st_gid),
                                  QString::fromLocal8Bit(std::strerror(error))),
                         QStringLiteral("owner_not_kept"));
    }
    if (!file.commit())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    spdlog::info("connection profiles saved to {}: orders {}, audit {}", path.toStdString(),
                 orders.describe().toStdString(), audit.describe().toStdString());
    return {};
}

} // namespace OncePay::ProfileStore
