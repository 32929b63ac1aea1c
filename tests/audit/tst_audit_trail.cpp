// The audit trail read side (DESIGN.md §5, §6) on every engine: filtered keyset paging,
// rights refused and audited, verification naming the first bad row with seal coverage,
// exports whose manifest matches the file and the chain head, a one-byte edit detected,
// spreadsheet formulas neutralised and amounts kept exact.

#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditoutbox.h"
#include "audit/auditsealer.h"
#include "audit/auditshipper.h"
#include "audit/audittrailquery.h"
#include "audittestutil.h"
#include "db/sql.h"
#include "db/transaction.h"
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

namespace {

const qint64 kStart = 1'700'000'000'000;
const Actor kAuditor{QStringLiteral("alice"), QStringLiteral("auditor")};
const Actor kFinance{QStringLiteral("fin"), QStringLiteral("finance")};
const Actor kAgent{QStringLiteral("bob"), QStringLiteral("agent")};
const Actor kAdmin{QStringLiteral("root"), QStringLiteral("admin")};

void record(const Connection &orders, ManualClock &clock, AuditEvent e)
{
    clock.advance(1000);
    auto r = inTransaction(orders.db(), Transaction::Mode::Deferred,
                           [&] { return AuditOutbox::record(orders.db(), e, clock); });
    if (!r)
        qFatal("outbox: %s", qPrintable(r.error().message));
}

// 30 rows: three actors, order.* and ledger.* actions, orders o-0..o-4, callbacks on every
// third row, one second apart; row 7 carries formula-like text and a negative amount.
void seed(const Connection &orders, const Connection &audit, ManualClock &clock)
{
    for (int i = 1; i <= 30; ++i) {
        AuditEvent e;
        e.actor = QStringList{QStringLiteral("worker:1"), QStringLiteral("fin"),
                              QStringLiteral("gateway")}[i % 3];
        e.actorRole = i % 3 == 1 ? QStringLiteral("finance") : QStringLiteral("system");
        e.action = i % 2 ? QStringLiteral("order.transition") : QStringLiteral("ledger.credit");
        e.entityKind = QStringLiteral("order");
        e.entityId = e.orderId = QStringLiteral("o-%1").arg(i % 5);
        if (i % 3 == 0)
            e.callbackId = QStringLiteral("cb-%1").arg(i);
        e.after = {{QStringLiteral("amount_minor"), QString::number(i * 100 + 5)},
                   {QStringLiteral("currency"), QStringLiteral("EUR")}};
        if (i == 7) {
            e.after = {{QStringLiteral("adjustment_minor"), QStringLiteral("-9007199254740993")},
                       {QStringLiteral("currency"), QStringLiteral("JPY")}};
            e.reason = QStringLiteral("=HYPERLINK(\"http://evil\",\"x\")");
            e.entityId = QStringLiteral("@SUM(A1:A9)");
        }
        record(orders, clock, e);
    }
    auto shipped = AuditShipper(orders, audit, clock).shipAll();
    if (!shipped || shipped->shipped != 30)
        qFatal("ship failed");
}

QList<qint64> seqs(const QList<AuditLogRow> &rows)
{
    QList<qint64> out;
    for (const AuditLogRow &r : rows)
        out << r.seq;
    return out;
}

QList<qint64> allPages(const AuditTrailQuery &q, const AuditFilter &f, int limit)
{
    QList<qint64> out;
    qint64 after = 0;
    for (int guard = 0; guard < 100; ++guard) {
        auto page = q.page(f, after, limit, kAuditor);
        if (!page)
            qFatal("page: %s", qPrintable(page.error().message));
        out += seqs(page->rows);
        after = page->lastSeq;
        if (page->atEnd)
            break;
    }
    return out;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TstAuditTrail : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void filtersPageInSeqOrder_data() { addEngineRows(); }
    void filtersPageInSeqOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);

        QCOMPARE(allPages(q, {}, 7), allPages(q, {}, 1000));
        QCOMPARE(allPages(q, {}, 7).size(), 30);
        QCOMPARE(allPages(q, {}, 7).first(), 1);
        QCOMPARE(allPages(q, {}, 7).last(), 30);

