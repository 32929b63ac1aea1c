#include "testdatabases.h"

#include "db/connection.h"
#include "db/sql.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QFile>
#include <QRandomGenerator>
#include <QTextStream>

namespace OncePay::Test {

namespace {

QString envPrefix(Dialect d)
{
    return d == Dialect::Postgres ? QStringLiteral("ONCEPAY_TEST_PG_")
                                  : QStringLiteral("ONCEPAY_TEST_MYSQL_");
}

QString env(Dialect d, const char *key)
{
    return qEnvironmentVariable(qPrintable(envPrefix(d) + QLatin1String(key)));
}

QString uniqueDbName(const char *role)
{
    static QAtomicInteger<int> counter;
    return QStringLiteral("oncepay_t_%1_%2_%3_%4")
        .arg(QCoreApplication::applicationPid())
        .arg(counter.fetchAndAddRelaxed(1))
        .arg(QRandomGenerator::global()->bounded(100000))
        .arg(QLatin1String(role));
}

Result<void> adminExec(Dialect d, const QString &sql)
{
    ConnectionProfile admin = serverProfile(d, DbRole::Orders);
    admin.database = d == Dialect::Postgres ? QStringLiteral("postgres") : QString();
    auto c = Connection::open(admin, QStringLiteral("test-admin"));
    if (!c)
        return c.error();
    auto r = Sql::exec(c->db(), sql);
    if (!r)
        return r.error();
    return {};
}

} // namespace

bool inCi()
{
    return qEnvironmentVariable("CI") == u"true";
}

void addEngineRows()
{
    QTest::addColumn<int>("dialect");
    QTest::newRow("sqlite") << int(Dialect::Sqlite);
    QTest::newRow("postgresql") << int(Dialect::Postgres);
    QTest::newRow("mariadb") << int(Dialect::MySql);
}

void addServerEngineRows()
{
    QTest::addColumn<int>("dialect");
    QTest::newRow("postgresql") << int(Dialect::Postgres);
    QTest::newRow("mariadb") << int(Dialect::MySql);
}

bool engineConfigured(Dialect dialect, QString *why)
{
    if (dialect == Dialect::Sqlite)
        return true;
    if (env(dialect, "HOST").isEmpty() || env(dialect, "PORT").isEmpty()) {
        *why = QStringLiteral("%1 server not configured (%2HOST/PORT unset; packaging/test.sh "
                              "starts one)")
                   .arg(dialectName(dialect), envPrefix(dialect));
        return false;
    }
    return true;
}

ConnectionProfile serverProfile(Dialect dialect, DbRole role)
{
    ConnectionProfile p;
    p.role = role;
    p.dialect = dialect;
    p.host = env(dialect, "HOST");
    p.port = env(dialect, "PORT").toInt();
    p.user = env(dialect, "USER");
    p.password = env(dialect, "PASSWORD");
    return p;
}

Result<std::unique_ptr<ScratchDatabases>> ScratchDatabases::create(Dialect dialect)
{
    std::unique_ptr<ScratchDatabases> s(new ScratchDatabases);
    s->m_dialect = dialect;
    if (!s->m_dir.isValid())
        return makeError(ErrorCode::Internal, QStringLiteral("no temporary directory"));
    if (dialect == Dialect::Sqlite) {
        s->m_orders.role = DbRole::Orders;
        s->m_orders.path = s->m_dir.filePath(QStringLiteral("orders.db"));
        s->m_audit.role = DbRole::Audit;
        s->m_audit.path = s->m_dir.filePath(QStringLiteral("audit.db"));
        return s;
    }
    for (auto [profile, role, name] : {std::tuple{&s->m_orders, DbRole::Orders, "orders"},
                                       std::tuple{&s->m_audit, DbRole::Audit, "audit"}}) {
        const QString db = uniqueDbName(name);
        const QString sql =
            dialect == Dialect::Postgres
                ? QStringLiteral("CREATE DATABASE %1 ENCODING 'UTF8' TEMPLATE template0").arg(db)
                : QStringLiteral("CREATE DATABASE %1 CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
                      .arg(db);
        if (auto r = adminExec(dialect, sql); !r)
            return r.error();
        s->m_created << db;
        *profile = serverProfile(dialect, role);
        profile->database = db;
    }
    return s;
}

ScratchDatabases::~ScratchDatabases()
{
    for (const QString &db : std::as_const(m_created)) {
        const QString sql = m_dialect == Dialect::Postgres
                                ? QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(db)
                                : QStringLiteral("DROP DATABASE IF EXISTS %1").arg(db);
        if (auto r = adminExec(m_dialect, sql); !r)
            qWarning("could not drop scratch database %s: %s", qPrintable(db),
                     qPrintable(r.error().message));
    }
}

AppConfig ScratchDatabases::config() const
{
    AppConfig c = AppConfig::defaults(m_dir.path());
    c.orders = m_orders;
    c.messages = m_orders;
    c.messages.role = DbRole::Messages;
    c.messages.sameAsOrders = true;
    c.audit = m_audit;
    c.logFile = m_dir.filePath(QStringLiteral("oncepay.log"));
    return c;
}

QString ScratchDatabases::writeConfigFile(QProcessEnvironment *environment) const
{
    const QString path = m_dir.filePath(QStringLiteral("oncepay.ini"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    QTextStream out(&f);
    out << "[general]\ndata_dir = " << m_dir.path() << "\n";
    for (const ConnectionProfile *p : {&m_orders, &m_audit}) {
        out << "\n[" << roleName(p->role) << "]\ndriver = " << dialectName(m_dialect) << '\n';
        if (m_dialect == Dialect::Sqlite) {
            out << "path = " << p->path << '\n';
        } else {
            out << "host = " << p->host << "\nport = " << p->port << "\ndatabase = " << p->database
                << "\nuser = " << p->user << "\npassword_env = ONCEPAY_TEST_DB_PASSWORD\n";
        }
    }
    out << "\n[messages]\nsame_as = orders\n\n[log]\nfile = "
        << m_dir.filePath(QStringLiteral("cli.log")) << '\n';
    if (environment) {
        *environment = QProcessEnvironment::systemEnvironment();
        environment->insert(QStringLiteral("ONCEPAY_TEST_DB_PASSWORD"), m_orders.password);
        environment->insert(QStringLiteral("XDG_CONFIG_HOME"),
                            m_dir.filePath(QStringLiteral("xdg-config")));
        environment->insert(QStringLiteral("XDG_DATA_HOME"),
                            m_dir.filePath(QStringLiteral("xdg-data")));
    }
    return path;
}

} // namespace OncePay::Test
