// An export vouches for its rows (DESIGN.md §5, §6): on every engine, an export that meets a
// row altered, swapped or (for the whole trail) deleted writes no file and no manifest, names
// the row, and leaves an `audit.export_refused` row; an export whose rows are intact still
// goes through; a broken chain found by verify is logged as an error; verify-export holds a
// file and its manifest to the export's own audit row. And the byte path's hash is the row
// path's hash.

#include "audit/auditchain.h"
#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditsealer.h"
#include "audit/audittrailquery.h"
#include "audittestutil.h"
#include "audittrailfixture.h"
#include "db/sql.h"
#include "logcapture.h"
#include "testdatabases.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <functional>
#include <memory>

#include <spdlog/spdlog.h>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

struct TamperCase {
    QStringList statements;
    qint64 seq = 0;
    QString says;
};

Result<AuditExportResult> exportTo(const Connection &audit, const Connection &orders,
                                   const Clock &clock, const AuditFilter &filter,
                                   const QString &path)
{
    AuditExporter exporter(audit, orders, clock);
    exporter.setPageSize(4);
    AuditCsvWriter writer;
    return exporter.run(filter, path, writer, kAuditor);
}

// The newest outbox row of `action`: its after JSON, empty when there is none.
QJsonObject lastOutbox(const Connection &orders, const QString &action)
{
    auto q = Sql::exec(orders.db(),
                       QStringLiteral("SELECT after_json FROM audit_outbox WHERE action = ?"
                                      " ORDER BY id DESC"),
                       {action});
    if (!q || !q->next())
        return {};
    return QJsonDocument::fromJson(q->value(0).toString().toUtf8()).object();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// The manifest at `path` changed by `edit`, written back.
void editManifest(const QString &path, const std::function<void(QJsonObject &)> &edit)
{
    QJsonObject m = QJsonDocument::fromJson(readAll(path)).object();
    edit(m);
    writeFile(path, QJsonDocument(m).toJson());
}

} // namespace

