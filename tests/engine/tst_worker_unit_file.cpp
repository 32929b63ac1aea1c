// What ends a standing worker (or the gateway) for good, and the systemd units that run them
// agreeing. The units (packaging/systemd/oncepay-worker.service, oncepay-gateway.service)
// restart `oncepay work` and `oncepay gateway` on failure except on the exit codes that
// starting again will not cure: their RestartPreventExitStatus must list exactly
// Cli::kPermanentExitCodes — a code added there and not in a unit would have systemd restart
// a worker with a wrong password every 5 s for ever.
// Which connection failures are a refused login (the worker stops, exit 6) and which an
// outage (it waits) is checked on the drivers' words recorded from PostgreSQL 15 and
// MariaDB 10.11 (and libpq's documented messages): tst_workeroutage runs the real thing.

#include "cli.h"
#include "db/connection.h"
#include "worker/worker.h"

#include <QFile>
#include <QSqlError>
#include <QTest>

#include <algorithm>

using namespace OncePay;

namespace {

// The values a systemd unit's [Service] section gives `key`, in order: every assignment adds
// its words, an empty one clears the list (systemd.service(5)); "#" and ";" lines are comments.
QStringList serviceValues(const QString &unitText, const QString &key)
{
    QStringList values;
    QString section;
    for (QString line : unitText.split(u'\n')) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith(u'#') || line.startsWith(u';'))
            continue;
        if (line.startsWith(u'[')) {
            section = line;
            continue;
        }
        const qsizetype eq = line.indexOf(u'=');
        if (section != u"[Service]" || eq < 0 || line.left(eq).trimmed() != key)
            continue;
        const QString value = line.mid(eq + 1).trimmed();
        if (value.isEmpty())
            values.clear();
        else
            values += value.split(u' ', Qt::SkipEmptyParts);
    }
    return values;
}

QSqlError openError(const char *native, const char *databaseText)
{
    // As the drivers give it at open: ConnectionError, the server's (or libpq's) words.
    return QSqlError(QStringLiteral("Unable to connect"), QString::fromUtf8(databaseText),
                     QSqlError::ConnectionError, QString::fromLatin1(native));
}

} // namespace

class TstWorkerUnitFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void unitRestartsOnlyWhatARestartCanCure_data()
    {
        QTest::addColumn<QString>("unitFile");
        QTest::addColumn<QString>("command");
        QTest::newRow("worker") << QStringLiteral("oncepay-worker.service")
                                << QStringLiteral("work");
        QTest::newRow("gateway") << QStringLiteral("oncepay-gateway.service")
                                 << QStringLiteral("gateway");
    }
    void unitRestartsOnlyWhatARestartCanCure()
    {
        QFETCH(QString, unitFile);
        QFETCH(QString, command);
        QFile unit(QStringLiteral(ONCEPAY_SOURCE_DIR "/packaging/systemd/") + unitFile);
        QVERIFY2(unit.open(QIODevice::ReadOnly), qPrintable(unit.fileName()));
        const QString text = QString::fromUtf8(unit.readAll());
        // The unit that runs the standing command (the worker not --once) ...
        const QStringList exec = serviceValues(text, QStringLiteral("ExecStart"));
        QVERIFY2(exec.size() >= 2 && exec[0].endsWith(u"/oncepay") && exec[1] == command &&
                     !exec.contains(QStringLiteral("--once")),
                 qPrintable(exec.join(u' ')));
        // ... restarts it when it fails,
        QCOMPARE(serviceValues(text, QStringLiteral("Restart")), QStringList{"on-failure"});
        // ... except on exactly the codes it ends with on what a restart will not cure.
        QList<int> prevented;
        for (const QString &word :
             serviceValues(text, QStringLiteral("RestartPreventExitStatus"))) {
            bool number = false;
            prevented << word.toInt(&number);
            QVERIFY2(number, qPrintable(QStringLiteral("not an exit code: %1").arg(word)));
        }
        std::sort(prevented.begin(), prevented.end());
        QList<int> permanent(std::begin(Cli::kPermanentExitCodes),
                             std::end(Cli::kPermanentExitCodes));
        std::sort(permanent.begin(), permanent.end());
        QCOMPARE(prevented, permanent);
        // A failure that may pass must stay restartable: never one of these.
        for (int code : permanent)
            QVERIFY2(code != Cli::Ok && code != Cli::Failed && code != Cli::Usage &&
                         code != Cli::Unavailable,
                     qPrintable(QString::number(code)));
        QVERIFY(permanent.contains(Cli::LoginRefused));
        QVERIFY(permanent.contains(Cli::SchemaNewer));
        QVERIFY(permanent.contains(Cli::ConfigError));
    }

    void refusedLoginOrOutage_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QSqlError>("error");
        QTest::addColumn<bool>("refused");
        const int pg = int(Dialect::Postgres), my = int(Dialect::MySql);
        const char *at = "connection to server at \"127.0.0.1\", port 55409 failed: ";
        auto pgError = [at](const char *words) {
            const QByteArray text = QByteArray(at) + words + '\n';
            return openError("", text.constData());
        };
        // PostgreSQL, refused: recorded from the test server ...
        QTest::newRow("pg wrong password")
            << pg << pgError("FATAL:  password authentication failed for user \"oncepay\"") << true;
        QTest::newRow("pg unknown database")
            << pg << pgError("FATAL:  database \"nosuchdb\" does not exist") << true;
        QTest::newRow("pg no CONNECT right")
            << pg
            << pgError("FATAL:  permission denied for database \"shop\"\nDETAIL:  User does not "
                       "have CONNECT privilege.")
            << true;
        QTest::newRow("pg no password given")
            << pg << pgError("fe_sendauth: no password supplied") << true;
        // ... and as libpq and the server word them elsewhere (trust, ident, pg_hba.conf).
        QTest::newRow("pg unknown role")
            << pg << pgError("FATAL:  role \"nobody\" does not exist") << true;
        QTest::newRow("pg peer") << pg
                                 << pgError("FATAL:  Peer authentication failed for user \"x\"")
                                 << true;
        QTest::newRow("pg certificate")
            << pg << pgError("FATAL:  certificate authentication failed for user \"x\"") << true;
        QTest::newRow("pg no hba entry")
            << pg
            << pgError("FATAL:  no pg_hba.conf entry for host \"10.0.0.5\", user \"oncepay\", "
                       "database \"oncepay\", no encryption")
            << true;
        QTest::newRow("pg hba reject")
            << pg
            << pgError("FATAL:  pg_hba.conf rejects connection for host \"10.0.0.5\", user "
                       "\"oncepay\", database \"oncepay\", no encryption")
            << true;
        QTest::newRow("pg role cannot log in")
            << pg << pgError("FATAL:  role \"auditor\" is not permitted to log in") << true;
        // PostgreSQL, waited for: a restart, a failover, a full server, an outage.
        QTest::newRow("pg starting up")
            << pg << pgError("FATAL:  the database system is starting up") << false;
        QTest::newRow("pg shutting down")
            << pg << pgError("FATAL:  the database system is shutting down") << false;
        QTest::newRow("pg in recovery")
            << pg << pgError("FATAL:  the database system is in recovery mode") << false;
        QTest::newRow("pg too many clients")
            << pg << pgError("FATAL:  sorry, too many clients already") << false;
        QTest::newRow("pg reserved slots")
            << pg
            << pgError("FATAL:  remaining connection slots are reserved for non-replication "
                       "superuser connections")
            << false;
        QTest::newRow("pg role connection limit") // recorded
            << pg << pgError("FATAL:  too many connections for role \"h3probe_lim\"") << false;
        QTest::newRow("pg connection refused") // recorded
            << pg
            << pgError("Connection refused\n\tIs the server running on that host and accepting "
                       "TCP/IP connections?")
            << false;
        QTest::newRow("pg timeout") << pg << pgError("timeout expired") << false;
        QTest::newRow("pg name resolution")
            << pg
            << pgError("could not translate host name \"db.example\" to address: Temporary "
                       "failure in name resolution")
            << false;
        QTest::newRow("pg server closed")
            << pg
            << pgError("server closed the connection unexpectedly\n\tThis probably means the "
                       "server terminated abnormally")
            << false;
        // Authentication through another service: the same words whether the password was
        // wrong or that service is down — waited for, not refused.
        for (const char *method : {"Ident", "LDAP", "RADIUS", "PAM", "GSSAPI", "SSPI", "BSD"})
            QTest::newRow(qPrintable(QStringLiteral("pg %1").arg(QLatin1String(method))))
                << pg
                << pgError(qPrintable(QStringLiteral("FATAL:  %1 authentication failed for user "
                                                     "\"x\"")
                                          .arg(QLatin1String(method))))
                << false;
        // A server answering in another language is not recognised: waited for, not refused.
        QTest::newRow("pg german password")
            << pg
            << pgError("FATAL:  Passwort-Authentifizierung für Benutzer »oncepay« fehlgeschlagen")
            << false;
        // MariaDB, refused: recorded from the test server (1698 is unix_socket's refusal).
        QTest::newRow("my wrong password")
            << my
            << openError("1045",
                         "Access denied for user 'oncepay'@'127.0.0.1' (using password: YES)")
            << true;
        QTest::newRow("my unknown database")
            << my << openError("1049", "Unknown database 'nosuchdb'") << true;
        QTest::newRow("my database denied")
            << my << openError("1044", "Access denied for user 'h3'@'127.0.0.1' to database 'shop'")
            << true;
        QTest::newRow("my locked account")
            << my << openError("4151", "Access denied, this account is locked") << true;

        QTest::newRow("my unix_socket")
            << my << openError("1698", "Access denied for user 'root'@'localhost'") << true;
        // MariaDB, waited for (1130 is also a reverse DNS lookup that failed).
        QTest::newRow("my host not allowed")
            << my
            << openError("1130", "Host '10.0.0.5' is not allowed to connect to this MariaDB "
                                 "server")
            << false;
        QTest::newRow("my too many connections")
            << my << openError("1040", "Too many connections") << false;
        QTest::newRow("my user connection limit") // recorded
            << my
            << openError("1226", "User 'h3probe_lim' has exceeded the 'max_user_connections' "
                                 "resource (current value: 1)")
            << false;
        QTest::newRow("my max_user_connections")
            << my
            << openError("1203", "User oncepay already has more than 'max_user_connections' active "
                                 "connections")
            << false;
        QTest::newRow("my cannot connect") // recorded
            << my << openError("2002", "Can't connect to server on '127.0.0.1' (115)") << false;
        QTest::newRow("my gone away")
            << my << openError("2006", "MySQL server has gone away") << false;
        QTest::newRow("my lost connection")
            << my
            << openError("2013", "Lost connection to server at 'handshake: reading initial "
                                 "communication packet', system error: 104")
            << false;
        QTest::newRow("my shutting down")
            << my << openError("1053", "Server shutdown in progress") << false;
        // SQLite has no login.
        QTest::newRow("sqlite") << int(Dialect::Sqlite) << openError("14", "unable to open")
                                << false;
    }
    void refusedLoginOrOutage()
    {
        QFETCH(int, dialect);
        QFETCH(QSqlError, error);
        QFETCH(bool, refused);
        QCOMPARE(Connection::isRefusedLogin(Dialect(dialect), error), refused);
        // What the worker does with it: a refused login ends it, anything else is waited for.
        const Error e = refused ? makeError(ErrorCode::Unavailable, QStringLiteral("orders: ..."),
                                            QStringLiteral("login_refused"))
                                : makeError(ErrorCode::Unavailable, QStringLiteral("orders: ..."));
        QCOMPARE(WorkerPool::waitingCures(e), !refused);
    }
};

QTEST_GUILESS_MAIN(TstWorkerUnitFile)
#include "tst_worker_unit_file.moc"
