// Audit trail benchmark (issue 9): a chain of N rows (default 1,000,000) on SQLite, written by
// the real chain code (AuditChain::computeHash + insertSql in a bulk path), then per run:
//   verify       AuditVerifier over the whole chain and its seal
//   scan         the same keyset query through the same Qt SQLite driver, every column read
//   export csv   AuditExporter with the CSV writer (count, rows, SHA-256, manifest, audit row)
//   export json  the same with the JSON writer (for information)
//   sqlite3 -csv the shell printing the same columns of the same rows in seq order to a file
// Prints rows/s medians side by side with the ratios the issue asks for (verify >= 50 % of
// scan, export >= 70 % of sqlite3 -csv).
//   oncepay_bench_audit [--n N] [--runs R] [--dir DIR]   (DIR keeps the generated chain)

#include "audit/auditchain.h"
#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditsealer.h"
#include "audit/auditverifier.h"
#include "audit/sealkey.h"
#include "config/appconfig.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <vector>

using namespace OncePay;

namespace {

const Actor kAuditor{QStringLiteral("bench-auditor"), QStringLiteral("auditor")};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return 0;
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

ConnectionProfile sqliteProfile(const QString &path, DbRole role)
{
    ConnectionProfile p;
    p.dialect = Dialect::Sqlite;
    p.role = role;
    p.path = path;
    return p;
}

Connection openOrDie(const ConnectionProfile &p)
{
    auto c = openMigrated(p, QStringLiteral("bench"));
    if (!c)
        qFatal("open %s: %s", qPrintable(p.database), qPrintable(c.error().message));
    return std::move(c).value();
}

// A realistic mix: transitions with amounts, callbacks, ledger rows, fee adjustments.
AuditLogRow makeRow(qint64 seq, const QString &prev)
{
    AuditLogRow r;
    r.seq = seq;
    r.eventId = QStringLiteral("00000000-0000-4000-8000-%1").arg(seq, 12, 10, QLatin1Char('0'));
    r.occurredAt = 1'700'000'000'000 + seq * 37;
    r.recordedAt = r.occurredAt + 5;
    const int kind = int(seq % 4);
    r.actor = kind == 0 ? QStringLiteral("gateway") : QStringLiteral("worker:host/%1").arg(seq % 7);
    r.actorRole = QStringLiteral("system");
    r.action =
        QStringList{QStringLiteral("callback.ingested"), QStringLiteral("order.transition"),
                    QStringLiteral("ledger.credit"), QStringLiteral("message.completed")}[kind];
    r.entityKind = kind == 0 ? QStringLiteral("callback") : QStringLiteral("order");
    r.orderId = QStringLiteral("ord-%1").arg(seq / 3);
    r.entityId = kind == 0 ? QStringLiteral("cb-%1").arg(seq) : *r.orderId;
    if (kind != 2)
        r.callbackId = QStringLiteral("cb-%1").arg(seq - kind);
    if (kind == 1)
        r.beforeJson = QStringLiteral("{\"state\":\"paying\",\"version\":%1}").arg(seq % 5 + 1);
    r.afterJson = QStringLiteral("{\"amount_minor\":\"%1\",\"currency\":\"EUR\",\"state\":\"paid\","
                                 "\"version\":%2}")
                      .arg(1000 + seq % 99991)
                      .arg(seq % 5 + 2);
    if (seq % 10 == 0)
        r.reason = QStringLiteral("confirmed by the channel");
    r.prevHash = prev;
    r.hash = AuditChain::computeHash(r);
    return r;
}

void generate(const Connection &audit, qint64 n)
{
    QElapsedTimer t;
    t.start();
    QSqlDatabase db = audit.db();
    Sql::exec(db, QStringLiteral("PRAGMA synchronous = OFF"));
    QString prev = AuditChain::genesisHash();
    const qint64 batch = 20000;
    for (qint64 from = 1; from <= n; from += batch) {
        Transaction tx(db);
        if (!tx.begin())
            qFatal("begin failed");
        QSqlQuery q(db);
        q.prepare(AuditChain::insertSql());
        for (qint64 seq = from; seq < from + batch && seq <= n; ++seq) {
            const AuditLogRow r = makeRow(seq, prev);
            const QVariantList binds = AuditChain::insertBinds(r);
            for (int i = 0; i < binds.size(); ++i)
                q.bindValue(i, binds[i]);
            if (!q.exec())
                qFatal("insert: %s", qPrintable(q.lastError().text()));
            prev = r.hash;
        }
        if (!tx.commit())
            qFatal("commit failed");
    }
    Sql::exec(db, QStringLiteral("PRAGMA synchronous = FULL"));
    std::printf("generated %lld chained rows in %.1f s\n", static_cast<long long>(n),
                t.elapsed() / 1000.0);
}

// The orders database's side of the chain (auditsealrecord.h): an outbox event marked shipped
// for every row (the verifier checks each is in the chain), and the bench's auditor account
// (the trail reads rights from it).
void prepareOrders(const Connection &orders, qint64 n)
{
    QSqlDatabase db = orders.db();
    if (Sql::scalar(db, QStringLiteral("SELECT COUNT(*) FROM staff WHERE username = ?"),
                    {kAuditor.id})
            ->toLongLong() == 0)
        Sql::exec(db,
                  QStringLiteral("INSERT INTO staff (username, display_name, role, password_hash,"
                                 " disabled, failed_attempts, created_at, updated_at) VALUES"
                                 " (?, '', 'auditor', 'x', 0, 0, 0, 0)"),
                  {kAuditor.id});
    if (Sql::scalar(db, QStringLiteral("SELECT COUNT(*) FROM audit_outbox"))->toLongLong() == n)
        return;
    Sql::exec(db, QStringLiteral("DELETE FROM audit_outbox"));
    Transaction tx(db);
    if (!tx.begin())
        qFatal("begin failed");
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO audit_outbox (event_id, occurred_at, actor, actor_role,"
                             " action, entity_kind, entity_id, shipped_at) VALUES (?, ?,"
                             " 'gateway', 'system', 'callback.ingested', 'callback', 'cb', ?)"));
    for (qint64 seq = 1; seq <= n; ++seq) {
        q.bindValue(
            0, QStringLiteral("00000000-0000-4000-8000-%1").arg(seq, 12, 10, QLatin1Char('0')));
        q.bindValue(1, 1'700'000'000'000 + seq * 37);
        q.bindValue(2, 1'700'000'000'000 + seq * 37 + 5);
        if (!q.exec())
            qFatal("outbox: %s", qPrintable(q.lastError().text()));
    }
    if (!tx.commit())
        qFatal("commit failed");
}

