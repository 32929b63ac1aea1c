// Audit trail exports (DESIGN.md §5, §6) on every engine: the manifest matches the file and
// the chain head, a rewritten head is detected, spreadsheet formulas are neutralised and
// amounts kept exact, the byte path writes what the row path writes.

#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditsealer.h"
#include "audit/audittrailquery.h"
#include "audittestutil.h"
#include "audittrailfixture.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

class TstAuditExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exportMatchesManifestAndHead_data() { addEngineRows(); }
    void exportMatchesManifestAndHead()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        const SealKey key = SealKey::generate();
        QVERIFY(AuditSealer(audit, key, clock).seal(QStringLiteral("alice")).ok());
        AuditExporter exporter(audit, orders, clock);
        exporter.setPageSize(4);
        const QDir dir(dbs->tempPath());

        AuditFilter filter;
        filter.actor = QStringLiteral("fin");
        for (const QString &format : {QStringLiteral("csv"), QStringLiteral("json")}) {
            const std::unique_ptr<AuditExportWriter> writer = makeAuditExportWriter(format);
            const QString path = dir.filePath(QStringLiteral("trail.") + format);
            QList<qint64> progress;
            auto result = exporter.run(filter, path, *writer, kAuditor, [&](qint64 d, qint64) {
                progress << d;
                return true;
            });
            QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
            QVERIFY(!result->cancelled);
            QCOMPARE(progress.last(), 10);

            // The manifest on disk states the file's real digest and the audit DB's real head.
            QCOMPARE(result->manifestPath, path + QStringLiteral(".manifest.json"));
            const QJsonObject m = QJsonDocument::fromJson(readAll(result->manifestPath)).object();
            const QByteArray bytes = readAll(path);
            QCOMPARE(m.value(QStringLiteral("sha256")).toString(),
                     QString::fromLatin1(
                         QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
            QCOMPARE(m.value(QStringLiteral("bytes")).toString(), QString::number(bytes.size()));
            QCOMPARE(m.value(QStringLiteral("row_count")).toString(), QStringLiteral("10"));
            QCOMPARE(m.value(QStringLiteral("file")).toString(), QStringLiteral("trail.") + format);
            const QJsonObject head = m.value(QStringLiteral("chain_head")).toObject();
            auto dbHead = Sql::exec(audit.db(), QStringLiteral("SELECT seq, hash FROM audit_log"
                                                               " ORDER BY seq DESC LIMIT 1"));
            QVERIFY(dbHead.ok() && dbHead->next());
            QCOMPARE(head.value(QStringLiteral("seq")).toString(), dbHead->value(0).toString());
            QCOMPARE(head.value(QStringLiteral("hash")).toString(), dbHead->value(1).toString());
            const QJsonObject seal = m.value(QStringLiteral("seal")).toObject();
            QCOMPARE(seal.value(QStringLiteral("seq")).toString(), QStringLiteral("30"));
            QCOMPARE(seal.value(QStringLiteral("key_id")).toString(), key.keyId());
            QCOMPARE(m.value(QStringLiteral("filter")).toObject().value(QStringLiteral("actor")),
                     QJsonValue(QStringLiteral("fin")));
            QCOMPARE(m.value(QStringLiteral("generated_by"))
                         .toObject()
                         .value(QStringLiteral("actor"))
                         .toString(),
                     QStringLiteral("alice"));
            QVERIFY(!m.value(QStringLiteral("generated_at")).toString().isEmpty());

            // The export is audited with its filter, row count and digest.
            auto row = Sql::exec(orders.db(),
                                 QStringLiteral("SELECT actor, after_json FROM audit_outbox WHERE"
                                                " event_id = ? AND action = 'audit.exported'"),
                                 {result->eventId});
            QVERIFY(row.ok() && row->next());
            QCOMPARE(row->value(0).toString(), QStringLiteral("alice"));
            const QJsonObject after =
                QJsonDocument::fromJson(row->value(1).toString().toUtf8()).object();
            QCOMPARE(after.value(QStringLiteral("sha256")).toString(),
                     m.value(QStringLiteral("sha256")).toString());
            QCOMPARE(after.value(QStringLiteral("row_count")).toString(), QStringLiteral("10"));
            QCOMPARE(
                after.value(QStringLiteral("filter")).toObject().value(QStringLiteral("actor")),
                QJsonValue(QStringLiteral("fin")));

            auto good = exporter.verify(result->manifestPath, kFinance);
            QVERIFY(good.ok());
            QVERIFY2(good->ok(), qPrintable(good->summary()));

            // One byte changed anywhere in the file is detected.
            QByteArray edited = bytes;
            edited[edited.size() / 2] = edited[edited.size() / 2] == '1' ? '2' : '1';
            {
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(edited);
            }
            auto bad = exporter.verify(result->manifestPath, kFinance);
            QVERIFY(bad.ok());
            QVERIFY(!bad->ok());
            QVERIFY(!bad->fileMatches);
            QVERIFY(bad->headMatches);
            QVERIFY(bad->summary().contains(QStringLiteral("changed")));
        }

        // JSON rows carry every stored column, so each row's hash can be recomputed from it.
        AuditJsonWriter json;
        const QString all = dir.filePath(QStringLiteral("all.json"));
        QVERIFY(exporter.run({}, all, json, kFinance).ok());
        const QJsonObject doc = QJsonDocument::fromJson(readAll(all)).object();
        const QJsonArray rows = doc.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 30);
        QCOMPARE(doc.value(QStringLiteral("row_count")).toString(), QStringLiteral("30"));
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            AuditLogRow r;
            r.seq = o.value(QStringLiteral("seq")).toInteger();
            r.eventId = o.value(QStringLiteral("event_id")).toString();
            r.occurredAt = o.value(QStringLiteral("occurred_at_ms")).toInteger();
            r.recordedAt = o.value(QStringLiteral("recorded_at_ms")).toInteger();
            r.actor = o.value(QStringLiteral("actor")).toString();
            r.actorRole = o.value(QStringLiteral("actor_role")).toString();
            r.action = o.value(QStringLiteral("action")).toString();
            r.entityKind = o.value(QStringLiteral("entity_kind")).toString();
            r.entityId = o.value(QStringLiteral("entity_id")).toString();
            const auto opt = [&o](const char *k) -> std::optional<QString> {
                const QJsonValue x = o.value(QLatin1String(k));
                return x.isNull() ? std::nullopt : std::optional<QString>(x.toString());
            };
            r.orderId = opt("order_id");
            r.callbackId = opt("callback_id");
            r.beforeJson = opt("before_json");
            r.afterJson = opt("after_json");
            r.reason = opt("reason");
            r.prevHash = o.value(QStringLiteral("prev_hash")).toString();
            QCOMPARE(AuditChain::computeHash(r), o.value(QStringLiteral("hash")).toString());
            if (r.seq == 7) {
                // Amounts exact: beyond 2^53, as text.
                QCOMPARE(o.value(QStringLiteral("amount_minor")).toString(),
                         QStringLiteral("-9007199254740993"));
                QCOMPARE(o.value(QStringLiteral("currency")).toString(), QStringLiteral("JPY"));
            }
        }

        // Cancelled: no file, no manifest, no audit row.
        const qint64 exported = scalarInt(
            orders,
            QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action = 'audit.exported'"));
        AuditCsvWriter csv;
        const QString cancelledPath = dir.filePath(QStringLiteral("cancelled.csv"));
        auto cancelled = exporter.run({}, cancelledPath, csv, kFinance,
                                      [](qint64 done, qint64) { return done < 8; });
        QVERIFY(cancelled.ok());
        QVERIFY(cancelled->cancelled);
        QVERIFY(!QFile::exists(cancelledPath));
        QVERIFY(!QFile::exists(AuditManifest::pathFor(cancelledPath)));
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action"
                                                  " = 'audit.exported'")),
                 exported);
    }

    void exportDetectsARewrittenHead_data() { addEngineRows(); }
    void exportDetectsARewrittenHead()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditExporter exporter(audit, orders, clock);
        AuditCsvWriter csv;
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("head.csv"));
        auto result = exporter.run({}, path, csv, kAuditor);
        QVERIFY(result.ok());
        QVERIFY(tamper(audit, {QStringLiteral("UPDATE audit_log SET hash = '%1' WHERE seq = 30")
                                   .arg(QString(64, u'f'))})
                    .ok());
        auto check = exporter.verify(result->manifestPath, kAuditor);
        QVERIFY(check.ok());
        QVERIFY(check->fileMatches);
        QVERIFY(!check->headMatches);
        QVERIFY(!check->ok());
    }

    void csvNeutralisesFormulasAndKeepsAmounts_data() { addEngineRows(); }
    void csvNeutralisesFormulasAndKeepsAmounts()
    {
        // The cell rules on their own.
        const auto cell = [](const QString &v) {
            QByteArray out;
            AuditCsvWriter::appendCell(out, v);
            return QString::fromUtf8(out);
        };
        QCOMPARE(cell(QStringLiteral("=1+2")), QStringLiteral("'=1+2"));
        QCOMPARE(cell(QStringLiteral("+1")), QStringLiteral("'+1"));
        QCOMPARE(cell(QStringLiteral("-1+2")), QStringLiteral("'-1+2"));
        QCOMPARE(cell(QStringLiteral("@cmd")), QStringLiteral("'@cmd"));
        QCOMPARE(cell(QStringLiteral("\tx")), QStringLiteral("'\tx"));
        QCOMPARE(cell(QStringLiteral("\rx")), QStringLiteral("\"'\rx\""));
        QCOMPARE(cell(QStringLiteral("-1250")), QStringLiteral("-1250")); // a plain amount
        QCOMPARE(cell(QStringLiteral("-")), QStringLiteral("'-"));
        QCOMPARE(cell(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
        QCOMPARE(cell(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));
        QCOMPARE(cell(QStringLiteral("=\"x\",1")), QStringLiteral("\"'=\"\"x\"\",1\""));
        QCOMPARE(cell(QStringLiteral("line\nbreak")), QStringLiteral("\"line\nbreak\""));
        QCOMPARE(cell(QStringLiteral("代购")), QStringLiteral("代购"));

        // End to end on the engine: row 7's reason and entity are neutralised, its amount exact.
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditCsvWriter csv;
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("formulas.csv"));
        AuditFilter only7;
        only7.fromMs = kStart + 7000;
        only7.toMs = kStart + 8000;
        QVERIFY(AuditExporter(audit, orders, clock).run(only7, path, csv, kAuditor).ok());
        const QString text = QString::fromUtf8(readAll(path));
        const QStringList lines = text.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], AuditCsvWriter::columns().join(u','));
        QVERIFY2(lines[1].startsWith(QStringLiteral("7,")), qPrintable(lines[1]));
        QVERIFY(lines[1].contains(QStringLiteral(",'@SUM(A1:A9),")));
        QVERIFY(lines[1].contains(QStringLiteral(",-9007199254740993,JPY,")));
        QVERIFY(
            lines[1].contains(QStringLiteral(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",")));
        QVERIFY(!text.contains(QStringLiteral(",=")));
    }

    // The export reads rows as bytes (on SQLite through SQLite's C API) and encodes them
    // without QStrings; its file must be byte for byte what the QString path writes for the
    // same rows — including the awkward ones: non-ASCII, NULL vs empty, quotes and formulas,
    // amounts the JSON shortcut leaves to QJsonDocument, times before 1970.
    void exportBytesMatchRowPath_data() { addEngineRows(); }
    void exportBytesMatchRowPath()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const QStringList afters{
            QStringLiteral("{\"amount_minor\":\"-1250\",\"currency\":\"EUR\"}"),
            QStringLiteral("{\"currency\":\"JPY\",\"amount_minor\":-9007199254740993}"),
            QStringLiteral("{\"amount_minor\":125000000000000000,\"currency\":\"USD\"}"),
            QStringLiteral("{\"amount_minor\":1.5,\"currency\":\"EUR\"}"),
            QStringLiteral("{\"amount_minor\":2.0,\"currency\":\"EUR\"}"),
            QStringLiteral("{\"amount_minor\":1e3,\"currency\":\"EUR\"}"),
            QStringLiteral("{\"amount_minor\":-0,\"currency\":\"EUR\"}"),
            QStringLiteral("{\"z_minor\":\"9\",\"fee_minor\":\"-3\",\"currency\":\"CHF\"}"),
            QStringLiteral("{\"fee_minor\":\"x\",\"b_minor\":7,\"amount_minor\":null}"),
            QStringLiteral(
                "{\"amount_minor\":\"12\",\"amount_minor\":\"13\",\"currency\":\"EUR\"}"),
            QStringLiteral("{\"amount_minor\":\"12\",\"currency\":\"G\\u00e9\"}"),
            QStringLiteral("{\"am\\u006fount_minor\":\"14\",\"currency\":\"EUR\"}"),
            QStringLiteral("{\"amount_minor\":\"15\",\"currency\":7}"),
            QStringLiteral("{\"amount_minor\":\"16\",\"currency\":\"EUR\"} "),
            QStringLiteral(" {\"amount_minor\":\"17\"}"),
            QStringLiteral("{\"amount_minor\":\"18\",\"currency\":\"EUR\",}"),
            QStringLiteral("{\"amount_minor\":\"19\" \"currency\":\"EUR\"}"),
            QStringLiteral("{\"nested\":{\"a\":[1,2,{\"b\":\"c\\\"d\"}],\"t\":true},"
                           "\"amount_minor\":\"20\",\"currency\":\"EUR\"}"),
            QStringLiteral("{\"nested\":{\"a\":[1,2,}]},\"amount_minor\":\"21\"}"),
            QStringLiteral("{\"amount_minor\":\"=1+2\",\"currency\":\"=cmd\"}"),
            QStringLiteral("{\"amount_minor\":\"22\",\"currency\":\"\\ud83d\\ude00\"}"),
            QStringLiteral("{\"amount_minor\":\"23\",\"currency\":\"€\"}"),
            QStringLiteral("[\"amount_minor\",1]"),
            QStringLiteral("{\"state\":\"paid\"}"),
            QStringLiteral("not json _minor"),
            QString(),
            QStringLiteral(""),
        };
        QString prev = AuditChain::genesisHash();
        for (int i = 0; i < afters.size(); ++i) {
            AuditLogRow r;
            r.seq = i + 1;
            r.eventId = QStringLiteral("ev-%1").arg(i);
            r.occurredAt = i == 0 ? -1 : i == 1 ? 0 : i == 2 ? 253402300799999 : kStart + i * 7;
            r.recordedAt = r.occurredAt + 1;
            r.actor = i % 3 == 0 ? QStringLiteral("Zoë 代购 😀") : QStringLiteral("-w,\"x\"\n");
            r.actorRole = i % 2 ? QStringLiteral("") : QStringLiteral("@role");
            r.action = QStringLiteral("order.transition");
            r.entityKind = QStringLiteral("order");
            r.entityId = QStringLiteral("\tid-%1").arg(i);
            if (i % 2)
                r.orderId = QStringLiteral("o-%1").arg(i);
            if (i % 3)
                r.callbackId = QStringLiteral("");
            if (i % 4 == 1)
                r.beforeJson = QStringLiteral("{\"amount_minor\":\"-5\",\"currency\":\"SEK\"}");
            if (!afters[i].isNull())
                r.afterJson = afters[i];
            if (i % 5 == 0)
                r.reason = QStringLiteral("\r=bad");
            r.prevHash = prev;
            r.hash = AuditChain::computeHash(r);
            prev = r.hash;
            auto inserted =
                Sql::exec(audit.db(), AuditChain::insertSql(), AuditChain::insertBinds(r));
            QVERIFY2(inserted.ok(), inserted ? "" : qPrintable(inserted.error().message));
        }

        // Expected: the QString path (rows read through QtSql, written one by one).
        addAuditStaff(orders);
        AuditTrailQuery query(audit, orders, clock);
        QByteArray expected;
        {
            QBuffer buffer(&expected);
            QVERIFY(buffer.open(QIODevice::WriteOnly));
            AuditCsvWriter csv;
            QVERIFY(csv.begin(&buffer, {}).ok());
            auto n = query.forEach(
                {}, 4, [&](const AuditLogRow &row) { return csv.write(row).ok(); }, kAuditor);
            QVERIFY(n.ok());
            QCOMPARE(*n, qint64(afters.size()));
            QVERIFY(csv.finish(*n).ok());
        }
        // Under test: the exporter (bytes path), pages of 4 so paging is crossed.
        AuditCsvWriter csv;
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("bytes.csv"));
        AuditExporter exporter(audit, orders, clock);
        exporter.setPageSize(4);
        auto exported = exporter.run({}, path, csv, kAuditor);
        QVERIFY2(exported.ok(), exported ? "" : qPrintable(exported.error().message));
        QCOMPARE(exported->manifest.rowCount, qint64(afters.size()));
        const QByteArray actual = readAll(path);
        if (actual != expected) {
            const QList<QByteArray> a = actual.split('\n'), e = expected.split('\n');
            for (int i = 0; i < qMin(a.size(), e.size()); ++i)
                QCOMPARE(QString::fromUtf8(a[i]), QString::fromUtf8(e[i]));
        }
        QCOMPARE(actual, expected);
        QVERIFY(actual.contains(",-1250,EUR,")); // the cases above really reached the file
        QVERIFY(actual.contains(",-9007199254740993,JPY,"));
        QVERIFY(actual.contains("Zoë 代购 😀"));

        // The same rows as bytes, refused for a role without the right.
        auto refused = query.forEachBytes(
            {}, 4, [](const AuditLogRowBytes &) { return true; }, kAgent);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Forbidden);
    }

    void isoTimeMatchesQt()
    {
        QList<qint64> samples{0,
                              1,
                              999,
                              1000,
                              59'999,
                              86'399'999,
                              86'400'000,
                              951'782'400'000,
                              951'868'799'999,
                              4'107'542'400'000,
                              253'402'300'799'999};
        quint64 x = 88172645463325252ull;
        for (int i = 0; i < 20000; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            samples << qint64(x % 253'402'300'800'000ull);
        }
        char buf[32];
        for (qint64 ms : std::as_const(samples)) {
            const int n = formatIsoTimeUtc(ms, buf);
            QCOMPARE(QString::fromLatin1(buf, n), AuditFilter::formatTime(ms));
        }
        QCOMPARE(formatIsoTimeUtc(-1, buf), 0);
        QCOMPARE(formatIsoTimeUtc(253'402'300'800'000, buf), 0);
    }
};

QTEST_GUILESS_MAIN(TstAuditExport)
#include "tst_audit_export.moc"