        AuditFilter byActor;
        byActor.actor = QStringLiteral("fin");
        QCOMPARE(allPages(q, byActor, 3), (QList<qint64>{1, 4, 7, 10, 13, 16, 19, 22, 25, 28}));
        QCOMPARE(*q.count(byActor, kAuditor), 10);

        AuditFilter byPrefix;
        byPrefix.action = QStringLiteral("ledger.*");
        QCOMPARE(allPages(q, byPrefix, 4).size(), 15);
        byPrefix.action = QStringLiteral("order.transition");
        QCOMPARE(allPages(q, byPrefix, 4).first(), 1);
        byPrefix.action = QStringLiteral("order");
        QVERIFY(allPages(q, byPrefix, 4).isEmpty()); // exact, not a prefix

        AuditFilter byOrderAndCallback;
        byOrderAndCallback.orderId = QStringLiteral("o-0");
        QCOMPARE(allPages(q, byOrderAndCallback, 2), (QList<qint64>{5, 10, 15, 20, 25, 30}));
        byOrderAndCallback.callbackId = QStringLiteral("cb-15");
        QCOMPARE(allPages(q, byOrderAndCallback, 2), QList<qint64>{15});

        // Time: row i occurred at kStart + i s; [from, to) is half open.
        AuditFilter byTime;
        byTime.fromMs = kStart + 10'000;
        byTime.toMs = kStart + 13'000;
        QCOMPARE(allPages(q, byTime, 2), (QList<qint64>{10, 11, 12}));

        AuditFilter byEntity;
        byEntity.entityKind = QStringLiteral("order");
        byEntity.entityId = QStringLiteral("@SUM(A1:A9)");
        QCOMPARE(allPages(q, byEntity, 2), QList<qint64>{7});

