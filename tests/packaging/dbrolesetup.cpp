#include "dbrolesetup.h"

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>
#include <QTextStream>

namespace OncePay::Test {

namespace {

QString randomPassword()
{
    return QStringLiteral("roles-%1").arg(QRandomGenerator::global()->generate64(), 0, 16);
}

ConnectionProfile as(const ConnectionProfile &base, const QString &user, const QString &password)
{
    ConnectionProfile p = base;
    p.user = user;
    p.password = password;
    return p;
}

const QString kSqlDir = QStringLiteral(ONCEPAY_SOURCE_DIR "/packaging/sql/");

} // namespace

QString readGrantScript(const QString &name)
{
    QFile f(kSqlDir + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

QStringList scriptStatements(const QString &script)
{
    QStringList out;
    QString current;
    bool inBody = false;
    for (const QString &line : script.split(u'\n')) {
        const QString t = line.trimmed();
        if (!inBody && (t.isEmpty() || t.startsWith(QStringLiteral("--"))))
            continue;
        current += line + u'\n';
        if (t.count(QStringLiteral("$$")) % 2 == 1)
            inBody = !inBody;
        if (!inBody && t.endsWith(u';')) {
            current = current.trimmed();
            current.chop(1);
            out << current;
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        out << current.trimmed();
    return out;
}

QString runGrantScript(const ConnectionProfile &profile, const QString &name)
{
    const QString text = readGrantScript(name);
    if (text.isEmpty())
        return QStringLiteral("cannot read %1%2").arg(kSqlDir, name);
    auto c = Connection::open(profile, QStringLiteral("roles-script"));
    if (!c)
        return name + QStringLiteral(": ") + c.error().message;
    for (const QString &s : scriptStatements(text))
        if (auto r = Sql::exec(c->db(), s); !r)
            return name + QStringLiteral(": ") + r.error().message;
    return {};
}

ConnectionProfile DbRoleLogins::profile(const ScratchDatabases &dbs, const char *role,
                                        DbRole database) const
{
    return as(database == DbRole::Audit ? dbs.audit() : dbs.orders(),
              QStringLiteral("oncepay_") + QLatin1String(role),
              passwords.value(QLatin1String(role)));
}

void setUpDbRoles(const ScratchDatabases &dbs, DbRoleLogins *roles)
{
    const bool pg = dbs.dialect() == Dialect::Postgres;
    const QString prefix = pg ? QStringLiteral("postgresql") : QStringLiteral("mysql");
    const ConnectionProfile admin = serverProfile(dbs.dialect(), DbRole::Orders);
    ConnectionProfile server = admin;
    if (pg)
        server.database = QStringLiteral("postgres");

    for (int run = 0; run < 2; ++run) {
        const QString problem = runGrantScript(server, prefix + "-roles.sql");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    {
        auto c = Connection::open(server, QStringLiteral("roles-admin"));
        QVERIFY(c.ok());
        for (const char *r : {"owner", "engine", "console", "desk", "auditor"}) {
            const QString user = QStringLiteral("oncepay_") + QLatin1String(r);
            const QString password = randomPassword();
            roles->passwords[QLatin1String(r)] = password;
            const QString sql =
                pg ? QStringLiteral("ALTER ROLE %1 PASSWORD '%2'").arg(user, password)
                   : QStringLiteral("ALTER USER '%1'@'%' IDENTIFIED BY '%2' ACCOUNT UNLOCK")
                         .arg(user, password);
            auto done = Sql::exec(c->db(), sql);
            QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        }
        for (const ConnectionProfile *p : {&dbs.orders(), &dbs.audit()}) {
            const QString sql =
                pg ? QStringLiteral("ALTER DATABASE %1 OWNER TO oncepay_owner").arg(p->database)
                   : QStringLiteral("GRANT ALL PRIVILEGES ON %1.* TO 'oncepay_owner'@'%'")
                         .arg(p->database);
            auto done = Sql::exec(c->db(), sql);
            QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        }
    }
    for (DbRole database : {DbRole::Orders, DbRole::Audit}) {
        auto c = Connection::open(roles->profile(dbs, "owner", database), QStringLiteral("owner"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        auto m = Migrator::migrate(*c);
        QVERIFY2(m.ok(), qPrintable(m.ok() ? QString() : m.error().message));
        QVERIFY(m->after > 0);
    }
    for (int run = 0; run < 2; ++run) {
        const QString problem = applyGrantScripts(dbs, *roles);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
}

QString applyGrantScripts(const ScratchDatabases &dbs, const DbRoleLogins &roles)
{
    const bool pg = dbs.dialect() == Dialect::Postgres;
    for (DbRole database : {DbRole::Orders, DbRole::Audit}) {
        ConnectionProfile target;
        if (pg) {
            target = roles.profile(dbs, "owner", database);
        } else {
            target = serverProfile(dbs.dialect(), DbRole::Orders);
            target.database = (database == DbRole::Audit ? dbs.audit() : dbs.orders()).database;
        }
        const QString problem = runGrantScript(
            target, QStringLiteral("%1-%2-grants.sql")
                        .arg(pg ? QStringLiteral("postgresql") : QStringLiteral("mysql"),
                             roleName(database)));
        if (!problem.isEmpty())
            return problem;
    }
    return {};
}

QString writeRoleConfig(const ScratchDatabases &dbs, const DbRoleLogins &roles, const char *role)
{
    const QString config = dbs.tempPath() + QStringLiteral("/%1.ini").arg(QLatin1String(role));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    QTextStream out(&f);
    out << "[general]\ndata_dir = " << dbs.tempPath() << "\n";
    for (DbRole database : {DbRole::Orders, DbRole::Audit}) {
        const ConnectionProfile p = roles.profile(dbs, role, database);
        out << "\n[" << roleName(database) << "]\ndriver = " << dialectName(p.dialect)
            << "\nhost = " << p.host << "\nport = " << p.port << "\ndatabase = " << p.database
            << "\nuser = " << p.user << "\n";
    }
    out << "\n[messages]\nsame_as = orders\n\n[log]\nfile = " << dbs.tempPath() << '/' << role
        << ".log\n";
    return config;
}

QProcessEnvironment roleEnvironment(const DbRoleLogins &roles, const char *role)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("ONCEPAY_ORDERS_PASSWORD"),
               roles.passwords.value(QLatin1String(role)));
    env.insert(QStringLiteral("ONCEPAY_AUDIT_PASSWORD"),
               roles.passwords.value(QLatin1String(role)));
    return env;
}

} // namespace OncePay::Test
