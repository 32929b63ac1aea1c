#pragma once

// Where one of the three database roles lives (DESIGN.md §1).
// Thread contract: plain value; copy it into the thread that opens the connection.

#include <QString>

namespace OncePay {

enum class Dialect { Sqlite, Postgres, MySql };

QString dialectName(Dialect dialect);  // "sqlite", "postgresql", "mysql"
QString qtDriverName(Dialect dialect); // "QSQLITE", "QPSQL", "QMYSQL"
bool parseDialect(const QString &text, Dialect *out);

enum class DbRole { Orders, Messages, Audit };

QString roleName(DbRole role);

// The name of the first driver option in `options` that would carry a secret, or an empty
// string. Profiles refuse such options (issue 8): the file they are written to is plain text,
// and a password belongs in the keychain, an environment variable or the start-up question.
// Caught, whatever the driver or the case: any key naming a password, a password file or a
// passphrase (password, passwd, pwd, passfile, sslpassword, tls_passphrase, *secret*, ...),
// in `key=value` or libpq's `key = value` form, and user:password@ credentials inside a
// URI value (a libpq dbname=postgresql://...). Returns the key, never the value; a URI with
// credentials outside any key is named "URI".
QString secretOption(const QString &options);

struct ConnectionProfile {
    DbRole role = DbRole::Orders;
    Dialect dialect = Dialect::Sqlite;
    QString path; // SQLite file
    QString host;
    int port = 0;
    QString database;
    QString user;
    QString password;          // from the environment or the keychain, never from the file
    QString passwordEnv;       // file key password_env: the variable the password comes from
    QString passwordKeychain;  // file key password_keychain: the OS keychain entry holding it
    QString options;           // passed to QSqlDatabase::setConnectOptions
    bool sameAsOrders = false; // messages reuse the orders connection (DESIGN.md §1)
    // SQLite only: synchronous=NORMAL instead of FULL. For generated demo data (the
    // simulator), never for a database that acknowledges real payments.
    bool relaxedDurability = false;

    // A server database (not SQLite, not sharing the orders connection) without a password
    // yet: it comes from the keychain or is asked for at start.
    bool needsPassword() const;
    // For logs and `db check`: everything but the password.
    QString describe() const;
    // Two profiles address the same database (used to share one connection).
    bool sameDatabaseAs(const ConnectionProfile &other) const;
};

} // namespace OncePay