        AuditFilter bad;
        bad.fromMs = kStart + 5;
        bad.toMs = kStart;
        auto refused = q.page(bad, 0, 10, kAuditor);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Invalid);
        bad = {};
        bad.action = QStringLiteral("or*der");
        QVERIFY(!q.page(bad, 0, 10, kAuditor).ok());

        auto head = q.head(kFinance);
        QVERIFY(head.ok());
        QCOMPARE(head->seq, 30);
        QVERIFY(!head->seal);
    }

    void rightsAreRefusedAndAudited_data() { addEngineRows(); }
    void rightsAreRefusedAndAudited()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);
        AuditExporter exporter(audit, orders, clock);
        const QString out = QDir(dbs->tempPath()).filePath(QStringLiteral("refused.csv"));
        const qint64 before =
            scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox"));

        for (const Actor &who : {kAgent, kAdmin}) {
            auto page = q.page({}, 0, 10, who);
            QVERIFY(!page.ok());
            QCOMPARE(page.error().code, ErrorCode::Forbidden);
            AuditCsvWriter csv;
            auto exported = exporter.run({}, out, csv, who);
            QVERIFY(!exported.ok());
            QCOMPARE(exported.error().code, ErrorCode::Forbidden);
            QVERIFY(!QFile::exists(out));
            auto verified = q.verify(nullptr, {}, who);
            QVERIFY(!verified.ok());
            QCOMPARE(verified.error().code, ErrorCode::Forbidden);
        }
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox")),
                 before + 6);
        QCOMPARE(
            scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                             " 'audit.access_refused' AND actor = 'bob' AND"
                                             " actor_role = 'agent' AND entity_id = 'export'")),
            1);
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                                  " 'audit.access_refused' AND actor = 'root'")),
                 3);
        // Finance and auditor read.
        QVERIFY(q.page({}, 0, 10, kFinance).ok());
        QVERIFY(q.page({}, 0, 10, kAuditor).ok());
    }

    void verifyNamesTheFirstBadRow_data() { addEngineRows(); }
    void verifyNamesTheFirstBadRow()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);
        const SealKey key = SealKey::generate();
        const SealPublicKey pub = key.publicKey();

        auto clean = q.verify(&pub, {}, kAuditor, 4);
        QVERIFY(clean.ok());
        QVERIFY2(clean->ok(), qPrintable(clean->summary()));
        QCOMPARE(clean->headSeq, 30);
        QCOMPARE(clean->sealedSeq, 0);
        QCOMPARE(clean->rowsAfterSeal(), 30);

        // Seal coverage: sealed at 30, then 5 more rows.
        QVERIFY(AuditSealer(audit, key, clock).seal(QStringLiteral("alice")).ok());
        AuditEvent extra;
        extra.actor = QStringLiteral("gateway");
        extra.actorRole = QStringLiteral("system");
        extra.action = QStringLiteral("callback.ingested");
        extra.entityKind = QStringLiteral("callback");
        extra.entityId = QStringLiteral("cb-x");
        for (int i = 0; i < 5; ++i)
            record(orders, clock, extra);
        QVERIFY(AuditShipper(orders, audit, clock).shipAll().ok());
        auto covered = q.verify(&pub, {}, kAuditor, 4);
        QVERIFY(covered.ok() && covered->ok());
        QCOMPARE(covered->sealedSeq, 30);
        QCOMPARE(covered->rowsAfterSeal(), 5);
        QVERIFY2(covered->summary().contains(QStringLiteral("sealed up to seq 30, 5 row(s) after")),
                 qPrintable(covered->summary()));

        // Progress reaches the total; returning false cancels.
        QList<qint64> progress;
        auto watched = q.verify(
            &pub,
            [&](qint64 done, qint64 total) {
                progress << done;
                return total == 35;
            },
            kAuditor, 10);
        QVERIFY(watched.ok() && watched->ok());
        QCOMPARE(progress.last(), 35);
        auto cancelled = q.verify(
            &pub, [](qint64, qint64) { return false; }, kAuditor, 10);
        QVERIFY(cancelled.ok());
        QVERIFY(cancelled->cancelled);
        QVERIFY(!cancelled->ok());
        QCOMPARE(cancelled->rowsChecked, 10);

        // Altered: the first bad row is named even when a later one is bad too.
        QVERIFY(tamper(audit, {QStringLiteral("UPDATE audit_log SET reason = 'edited' WHERE seq"
                                              " IN (12, 20)")})
                    .ok());
        auto altered = q.verify(&pub, {}, kAuditor, 4);
        QVERIFY(altered.ok());
        QVERIFY(altered->problem);
        QCOMPARE(altered->problem->kind, AuditProblem::Kind::Altered);
        QCOMPARE(altered->problem->seq, 12);
        QVERIFY(altered->problem->message.contains(QStringLiteral("seq 12")));
    }

    void verifyFindsRemovedAndReordered_data() { addEngineRows(); }
    void verifyFindsRemovedAndReordered()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);

        QVERIFY(swapRows(audit, 8, 9).ok());
        auto reordered = q.verify(nullptr, {}, kFinance, 4);
        QVERIFY(reordered.ok() && reordered->problem);
        QCOMPARE(reordered->problem->kind, AuditProblem::Kind::Relinked);
        QCOMPARE(reordered->problem->seq, 8);
        QVERIFY(swapRows(audit, 8, 9).ok());
        QVERIFY(q.verify(nullptr, {}, kFinance, 4)->ok());

        QVERIFY(tamper(audit, {QStringLiteral("DELETE FROM audit_log WHERE seq = 17")}).ok());
        auto removed = q.verify(nullptr, {}, kFinance, 4);
        QVERIFY(removed.ok() && removed->problem);
        QCOMPARE(removed->problem->kind, AuditProblem::Kind::Missing);
        QCOMPARE(removed->problem->seq, 17);
        QCOMPARE(removed->problem->foundSeq, 18);
    }

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
            std::unique_ptr<AuditExportWriter> writer;
            if (format == u"csv")
                writer = std::make_unique<AuditCsvWriter>();
            else
                writer = std::make_unique<AuditJsonWriter>();
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

QTEST_GUILESS_MAIN(TstAuditTrail)
#include "tst_audit_trail.moc"