// The same keyset pages as the verifier, every column read through the driver, nothing else.
qint64 plainScan(const Connection &audit, int batch)
{
    const QString sql = QStringLiteral("SELECT ") + AuditChain::columns() +
                        QStringLiteral(" FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?");
    qint64 last = 0, rows = 0, bytes = 0;
    for (;;) {
        auto q = Sql::exec(audit.db(), sql, {last, batch});
        if (!q)
            qFatal("scan: %s", qPrintable(q.error().message));
        int inBatch = 0;
        while (q->next()) {
            for (int i = 0; i < 16; ++i)
                bytes += q->value(i).toString().size();
            last = q->value(0).toLongLong();
            ++inBatch;
        }
        rows += inBatch;
        if (inBatch < batch)
            break;
    }
    if (bytes == 0)
        qFatal("scan read nothing");
    return rows;
}

struct Timed {
    std::vector<double> rowsPerSecond;
    void add(qint64 rows, qint64 ns) { rowsPerSecond.push_back(double(rows) * 1e9 / double(ns)); }
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    qint64 n = 1'000'000;
    int runs = 3;
    QString dirPath;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == u"--n")
            n = args[i + 1].toLongLong();
        else if (args[i] == u"--runs")
            runs = args[i + 1].toInt();
        else if (args[i] == u"--dir")
            dirPath = args[i + 1];
    }
    QTemporaryDir tmp;
    const QDir dir(dirPath.isEmpty() ? tmp.path() : dirPath);
    QDir().mkpath(dir.path());
    const QString auditPath = dir.filePath(QStringLiteral("audit-%1.db").arg(n));
    const QString ordersPath = dir.filePath(QStringLiteral("orders.db"));
    const bool fresh = !QFile::exists(auditPath);
    Connection audit = openOrDie(sqliteProfile(auditPath, DbRole::Audit));
    Connection orders = openOrDie(sqliteProfile(ordersPath, DbRole::Orders));
    // The seal key lives beside the chain, so a reused chain's seals still verify.
    auto loadedKey = SealKey::loadOrCreate(
        {dir.filePath(QStringLiteral("seal.key")), dir.filePath(QStringLiteral("seal.pub"))});
    if (!loadedKey)
        qFatal("seal key: %s", qPrintable(loadedKey.error().message));
    const SealKey key = *loadedKey;
    if (fresh)
        generate(audit, n);
    else
        std::printf("reusing %s\n", qPrintable(auditPath));
    prepareOrders(orders, n);
    // A seal at the head, so verify checks a signature too (already sealed: reused).
    auto sealed = AuditSealer(audit, key, Clock::system()).seal(QStringLiteral("bench"));
    if (!sealed)
        qFatal("seal: %s", qPrintable(sealed.error().message));
    const qint64 rows =
        Sql::scalar(audit.db(), QStringLiteral("SELECT COUNT(*) FROM audit_log"))->toLongLong();
    std::printf("chain: %lld rows on SQLite (%s), %d run(s)\n", static_cast<long long>(rows),
                qPrintable(auditPath), runs);

    Timed verify, scan, csv, json, shell, checkCsv, checkJson;
    const QString sqlite3 = QStringLiteral("sqlite3");
    const QString shellSql = QStringLiteral("SELECT ") + AuditChain::columns() +
                             QStringLiteral(" FROM audit_log ORDER BY seq;");
    for (int run = 0; run < runs; ++run) {
        QElapsedTimer t;
        t.start();
        qint64 scanned = plainScan(audit, 5000);
        scan.add(scanned, t.nsecsElapsed());

        AuditVerifier v(audit);
        v.setPublicKey(key.publicKey());
        v.setOrders(orders); // every shipped outbox event in the chain, as the CLI checks
        v.setBatchSize(5000);
        t.restart();
        auto report = v.verify();
        const qint64 verifyNs = t.nsecsElapsed();
        if (!report || !report->ok())
            qFatal("verify failed: %s",
                   report ? qPrintable(report->summary()) : qPrintable(report.error().message));
        verify.add(report->rowsChecked, verifyNs);

        for (auto [timed, checked, format] :
             {std::tuple{&csv, &checkCsv, QStringLiteral("csv")},
              std::tuple{&json, &checkJson, QStringLiteral("json")}}) {
            const QString out = dir.filePath(QStringLiteral("export.") + format);
            const std::unique_ptr<AuditExportWriter> writer = makeAuditExportWriter(format);
            AuditExporter exporter(audit, orders, Clock::system());
            t.restart();
            auto exported = exporter.run({}, out, *writer, kAuditor);
            const qint64 ns = t.nsecsElapsed();
            if (!exported)
                qFatal("export: %s", qPrintable(exported.error().message));
            timed->add(exported->manifest.rowCount, ns);
            // verify-export of the same file: digest, head, seal, the export's audit row, and
            // the rows (CSV: written again from the chain and compared; JSON: re-hashed).
            t.restart();
            auto check = exporter.verify(exported->manifestPath, kAuditor);
            const qint64 checkNs = t.nsecsElapsed();
            if (!check || !check->ok())
                qFatal("verify-export: %s",
                       check ? qPrintable(check->summary()) : qPrintable(check.error().message));
            checked->add(exported->manifest.rowCount, checkNs);
            QFile::remove(out);
            QFile::remove(AuditManifest::pathFor(out));
        }

        const QString shellOut = dir.filePath(QStringLiteral("sqlite3.csv"));
        QProcess p;
        p.setStandardOutputFile(shellOut);
        t.restart();
        p.start(sqlite3, {QStringLiteral("-csv"), auditPath, shellSql});
        if (!p.waitForFinished(-1) || p.exitCode() != 0)
            qFatal("sqlite3 -csv failed: %s", p.readAllStandardError().constData());
        shell.add(rows, t.nsecsElapsed());
        QFile::remove(shellOut);
        std::printf("run %d: scan %.0f, verify %.0f, export csv %.0f, export json %.0f,"
                    " sqlite3 -csv %.0f, verify-export csv %.0f, json %.0f rows/s\n",
                    run + 1, scan.rowsPerSecond.back(), verify.rowsPerSecond.back(),
                    csv.rowsPerSecond.back(), json.rowsPerSecond.back(), shell.rowsPerSecond.back(),
                    checkCsv.rowsPerSecond.back(), checkJson.rowsPerSecond.back());
        std::fflush(stdout);
    }

    const double mScan = median(scan.rowsPerSecond), mVerify = median(verify.rowsPerSecond);
    const double mCsv = median(csv.rowsPerSecond), mJson = median(json.rowsPerSecond);
    const double mShell = median(shell.rowsPerSecond);
    std::printf("\nmedians of %d run(s), %lld rows, rows/s:\n", runs, static_cast<long long>(rows));
    std::printf("  %-34s %12s   %-28s %12s   %s\n", "measured", "rows/s", "baseline", "rows/s",
                "ratio (goal)");
    std::printf("  %-34s %12.0f   %-28s %12.0f   %5.1f %% (>= 50 %%)\n", "verify (chain + seal)",
                mVerify, "plain scan, same driver", mScan, 100.0 * mVerify / mScan);
    std::printf("  %-34s %12.0f   %-28s %12.0f   %5.1f %% (>= 70 %%)\n",
                "export csv (+SHA-256, manifest)", mCsv, "sqlite3 -csv, same query", mShell,
                100.0 * mCsv / mShell);
    std::printf("  %-34s %12.0f   %-28s %12.0f   %5.1f %% (info)\n", "export json", mJson,
                "sqlite3 -csv, same query", mShell, 100.0 * mJson / mShell);
    const double mCheckCsv = median(checkCsv.rowsPerSecond);
    const double mCheckJson = median(checkJson.rowsPerSecond);
    std::printf("  %-34s %12.0f   %-28s %12.0f   %5.1f %% (info)\n", "verify-export csv", mCheckCsv,
                "export csv", mCsv, 100.0 * mCheckCsv / mCsv);
    std::printf("  %-34s %12.0f   %-28s %12.0f   %5.1f %% (info)\n", "verify-export json",
                mCheckJson, "export json", mJson, 100.0 * mCheckJson / mJson);
    return 0;
}
