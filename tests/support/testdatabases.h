#pragma once

// Scratch databases for tests: a fresh orders database and a fresh audit database on SQLite,
// PostgreSQL or MariaDB, dropped again when the fixture goes out of scope.
// Servers come from the environment (packaging/test.sh starts them):
//   ONCEPAY_TEST_PG_HOST/PORT/USER/PASSWORD, ONCEPAY_TEST_MYSQL_HOST/PORT/USER/PASSWORD.
// Thread contract: create and destroy on the test's main thread.

#include "config/appconfig.h"
#include "core/result.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace OncePay::Test {

// Adds the column "dialect" (int) and one row per engine: sqlite, postgresql, mariadb.
void addEngineRows();
// The same "dialect" column with the two server engines only (what SQLite has no part in:
// logins, server roles).
void addServerEngineRows();

// Whether the engine's server is configured; `why` says what is missing.
bool engineConfigured(Dialect dialect, QString *why);

// True when running in CI (CI=true), where a missing server is a failure.
bool inCi();

class ScratchDatabases {
public:
    ~ScratchDatabases();
    ScratchDatabases(const ScratchDatabases &) = delete;
    ScratchDatabases &operator=(const ScratchDatabases &) = delete;

    static Result<std::unique_ptr<ScratchDatabases>> create(Dialect dialect);

    Dialect dialect() const { return m_dialect; }
    const ConnectionProfile &orders() const { return m_orders; }
    const ConnectionProfile &audit() const { return m_audit; }
    // A configuration pointing at these databases (messages share orders).
    AppConfig config() const;
    // Writes that configuration as an INI file (passwords via environment names) and
    // returns its path plus the environment a child process needs.
    QString writeConfigFile(QProcessEnvironment *env) const;
    QString tempPath() const { return m_dir.path(); }

private:
    ScratchDatabases() = default;
    Dialect m_dialect = Dialect::Sqlite;
    QTemporaryDir m_dir;
    ConnectionProfile m_orders;
    ConnectionProfile m_audit;
    QStringList m_created; // server-side databases to drop
};

// Server credentials with no database selected (for wrong-password tests etc.).
ConnectionProfile serverProfile(Dialect dialect, DbRole role);

} // namespace OncePay::Test

// Skips (locally) / fails (CI) with a printed reason when the engine's server is not
// configured — on its own for tests that open the server themselves, and as ONCEPAY_SCRATCH's
// first step.
#define ONCEPAY_REQUIRE_SERVER(dialectValue)                                                       \
    {                                                                                              \
        QString why_;                                                                              \
        if (!OncePay::Test::engineConfigured(OncePay::Dialect(dialectValue), &why_)) {             \
            if (OncePay::Test::inCi())                                                             \
                QFAIL(qPrintable(QStringLiteral("CI=true but ") + why_));                          \
            QSKIP(qPrintable(why_));                                                               \
        }                                                                                          \
    }

// Resolves a ScratchDatabases for the current data row, or skips (locally) / fails (CI)
// with a printed reason when the engine's server is not configured.
#define ONCEPAY_SCRATCH(var)                                                                       \
    QFETCH(int, dialect);                                                                          \
    ONCEPAY_REQUIRE_SERVER(dialect)                                                                \
    auto var##Result_ = OncePay::Test::ScratchDatabases::create(OncePay::Dialect(dialect));        \
    QVERIFY2(var##Result_.ok(),                                                                    \
             qPrintable(var##Result_.ok() ? QString() : var##Result_.error().message));            \
    std::unique_ptr<OncePay::Test::ScratchDatabases> var = std::move(var##Result_).value()