class TstAuditExportTamper : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exportRefusesABrokenRow_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("kind");
        const std::pair<const char *, Dialect> engines[] = {{"sqlite", Dialect::Sqlite},
                                                            {"postgresql", Dialect::Postgres},
                                                            {"mariadb", Dialect::MySql}};
        for (const auto &[name, dialect] : engines)
            for (const char *kind : {"altered", "swapped", "deleted"})
                QTest::addRow("%s/%s", name, kind) << int(dialect) << QString::fromLatin1(kind);
    }
    void exportRefusesABrokenRow()
    {
        QFETCH(QString, kind);
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        QVERIFY(AuditSealer(audit, SealKey::generate(), clock).seal(QStringLiteral("alice")).ok());

        TamperCase t;
        if (kind == u"altered")
            t = {{QStringLiteral("UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 12")},
                 12,
                 QStringLiteral("row seq 12 was altered")};
        else if (kind == u"deleted")
            t = {{QStringLiteral("DELETE FROM audit_log WHERE seq = 5")},
                 5,
                 QStringLiteral("row seq 5 is missing")};
        if (kind == u"swapped") {
            QVERIFY(swapRows(audit, 10, 11).ok());
            t.seq = 10;
            t.says = QStringLiteral("row seq 10 was altered");
        } else {
            auto done = tamper(audit, t.statements);
            QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        }

        const QDir dir(dbs->tempPath());
        const QString path = dir.filePath(QStringLiteral("trail.csv"));
        auto refused = exportTo(audit, orders, clock, AuditFilter(), path);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Corrupt);
        QCOMPARE(refused.error().reason, QStringLiteral("chain_broken"));
        QVERIFY2(refused.error().message.contains(t.says), qPrintable(refused.error().message));
        QVERIFY2(refused.error().message.contains(QStringLiteral("nothing was exported")),
                 qPrintable(refused.error().message));
        // Nothing an auditor could hand over: no file, no manifest, no export in the trail.
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(path + QStringLiteral(".manifest.json")));
        QVERIFY(lastOutbox(orders, QStringLiteral("audit.exported")).isEmpty());
        const QJsonObject why = lastOutbox(orders, QStringLiteral("audit.export_refused"));
        QCOMPARE(why.value(QStringLiteral("seq")).toString(), QString::number(t.seq));

        // An export that does not reach the broken row (o-3: seqs 3, 8, 13, 18, 23, 28) still
        // works; one that does is refused too (o-2 holds 12; after the swap seq 10 holds o-1's
        // row).
        if (kind != u"deleted") {
            AuditFilter clear;
            clear.orderId = QStringLiteral("o-3");
            auto fine = exportTo(audit, orders, clock, clear, path);
            QVERIFY2(fine.ok(), qPrintable(fine.ok() ? QString() : fine.error().message));
            QCOMPARE(fine->manifest.rowCount, 6);
            QVERIFY(QFile::exists(path));

            AuditFilter reaching;
            reaching.orderId = kind == u"altered" ? QStringLiteral("o-2") : QStringLiteral("o-1");
            const QString part = dir.filePath(QStringLiteral("part.csv"));
            auto again = exportTo(audit, orders, clock, reaching, part);
            QVERIFY(!again.ok());
            QVERIFY2(again.error().message.contains(t.says), qPrintable(again.error().message));
            QVERIFY(!QFile::exists(part));
        }
    }

    void intactTrailExportsEveryRow_data() { addEngineRows(); }
    void intactTrailExportsEveryRow()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("all.csv"));
        auto all = exportTo(audit, orders, clock, AuditFilter(), path);
        QVERIFY2(all.ok(), qPrintable(all.ok() ? QString() : all.error().message));
        QCOMPARE(all->manifest.rowCount, 30);
        QVERIFY(lastOutbox(orders, QStringLiteral("audit.export_refused")).isEmpty());
    }

    // A JSON export's rows are re-hashed by verify-export: a row edited in the file is found
    // even when the manifest's digest was rewritten to match the edited file.
    void verifyExportRehashesJsonRows_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("says");
        const std::pair<const char *, Dialect> engines[] = {{"sqlite", Dialect::Sqlite},
                                                            {"postgresql", Dialect::Postgres},
                                                            {"mariadb", Dialect::MySql}};
        for (const auto &[name, dialect] : engines) {
            // Inside the hashed after_json (escaped in the file's string) ...
            QTest::addRow("%s/hashed", name)
                << int(dialect) << QByteArray(R"(\"amount_minor\":\"205\")")
                << QByteArray(R"(\"amount_minor\":\"905\")")
                << QStringLiteral("row seq 2 in the file does not match its hash");
            // ... and the amount column read from it.
            QTest::addRow("%s/column", name)
                << int(dialect) << QByteArray(R"("amount_minor":"205")")
                << QByteArray(R"("amount_minor":"905")")
                << QStringLiteral("row seq 2 in the file shows the amount 905 EUR, but its hashed"
                                  " content says 205 EUR");
        }
    }
    void verifyExportRehashesJsonRows()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, says);
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("trail.json"));
        AuditExporter exporter(audit, orders, clock);
        AuditJsonWriter writer;
        auto made = exporter.run(AuditFilter(), path, writer, kAuditor);
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
        auto fine = exporter.verify(made->manifestPath, kAuditor);
        QVERIFY(fine.ok());
        QVERIFY2(fine->ok(), qPrintable(fine->summary()));
        QCOMPARE(fine->rowsRehashed, 30);
        QVERIFY2(fine->summary().endsWith(QStringLiteral(", every row's hash recomputed (30)")),
                 qPrintable(fine->summary()));

        // Row 2's amount changed in the file, and the manifest made to fit the new file.
        QByteArray bytes = readAll(path);
        QCOMPARE(bytes.count(from), 1);
        bytes.replace(from, to);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes);
        }
        QJsonObject m = QJsonDocument::fromJson(readAll(made->manifestPath)).object();
        m.insert(QStringLiteral("sha256"),
                 QString::fromLatin1(
                     QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        m.insert(QStringLiteral("bytes"), QString::number(bytes.size()));
        {
            QFile f(made->manifestPath);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(m).toJson());
        }
        auto edited = exporter.verify(made->manifestPath, kAuditor);
        QVERIFY(edited.ok());
        QVERIFY(edited->fileMatches);
        QVERIFY(!edited->ok());
        QVERIFY2(edited->summary().contains(says), qPrintable(edited->summary()));
    }

    // A CSV export holds no row hashes: what vouches for it beyond its manifest is the export's
    // own audit.exported row, which recorded the file's digest, size and row count, the filter,
    // the chain head and who made it. verify-export finds it (in the outbox before it is
    // shipped, in the hash-chained log after) and holds the file and the manifest to it.
    void verifyExportHoldsAnExportToItsAuditRow_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("says");
        const std::pair<const char *, Dialect> engines[] = {{"sqlite", Dialect::Sqlite},
                                                            {"postgresql", Dialect::Postgres},
                                                            {"mariadb", Dialect::MySql}};
        for (const auto &[name, dialect] : engines) {
            QTest::addRow("%s/file and digest", name)
                << int(dialect) << QStringLiteral("file")
                << QStringLiteral("when it was exported: the file was changed");
            // The rows compared with the audit log's name what changed.
            QTest::addRow("%s/cell", name)
                << int(dialect) << QStringLiteral("file")
                << QStringLiteral("row 2 of the file (the audit log's seq 2) differs in action:"
                                  " the file says \u201cledger.refund\u201d, the audit log"
                                  " \u201cledger.credit\u201d");
            QTest::addRow("%s/row removed", name)
                << int(dialect) << QStringLiteral("cut")
                << QStringLiteral("the file ends before the audit log's row seq 30 (row 30 of"
                                  " 30): rows were removed");
            QTest::addRow("%s/row added", name)
                << int(dialect) << QStringLiteral("added")
                << QStringLiteral("the file goes on after the 30 row(s) the audit log holds for"
                                  " its filter, from line 32: rows were added");
            QTest::addRow("%s/row count", name)
                << int(dialect) << QStringLiteral("rows")
                << QStringLiteral(
                       "the manifest's row count differs from what its audit row (seq 31)"
                       " recorded: the manifest was changed");
            QTest::addRow("%s/export id", name)
                << int(dialect) << QStringLiteral("id")
                << QStringLiteral("no export x-1 is recorded in this audit trail");
            QTest::addRow("%s/second audit row", name)
                << int(dialect) << QStringLiteral("twice")
                << QStringLiteral("is recorded more than once in the audit log (seq 31 and 32):"
                                  " rows were added to the trail");
            QTest::addRow("%s/audit row", name)
                << int(dialect) << QStringLiteral("record")
                << QStringLiteral("the export's audit row (seq 31) does not match its hash: it"
                                  " was altered");
        }
    }
    void verifyExportHoldsAnExportToItsAuditRow()
    {
        QFETCH(QString, edit);
        QFETCH(QString, says);
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("trail.csv"));
        AuditExporter exporter(audit, orders, clock);
        auto made = exportTo(audit, orders, clock, AuditFilter(), path);
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));

        // Before shipping its audit event is in the outbox; after, it is row 31 of the chain.
        auto waiting = exporter.verify(made->manifestPath, kAuditor);
        QVERIFY(waiting.ok());
        QVERIFY2(waiting->ok(), qPrintable(waiting->summary()));
        QCOMPARE(waiting->record, AuditExportCheck::Record::InOutbox);
        QVERIFY2(waiting->summary().contains(QStringLiteral("not yet shipped")),
                 qPrintable(waiting->summary()));
        auto shipped = AuditShipper(orders, audit, clock).shipAll();
        QVERIFY(shipped.ok() && shipped->shipped == 1);
        auto fine = exporter.verify(made->manifestPath, kAuditor);
        QVERIFY(fine.ok());
        QVERIFY2(fine->ok(), qPrintable(fine->summary()));
        QCOMPARE(fine->record, AuditExportCheck::Record::InAuditLog);
        QCOMPARE(fine->recordSeq, 31);
        QVERIFY2(fine->summary().endsWith(QStringLiteral(", as its audit row (seq 31) recorded,"
                                                         " every row the same as in the audit"
                                                         " log (30)")),
                 qPrintable(fine->summary()));
        QCOMPARE(fine->rowsCompared, 30);

        if (edit == u"file" || edit == u"cut" || edit == u"added") {
            // An entry changed, the last row cut off or a row added, and the manifest's digest
            // and size made to fit the file.
            QByteArray bytes = readAll(path);
            if (edit == u"file") {
                const qsizetype at = bytes.indexOf("ledger.credit");
                QVERIFY(at > 0);
                bytes.replace(at, 13, "ledger.refund");
            } else {
                const qsizetype last = bytes.lastIndexOf("\r\n", bytes.size() - 3) + 2;
                QVERIFY(last > 2);
                if (edit == u"cut")
                    bytes.truncate(last);
                else
                    bytes.append(bytes.mid(last));
            }
            writeFile(path, bytes);
            editManifest(made->manifestPath, [&](QJsonObject &m) {
                m.insert(QStringLiteral("sha256"),
                         QString::fromLatin1(
                             QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
                m.insert(QStringLiteral("bytes"), QString::number(bytes.size()));
            });
        } else if (edit == u"rows") {
            editManifest(made->manifestPath, [](QJsonObject &m) {
                m.insert(QStringLiteral("row_count"), QStringLiteral("29"));
            });
        } else if (edit == u"id") {
            editManifest(made->manifestPath, [](QJsonObject &m) {
                m.insert(QStringLiteral("export_id"), QStringLiteral("x-1"));
            });
        } else if (edit == u"twice") {
            // A second audit.exported row for the same export, appended with DDL rights.
            QVERIFY(tamper(audit, {QStringLiteral("INSERT INTO audit_log (%1) SELECT 32,"
                                                  " 'forged-event', occurred_at, recorded_at,"
                                                  " actor, actor_role, action, entity_kind,"
                                                  " entity_id, order_id, callback_id,"
                                                  " before_json, after_json, reason, hash, hash"
                                                  " FROM audit_log WHERE seq = 31")
                                       .arg(AuditChain::columns())})
                        .ok());
        } else {
            QVERIFY(
                tamper(audit, {QStringLiteral("UPDATE audit_log SET after_json = REPLACE("
                                              "after_json, '\"30\"', '\"29\"') WHERE seq = 31")})
                    .ok());
        }
        auto edited = exporter.verify(made->manifestPath, kAuditor);
        QVERIFY(edited.ok());
        QVERIFY(!edited->ok());
        QVERIFY(!edited->recordMatches);
        QVERIFY(edited->fileMatches); // the manifest's own digest fits the file in every case
        QVERIFY2(edited->summary().contains(says), qPrintable(edited->summary()));
    }

    // verify-export reports its progress over the rows and stops when asked, concluding
    // nothing (the console's Cancel).
    void verifyExportReportsProgressAndStops_data() { addEngineRows(); }
    void verifyExportReportsProgressAndStops()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditExporter exporter(audit, orders, clock);
        for (const QString &format : {QStringLiteral("csv"), QStringLiteral("json")}) {
            const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("t.") + format);
            const std::unique_ptr<AuditExportWriter> writer = makeAuditExportWriter(format);
            auto made = exporter.run(AuditFilter(), path, *writer, kAuditor);
            QVERIFY(made.ok());
            QList<std::pair<qint64, qint64>> seen;
            auto whole = exporter.verify(made->manifestPath, kAuditor, [&](qint64 d, qint64 t) {
                seen.append({d, t});
                return true;
            });
            QVERIFY(whole.ok() && whole->ok());
            QVERIFY(seen.size() >= 2);
            QCOMPARE(seen.last().first, 30);
            QCOMPARE(seen.last().second, 30);
            for (qsizetype i = 1; i < seen.size(); ++i)
                QVERIFY(seen[i].first >= seen[i - 1].first);

            int calls = 0;
            auto stopped = exporter.verify(made->manifestPath, kAuditor,
                                           [&](qint64, qint64) { return ++calls < 3; });
            QVERIFY(stopped.ok());
            QVERIFY(stopped->cancelled);
            QVERIFY(!stopped->ok());
            QCOMPARE(calls, 3);
            QCOMPARE(stopped->summary(),
                     QStringLiteral("export verification cancelled: nothing was concluded"));
        }
    }

    // An empty chain has no head to pin an export to and nothing to vouch for: refused, no file.
    void emptyTrailIsNotExported_data() { addEngineRows(); }
    void emptyTrailIsNotExported()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        addAuditStaff(orders);
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("empty.csv"));
        auto refused = exportTo(audit, orders, clock, AuditFilter(), path);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().reason, QStringLiteral("empty_trail"));
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(AuditManifest::pathFor(path)));
    }

    // A file that cannot be written is a file error, not an unreachable database (which the
    // console would show as "The database cannot be reached").
    void unwritableFileIsNoDatabaseError()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("no/such/dir/t.csv"));
        auto r = exportTo(audit, orders, clock, AuditFilter(), path);
        QVERIFY(!r.ok());
        QVERIFY(r.error().code != ErrorCode::Unavailable);
        QCOMPARE(r.error().reason, QStringLiteral("file_error"));
        QVERIFY2(r.error().message.startsWith(QStringLiteral("cannot create ")),
                 qPrintable(r.error().message));
    }

    // The exporter checks rows with the byte encoding; it must be the chain's encoding exactly.
    void bytesHashIsTheRowHash_data() { addEngineRows(); }
    void bytesHashIsTheRowHash()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery query(audit, orders, clock);
        int rows = 0;
        auto streamed = query.forEachBytes(
            AuditFilter(), 7,
            [&](const AuditLogRowBytes &row) {
                ++rows;
                const AuditLogRow r = row.toRow();
                if (AuditChain::canonicalEncoding(row) != AuditChain::canonicalEncoding(r))
                    return false;
                return AuditChain::computeHash(row) == r.hash.toLatin1();
            },
            kAuditor);
        QVERIFY(streamed.ok());
        QCOMPARE(rows, 30);
    }

    void brokenChainIsLoggedAsAnError_data() { addEngineRows(); }
    void brokenChainIsLoggedAsAnError()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        QVERIFY(
            tamper(audit, {QStringLiteral("UPDATE audit_log SET actor = 'x' WHERE seq = 3")}).ok());
        spdlog::set_level(spdlog::level::info);
        QString log;
        {
            LogCapture captured;
            auto report = AuditTrailQuery(audit, orders, clock).verify(nullptr, {}, kAuditor);
            QVERIFY(report.ok() && report->problem);
            log = captured.text();
        }
        QVERIFY2(log.contains(QStringLiteral("error audit chain verified by alice: audit chain"
                                             " BROKEN: row seq 3 was altered")),
                 qPrintable(log));

        // A run stopped half-way verified nothing, and its line does not say "verified".
        LogCapture stopped;
        auto cancelled = AuditTrailQuery(audit, orders, clock)
                             .verify(
                                 nullptr, [](qint64, qint64) { return false; }, kAuditor, 2);
        QVERIFY(cancelled.ok() && cancelled->cancelled);
        QCOMPARE(stopped.text(),
                 QStringLiteral("info audit chain verification by alice cancelled after 2 of 30"
                                " rows: nothing was concluded\n"));
    }
};

QTEST_GUILESS_MAIN(TstAuditExportTamper)
#include "tst_audit_export_tamper.moc"
