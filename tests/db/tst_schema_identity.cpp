// Swapped orders and audit profiles (review of what a newcomer meets, finding 5): the schema
// version alone made an audit database read as "orders schema 1 of 15, migration pending" and
// an orders database as "audit schema 15, newer than this program" (telling the operator to
// upgrade), and `db migrate` ran orders migration 0002 on the audit database. Now the check
// says which database it is, and migrate refuses it and changes nothing — both ways, on every
// engine; correctly placed and fresh databases are as before.

#include "db/connection.h"
#include "db/healthcheck.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "investigation/investigationdb.h"
#include "testdatabases.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

ConnectionProfile as(DbRole role, ConnectionProfile p)
{
    p.role = role;
    return p;
}

int versionOf(const ConnectionProfile &p)
{
    auto c = Connection::open(p, QStringLiteral("version"));
    if (!c)
        return -1;
    auto v = Migrator::currentVersion(*c);
    return v ? *v : -1;
}

} // namespace

class TstSchemaIdentity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void swappedProfilesAreNamed_data() { addEngineRows(); }
    void swappedProfilesAreNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        for (const ConnectionProfile &p : {dbs->orders(), dbs->audit()}) {
            auto c = Connection::open(p, QStringLiteral("migrate"));
            QVERIFY(c.ok());
            QVERIFY(Migrator::migrate(*c).ok());
        }
        const int ordersLatest = Migrator::latestVersion(QStringLiteral("orders"), dbs->dialect());
        const int auditLatest = Migrator::latestVersion(QStringLiteral("audit"), dbs->dialect());
        QVERIFY(ordersLatest != auditLatest);

        // In place: as before.
        QCOMPARE(HealthCheck::check(dbs->orders()).health(), Health::Ok);
        QCOMPARE(HealthCheck::check(dbs->audit()).health(), Health::Ok);

        // The audit database behind the orders profile, and the reverse.
        const ConnectionProfile ordersOnAudit = as(DbRole::Orders, dbs->audit());
        const ConnectionProfile auditOnOrders = as(DbRole::Audit, dbs->orders());
        RoleStatus s = HealthCheck::check(ordersOnAudit);
        QVERIFY(s.wrongSchema);
        QCOMPARE(s.health(), Health::Down);
        QVERIFY(!s.schemaOlder() && !s.schemaNewer());
        QCOMPARE(s.error, QStringLiteral("this is an audit database, not an orders database: "
                                         "check the orders connection profile"));
        s = HealthCheck::check(auditOnOrders);
        QVERIFY(s.wrongSchema);
        QCOMPARE(s.health(), Health::Down);
        QCOMPARE(s.error, QStringLiteral("this is an orders database, not an audit database: "
                                         "check the audit connection profile"));
        // What the console's reads open (sign-in, every page's task) says the same, instead of
        // "older schema, run db migrate" or "newer, upgrade" (review console2).
        for (const auto &[profile, said] :
             {std::pair{ordersOnAudit,
                        QStringLiteral("this is an audit database, not an orders database: "
                                       "check the orders connection profile")},
              std::pair{auditOnOrders,
                        QStringLiteral("this is an orders database, not an audit database: "
                                       "check the audit connection profile")}}) {
            auto opened = InvestigationDb::open(profile, QStringLiteral("console-test"));
            QVERIFY(!opened.ok());
            QCOMPARE(opened.error().reason, QStringLiteral("wrong_schema"));
            QCOMPARE(opened.error().message, said);
        }
        QVERIFY(InvestigationDb::open(dbs->orders(), QStringLiteral("console-test")).ok());
        QVERIFY(InvestigationDb::open(dbs->audit(), QStringLiteral("console-test")).ok());
        // Messages follow orders.
        s = HealthCheck::check(as(DbRole::Messages, dbs->audit()), true);
        QCOMPARE(s.error, QStringLiteral("this is an audit database, not an orders database: "
                                         "check the orders connection profile"));

        // Migrate refuses and changes nothing.
        {
            auto c = Connection::open(ordersOnAudit, QStringLiteral("migrate"));
            QVERIFY(c.ok());
            auto m = Migrator::migrate(*c);
            QVERIFY(!m.ok());
            QCOMPARE(m.error().reason, QStringLiteral("wrong_schema"));
            QCOMPARE(m.error().message,
                     QStringLiteral("orders: this is an audit database, not an orders database: "
                                    "check the orders connection profile; nothing was migrated"));
            QVERIFY(!openMigrated(ordersOnAudit, QStringLiteral("engine")).ok());
        }
        {
            auto c = Connection::open(auditOnOrders, QStringLiteral("migrate"));
            QVERIFY(c.ok());
            auto m = Migrator::migrate(*c);
            QVERIFY(!m.ok());
            QCOMPARE(m.error().message,
                     QStringLiteral("audit: this is an orders database, not an audit database: "
                                    "check the audit connection profile; nothing was migrated"));
        }
        QCOMPARE(versionOf(dbs->audit()), auditLatest);
        QCOMPARE(versionOf(dbs->orders()), ordersLatest);
        {
            auto c = Connection::open(dbs->audit(), QStringLiteral("look"));
            QVERIFY(c.ok());
            auto n = Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM schema_version"));
            QVERIFY(n.ok());
            QCOMPARE(n->toInt(), auditLatest); // no orders migration recorded there
        }
        QCOMPARE(HealthCheck::check(dbs->audit()).health(), Health::Ok);
    }

    // A fresh, empty database is neither: it is migrated for the role it is opened as.
    void aFreshDatabaseIsEither_data() { addEngineRows(); }
    void aFreshDatabaseIsEither()
    {
        ONCEPAY_SCRATCH(dbs);
        const ConnectionProfile auditOnFresh = as(DbRole::Audit, dbs->orders());
        {
            auto fresh = Connection::open(auditOnFresh, QStringLiteral("look"));
            QVERIFY(fresh.ok());
            QVERIFY(Migrator::checkSchemaIdentity(*fresh).ok());
        }
        auto c = openMigrated(auditOnFresh, QStringLiteral("migrate"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(HealthCheck::check(auditOnFresh).health(), Health::Ok);
    }
};

QTEST_GUILESS_MAIN(TstSchemaIdentity)
#include "tst_schema_identity.moc"
