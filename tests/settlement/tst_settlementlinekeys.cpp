// A statement's lines are imported once, by the channel's own line id (line_key, migration
// 0011), on SQLite, PostgreSQL and MariaDB: the same statement exported again with other bytes
// (re-saved with other line endings, downloaded again after a refund) adds only what is new
// and a file of known lines stores nothing; a line whose id is stored with other money is a
// conflict, not imported; a statement that lists a settlement twice keeps both; and lines
// stored before 0011 get keys the importer finds again.

#include "enginefixture.h"
#include "oldschema.h"

#include "settlement/formats/statementformat.h"
#include "settlement/settlementimporter.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kFinance{QStringLiteral("fin-1"), QStringLiteral("finance")};

const QList<std::pair<QString, QString>> kFiles{
    {"stripe", "stripe_itemized_payout_reconciliation.csv"},
    {"paypal", "STL-20260101.01.009.CSV"},
    {"kakaopay", "kakaopay_settlement_20260101_20260107.csv"},
    {"fedapay", "fedapay_transactions_2026-01-01_2026-01-07.csv"}};

QString path(const QString &name)
{
    return QStringLiteral(ONCEPAY_SETTLEMENT_DATA "/") + name;
}

QByteArray bytes(const QString &name)
{
    QFile f(path(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing %s", qPrintable(name));
    return f.readAll();
}

// The same statement with its line endings changed (CRLF <-> LF), as a spreadsheet re-saves it.
QByteArray resaved(QByteArray data)
{
    if (data.contains("\r\n"))
        return data.replace("\r\n", "\n");
    return data.replace("\n", "\r\n");
}

Result<StatementImport> importBytes(SettlementImporter &importer, const QString &channel,
                                    const QString &name, const QByteArray &data)
{
    return importer.importData(channel, name, data, kFinance);
}

} // namespace

class TstSettlementLineKeys : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // README: "re-import is a no-op". Each statement again, re-saved with other line endings
    // (other bytes, another SHA-256): nothing is stored, not even a statement row, and the
    // result says every line was known.
    void reimportWithOtherBytesStoresNothing_data() { addEngineRows(); }
    void reimportWithOtherBytesStoresNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        for (const auto &[channel, file] : kFiles) {
            auto r = importBytes(importer, channel, file, bytes(file));
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
            QCOMPARE(r->lines, 3);
        }
        for (const auto &[channel, file] : kFiles) {
            auto r = importBytes(importer, channel, file, resaved(bytes(file)));
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
            QVERIFY(!r->alreadyImported); // not the same bytes
            QCOMPARE(r->statementId, 0);
            QCOMPARE(r->lines, 0);
            QCOMPARE(r->linesInFile, 3);
            QCOMPARE(r->alreadyPresent, 3);
            QVERIFY(r->conflicts.isEmpty());
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 12);
        QCOMPARE(f.count("SELECT COUNT(DISTINCT line_key) FROM settlement_lines"), 12);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action LIKE 'settlement.%'"), 4);

        // The batch (on SQLite lines are stored on a helper thread, which gives a file with
        // known lines back to be stored the careful way): the same outcome per file.
        QList<std::pair<QString, QString>> batch;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const auto &[channel, file] : kFiles) {
            QFile out(dir.filePath(file));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(resaved(bytes(file)));
            batch.append({channel, out.fileName()});
        }
        const auto results = importer.importFiles(batch, kFinance);
        QCOMPARE(results.size(), size_t(4));
        for (const auto &r : results) {
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
            QCOMPARE(r->statementId, 0);
            QCOMPARE(r->alreadyPresent, 3);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 12);
    }

    // FedaPay's export downloaded again after a refund shows the row as refunded: only the
    // refund is new. In a batch (helper thread on SQLite) the statement row counts the one
    // line stored and its audit record the lines skipped.
    void redownloadAfterARefundAddsOnlyTheRefund_data() { addEngineRows(); }
    void redownloadAfterARefundAddsOnlyTheRefund()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        const QString name = "fedapay_transactions_2026-01-01_2026-01-07.csv";
        auto first = importBytes(importer, "fedapay", name, bytes(name));
        QVERIFY(first.ok());
        QCOMPARE(first->lines, 3);
        QByteArray later = bytes(name);
        const QByteArray approved = "mtn_open,approved,2026-01-01 08:00:00,2026-01-01 08:01:10,";
        QVERIFY(later.contains(approved));
        later.replace(approved, "mtn_open,refunded,2026-01-01 08:00:00,2026-01-01 08:01:10,"
                                "2026-01-03 09:00:00");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile out(dir.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(later);
        out.close();
        const auto results =
            importer.importFiles({{"fedapay", out.fileName()}, {"fedapay", path(name)}}, kFinance);
        QCOMPARE(results.size(), size_t(2));
        const auto &r = results[0];
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QVERIFY(r->statementId > 0);
        QCOMPARE(r->lines, 1);
        QCOMPARE(r->linesInFile, 4);
        QCOMPARE(r->alreadyPresent, 3);
        QVERIFY(results[1].ok());
        QVERIFY(results[1]->alreadyImported); // the first file's bytes
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE channel_txn_id = '104285'"
                         " AND kind = 'refund' AND gross_minor = -10000 AND line_key ="
                         " '104285:refund'"),
                 1);
        QCOMPARE(
            f.count("SELECT line_count FROM settlement_statements WHERE id = ?", {r->statementId}),
            1);
        auto after = Sql::scalar(f.orders->db(),
                                 QStringLiteral("SELECT after_json FROM audit_outbox WHERE action ="
                                                " 'settlement.imported' AND entity_id = ?"),
                                 {QString::number(r->statementId)});
        QVERIFY2(after.ok(), after.ok() ? "" : qPrintable(after.error().message));
        const QJsonObject a = QJsonDocument::fromJson(after->toString().toUtf8()).object();
        QCOMPARE(a.value("lines").toInteger(), 1);
        QCOMPARE(a.value("lines_in_file").toInteger(), 4);
        QCOMPARE(a.value("already_imported").toInteger(), 3);
    }

    // A line whose id is stored with other money: a conflict, not imported, the stored line
    // untouched, the rest of the file imported. A file with nothing new but a conflict stores
    // nothing and audits the refusal.
    void changedMoneyUnderTheSameIdIsAConflict_data() { addEngineRows(); }
    void changedMoneyUnderTheSameIdIsAConflict()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        const QString name = "stripe_itemized_payout_reconciliation.csv";
        auto first = importBytes(importer, "stripe", name, bytes(name));
        QVERIFY(first.ok());
        QByteArray changed = bytes(name);
        const QByteArray line1A = "usd,21.12,0.91,20.21,charge";
        QVERIFY(changed.contains(line1A));
        changed.replace(line1A, "usd,20.12,0.91,19.21,charge");
        changed += "txn_1E,2026-01-05 10:00:00,2026-01-07 00:00:00,usd,10.00,0.59,9.41,charge,"
                   "ch_1E,x,10.00,usd,pi_1E,ch_1E,po_2\n";
        auto r = importBytes(importer, "stripe", "stripe_again.csv", changed);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QVERIFY(r->statementId > 0);
        QCOMPARE(r->lines, 1);
        QCOMPARE(r->alreadyPresent, 2);
        QCOMPARE(r->conflicts.size(), 1);
        const SettlementLineConflict &c = r->conflicts.first();
        QCOMPARE(c.lineNo, 2);
        QCOMPARE(c.lineKey, QStringLiteral("txn_1A"));
        QCOMPARE(c.grossMinor, 2012);
        QCOMPARE(c.storedGrossMinor, 2112);
        QCOMPARE(c.storedStatementId, first->statementId);
        QCOMPARE(c.storedLineNo, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE line_key = 'txn_1A'"), 1);
        QCOMPARE(f.count("SELECT gross_minor FROM settlement_lines WHERE line_key = 'txn_1A'"),
                 2112);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 4);

        const QByteArray onlyConflict = changed.left(changed.indexOf("\ntxn_1B") + 1);
        auto none = importBytes(importer, "stripe", "stripe_conflict.csv", onlyConflict);
        QVERIFY2(none.ok(), none.ok() ? "" : qPrintable(none.error().message));
        QCOMPARE(none->statementId, 0);
        QCOMPARE(none->lines, 0);
        QCOMPARE(none->conflicts.size(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                         " 'settlement.import_conflicts'"),
                 1);
    }

    // A statement that lists a settlement twice (the channel paid it twice) keeps both lines,
    // for the matcher to report as a duplicate settlement; the statement again stores nothing.
    void aSettlementListedTwiceInOneFileIsKept_data() { addEngineRows(); }
    void aSettlementListedTwiceInOneFileIsKept()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        QByteArray twice = bytes("STL-20260101.01.009.CSV");
        const qsizetype at = twice.indexOf("\"SB\"");
        const QByteArray row = twice.mid(at, twice.indexOf('\n', at) + 1 - at);
        twice.insert(at, row);
        twice.replace("\"SF\",4", "\"SF\",5");
        auto r = importBytes(importer, "paypal", "STL-twice.CSV", twice);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines, 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE line_key IN"
                         " ('5TY05013RG002845M:T0006', '5TY05013RG002845M:T0006#2')"),
                 2);
        auto again = importBytes(importer, "paypal", "STL-twice.CSV", resaved(twice));
        QVERIFY(again.ok());
        QCOMPARE(again->statementId, 0);
        QCOMPARE(again->alreadyPresent, 4);
        auto single = importBytes(importer, "paypal", "STL-20260101.01.009.CSV",
                                  bytes("STL-20260101.01.009.CSV"));
        QVERIFY(single.ok());
        QCOMPARE(single->statementId, 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 4);
    }

    // Lines a caller builds without a key (no format leaves one out) are known by their raw
    // record: stored (never a NULL key), and the same records again are skipped.
    void linesWithoutAKeyAreKnownByTheirRecord_data() { addEngineRows(); }
    void linesWithoutAKeyAreKnownByTheirRecord()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        ParsedStatement parsed;
        parsed.channel = QStringLiteral("stripe");
        for (int i = 0; i < 2; ++i) {
            SettlementLine l;
            l.lineNo = i + 2;
            l.channelTxnId = QStringLiteral("pi_nokey");
            l.kind = SettlementKind::Charge;
            l.grossMinor = l.netMinor = 1000;
            l.currency = QStringLiteral("USD");
            l.settledAtMs = 1767398400000;
            l.raw = QStringLiteral("built,%1").arg(i);
            parsed.lines << l;
        }
        SettlementImporter::Prepared p;
        p.channel = QStringLiteral("stripe");
        p.fileName = QStringLiteral("built.csv");
        p.sha256 = QStringLiteral("1");
        p.parsed = parsed;
        auto r = importer.commit(p, kFinance);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines, 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE line_key LIKE 'raw:%'"), 2);
        p.sha256 = QStringLiteral("2");
        auto again = importer.commit(p, kFinance);
        QVERIFY(again.ok());
        QCOMPARE(again->statementId, 0);
        QCOMPARE(again->alreadyPresent, 2);
    }

    // Lines stored before migration 0011 (one statement imported twice among them, the
    // finding's doubled lines) get keys: the importer's own where the stored line tells it,
    // "line:<statement>:<line_no>" otherwise, unique per channel. Importing those statements
    // again then stores nothing.
    void linesStoredBefore0011GetKeysTheImporterFinds_data() { addEngineRows(); }
    void linesStoredBefore0011GetKeysTheImporterFinds()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = Connection::open(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        const QSqlDatabase db = c->db();
        auto run = [&](const QString &sql, const QVariantList &binds = {}) {
            auto r = Sql::exec(db, sql, binds);
            if (!r)
                qWarning("%s: %s", qPrintable(sql.left(80)), qPrintable(r.error().message));
            return r.ok();
        };
        QCOMPARE(migrateThrough(*c, 10), 10);
        // As the importer stored them before 0011: every file (the Stripe one twice, as two
        // exports of it were), line_no counting the lines; and a PayPal statement as the
        // simulator writes it (record type unquoted), listing one capture twice.
        QList<std::tuple<QString, QString, QByteArray>> old;
        for (const auto &[channel, name] : kFiles)
            old.append({channel, name, bytes(name)});
        old.append({"stripe", kFiles[0].second, bytes(kFiles[0].second)});
        SettlementLine capture;
        capture.channelTxnId = "PLANTED000000001";
        capture.kind = SettlementKind::Charge;
        capture.grossMinor = 1000;
        capture.feeMinor = 39;
        capture.netMinor = 961;
        capture.currency = "USD";
        capture.transactedAtMs = capture.settledAtMs = 1767258000000;
        capture.reference = "o-9";
        const QByteArray planted = StatementFormat::forChannel("paypal")->write(
            {capture, capture}, StatementWriteContext{1767225600000, 1767830400000});
        QVERIFY(planted.startsWith("RH,") && planted.contains("\nSB,\"PLANTED"));
        old.append({"paypal", "STL-planted.CSV", planted});
        int n = 0;
        for (const auto &[channel, name, data] : old) {
            auto parsed = StatementFormat::forChannel(channel)->parse(data);
            QVERIFY(parsed.ok());
            auto id = Sql::insert(db, c->dialect(),
                                  QStringLiteral("INSERT INTO settlement_statements (channel,"
                                                 " file_sha256, file_name, line_count,"
                                                 " imported_by, imported_at) VALUES (?, ?, ?, ?,"
                                                 " 'test', 0)"),
                                  {channel, QString::number(++n), name, parsed->lines.size()});
            QVERIFY(id.ok());
            int seq = 0;
            for (const SettlementLine &l : parsed->lines)
                QVERIFY(run(
                    QStringLiteral("INSERT INTO settlement_lines (statement_id, line_no, channel,"
                                   " channel_txn_id, kind, gross_minor, fee_minor, net_minor,"
                                   " currency, settled_at, raw, transacted_at) VALUES (?, ?, ?, ?,"
                                   " ?, ?, ?, ?, ?, ?, ?, ?)"),
                    {*id, ++seq, channel, l.channelTxnId, l.kind, l.grossMinor, l.feeMinor,
                     l.netMinor, l.currency, l.settledAtMs, l.raw, l.transactedAtMs}));
        }
        auto migrated = Migrator::migrate(*c);
        QVERIFY2(migrated.ok(), migrated.ok() ? "" : qPrintable(migrated.error().message));
        QCOMPARE(migrated->before, 10);
        QVERIFY(migrated->applied.contains(QStringLiteral("0011_settlement_line_key")));
        auto count = [&](const QString &sql) {
            auto v = Sql::scalar(db, sql);
            return v ? v->toLongLong() : -1;
        };
        QCOMPARE(count("SELECT COUNT(*) FROM settlement_lines"), 17);
        QCOMPARE(count("SELECT COUNT(*) FROM settlement_lines WHERE line_key IS NULL"), 0);
        QCOMPARE(count("SELECT COUNT(DISTINCT line_key) FROM settlement_lines"), 17);
        QCOMPARE(count("SELECT COUNT(*) FROM settlement_lines WHERE line_key IN"
                       " ('PLANTED000000001:T0006', 'PLANTED000000001:T0006#2')"),
                 2);
        QCOMPARE(count("SELECT COUNT(*) FROM settlement_lines WHERE statement_id = 5 AND"
                       " line_key LIKE 'line:5:%'"),
                 3); // the second export of the Stripe statement
        // Every key the importer makes is there: the statements again store nothing.
        ManualClock clock(1767225600000);
        SettlementImporter importer(*c, clock);
        for (const auto &[channel, name] : kFiles) {
            auto r = importer.importData(channel, name, resaved(bytes(name)), kFinance);
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
            QCOMPARE(r->statementId, 0);
            QCOMPARE(r->alreadyPresent, 3);
        }
        auto again = importer.importData("paypal", "STL-planted.CSV", resaved(planted), kFinance);
        QVERIFY(again.ok());
        QCOMPARE(again->statementId, 0);
        QCOMPARE(again->alreadyPresent, 2);
        QCOMPARE(count("SELECT COUNT(*) FROM settlement_lines"), 17);
    }
};

QTEST_GUILESS_MAIN(TstSettlementLineKeys)
#include "tst_settlementlinekeys.moc"
