// Statement and fee-schedule import on SQLite, PostgreSQL and MariaDB: all or nothing per
// statement, the same file twice changes nothing, a corrupt file leaves no trace.

#include "enginefixture.h"

#include "settlement/feeschedule.h"
#include "settlement/settlementimporter.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QString path(const QString &name)
{
    return QStringLiteral(ONCEPAY_SETTLEMENT_DATA "/") + name;
}

const Actor kFinance{QStringLiteral("fin-1"), QStringLiteral("finance")};

} // namespace

class TstSettlementImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A PayPal report with the Completion Date set and the Initiation Date empty imports; the
    // line's transaction time is stored as NULL (the fee rule then judges at captured_at).
    void paypalLineWithoutInitiationDateImports_data() { addEngineRows(); }
    void paypalLineWithoutInitiationDateImports()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QFile in(path("STL-20260101.01.009.CSV"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray report = in.readAll();
        QVERIFY(report.contains("\"T0006\",\"2026/01/01 08:15:00 +0000\","));
        report.replace("\"T0006\",\"2026/01/01 08:15:00 +0000\",", "\"T0006\",\"\",");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("STL-20260101.02.009.CSV"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(report);
        out.close();
        auto r = SettlementImporter(*f.orders, f.clock).importFile("paypal", file, kFinance);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines, 3);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE transacted_at IS NULL AND"
                         " channel_txn_id = '5TY05013RG002845M' AND kind = 'charge' AND"
                         " settled_at = 1767255302000"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE transacted_at IS NULL"), 1);
    }

    void importIsAllOrNothingAndIdempotent_data() { addEngineRows(); }
    void importIsAllOrNothingAndIdempotent()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        const QList<std::pair<QString, QString>> files{
            {"stripe", "stripe_itemized_payout_reconciliation.csv"},
            {"paypal", "STL-20260101.01.009.CSV"},
            {"kakaopay", "kakaopay_settlement_20260101_20260107.csv"},
            {"fedapay", "fedapay_transactions_2026-01-01_2026-01-07.csv"}};
        for (const auto &[channel, file] : files) {
            auto r = importer.importFile(channel, path(file), kFinance);
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
            QVERIFY(!r->alreadyImported);
            QCOMPARE(r->lines, 3);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 12);
        QCOMPARE(
            f.count("SELECT SUM(gross_minor) FROM settlement_lines WHERE channel = 'kakaopay'"),
            1234000);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'settlement.imported'"),
                 4);
        QVERIFY(f.count("SELECT COUNT(*) FROM settlement_lines WHERE raw LIKE '%\"Order o-1, "
                        "purchase\"%'") == 1);
        // Each line keeps the channel's transaction time beside the date it settled (migration
        // 0010): Stripe's created_utc, PayPal's Initiation Date, KakaoPay's 거래일시, FedaPay's
        // approved_at.
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE transacted_at IS NULL"), 0);
        QCOMPARE(f.count("SELECT transacted_at FROM settlement_lines WHERE channel = 'stripe' AND"
                         " channel_txn_id = 'pi_1A' AND kind = 'charge'"),
                 1767261600000); // 2026-01-01 10:00 UTC; settled (available_on) 2026-01-03
        QCOMPARE(f.count("SELECT settled_at FROM settlement_lines WHERE channel = 'stripe' AND"
                         " channel_txn_id = 'pi_1A' AND kind = 'charge'"),
                 1767398400000);
        QCOMPARE(f.count("SELECT transacted_at FROM settlement_lines WHERE channel = 'kakaopay'"
                         " AND line_no = 1"),
                 1767263400000); // 2026-01-01 19:30 KST; 정산일 2026-01-05
        QCOMPARE(f.count("SELECT transacted_at FROM settlement_lines WHERE channel = 'paypal'"
                         " AND line_no = 1"),
                 1767255300000);

        // The same file again: nothing changes.
        auto again = importer.importFile(
            "stripe", path("stripe_itemized_payout_reconciliation.csv"), kFinance);
        QVERIFY(again.ok());
        QVERIFY(again->alreadyImported);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 12);

        // A corrupt file: refused whole, naming the line and column, nothing stored.
        auto bad = importer.importFile("stripe", path("stripe_corrupt_amount.csv"), kFinance);
        QVERIFY(!bad.ok());
        QVERIFY2(
            bad.error().message.contains("stripe_corrupt_amount.csv: line 3, column 5 (gross)"),
            qPrintable(bad.error().message));
        auto truncated = importer.importFile("paypal", path("STL-truncated.CSV"), kFinance);
        QVERIFY(!truncated.ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 12);

        auto unknown = importer.importFile("alipay", path("fee_schedule.csv"), kFinance);
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.error().code, ErrorCode::Invalid);
    }

    // importFiles parses the next file while it stores this one: the outcome per file must be
    // importFile's, one after the other — a corrupt file in the middle refused whole with its
    // line and column, the files around it imported, a file seen before changing nothing, a
    // missing file reported — and the stored text (Korean included) byte for byte the file's.
    // A line that fails to insert in the middle of a batch (on SQLite the lines are inserted
    // and committed on a helper thread while the next file is parsed) takes its statement row
    // and audit record with it; the files after it import on the same connection, and the
    // failed file imports once the cause is gone.
    void batchLineFailureRollsBackThatFileOnly_data() { addEngineRows(); }
    void batchLineFailureRollsBackThatFileOnly()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QSqlQuery q(f.orders->db());
        const char *kTxn = "8MC585209K746392H"; // the second line of the PayPal file
        switch (Dialect(dialect)) {
        case Dialect::Sqlite:
            QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER planted_failure BEFORE INSERT ON"
                                           " settlement_lines WHEN NEW.channel_txn_id = '%1'"
                                           " BEGIN SELECT RAISE(ABORT, 'planted failure'); END")
                                .arg(kTxn)),
                     qPrintable(q.lastError().text()));
            break;
        case Dialect::Postgres:
            QVERIFY2(q.exec(QStringLiteral(
                                "CREATE FUNCTION planted_failure() RETURNS trigger AS $$ BEGIN IF"
                                " NEW.channel_txn_id = '%1' THEN RAISE EXCEPTION 'planted failure';"
                                " END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
                                .arg(kTxn)),
                     qPrintable(q.lastError().text()));
            QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER planted_failure BEFORE INSERT ON"
                                           " settlement_lines FOR EACH ROW EXECUTE FUNCTION"
                                           " planted_failure()")),
                     qPrintable(q.lastError().text()));
            break;
        case Dialect::MySql:
            QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER planted_failure BEFORE INSERT ON"
                                           " settlement_lines FOR EACH ROW BEGIN IF"
                                           " NEW.channel_txn_id = '%1' THEN SIGNAL SQLSTATE"
                                           " '45000' SET MESSAGE_TEXT = 'planted failure';"
                                           " END IF; END")
                                .arg(kTxn)),
                     qPrintable(q.lastError().text()));
            break;
        }
        SettlementImporter importer(*f.orders, f.clock);
        const QList<std::pair<QString, QString>> files{
            {"stripe", path("stripe_itemized_payout_reconciliation.csv")},
            {"paypal", path("STL-20260101.01.009.CSV")},
            {"kakaopay", path("kakaopay_settlement_20260101_20260107.csv")},
            {"fedapay", path("fedapay_transactions_2026-01-01_2026-01-07.csv")}};
        const auto results = importer.importFiles(files, kFinance);
        QCOMPARE(results.size(), size_t(files.size()));
        for (size_t i : {0, 2, 3}) {
            QVERIFY2(results[i].ok(),
                     results[i].ok() ? "" : qPrintable(results[i].error().message));
            QVERIFY(!results[i]->alreadyImported);
            QCOMPARE(results[i]->lines, 3);
        }
        QVERIFY(!results[1].ok());
        QVERIFY2(results[1].error().message.contains("planted failure"),
                 qPrintable(results[1].error().message));
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 3);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements WHERE channel = 'paypal'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 9);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE channel = 'paypal'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'settlement.imported'"),
                 3);

        QVERIFY2(
            q.exec(QStringLiteral("DROP TRIGGER planted_failure") +
                   (Dialect(dialect) == Dialect::Postgres ? QStringLiteral(" ON settlement_lines")
                                                          : QString())),
            qPrintable(q.lastError().text()));
        const auto again = importer.importFiles(files, kFinance);
        QCOMPARE(again.size(), size_t(files.size()));
        for (size_t i : {0, 2, 3}) {
            QVERIFY(again[i].ok());
            QVERIFY(again[i]->alreadyImported);
        }
        QVERIFY2(again[1].ok(), again[1].ok() ? "" : qPrintable(again[1].error().message));
        QVERIFY(!again[1]->alreadyImported);
        QCOMPARE(again[1]->lines, 3);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE channel = 'paypal'"), 3);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'settlement.imported'"),
                 4);
    }

    void batchImportIsFileByFile_data() { addEngineRows(); }
    void batchImportIsFileByFile()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettlementImporter importer(*f.orders, f.clock);
        const QList<std::pair<QString, QString>> files{
            {"stripe", path("stripe_itemized_payout_reconciliation.csv")},
            {"stripe", path("stripe_corrupt_amount.csv")},
            {"paypal", path("STL-20260101.01.009.CSV")},
            {"kakaopay", path("kakaopay_settlement_20260101_20260107.csv")},
            {"stripe", path("stripe_itemized_payout_reconciliation.csv")},
            {"fedapay", path("no-such-file.csv")},
            {"fedapay", path("fedapay_transactions_2026-01-01_2026-01-07.csv")}};
        const auto results = importer.importFiles(files, kFinance);
        QCOMPARE(results.size(), size_t(files.size()));
        for (size_t i : {0, 2, 3, 6}) {
            QVERIFY2(results[i].ok(),
                     results[i].ok() ? "" : qPrintable(results[i].error().message));
            QVERIFY(!results[i]->alreadyImported);
            QCOMPARE(results[i]->lines, 3);
        }
        QVERIFY(!results[1].ok());
        QVERIFY2(results[1].error().message.contains(
                     "stripe_corrupt_amount.csv: line 3, column 5 (gross)"),
                 qPrintable(results[1].error().message));
        QVERIFY(results[4].ok());
        QVERIFY(results[4]->alreadyImported);
        QCOMPARE(results[4]->statementId, results[0]->statementId);
        QVERIFY(!results[5].ok());
        QCOMPARE(results[5].error().code, ErrorCode::NotFound);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 12);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'settlement.imported'"),
                 4);

        // The raw text as stored is the file's own record (UTF-8, BOM and line ending aside).
        QFile k(path("kakaopay_settlement_20260101_20260107.csv"));
        QVERIFY(k.open(QIODevice::ReadOnly));
        const QStringList fileLines = QString::fromUtf8(k.readAll()).split(QStringLiteral("\r\n"));
        QSqlQuery q(f.orders->db());
        QVERIFY(q.exec(QStringLiteral("SELECT raw, line_no, channel, kind, currency FROM"
                                      " settlement_lines WHERE channel = 'kakaopay'"
                                      " ORDER BY line_no")));
        int seen = 0;
        while (q.next()) {
            ++seen;
            QVERIFY2(fileLines.contains(q.value(0).toString()), qPrintable(q.value(0).toString()));
            QVERIFY(q.value(0).toString().contains(QStringLiteral("승인")) ||
                    q.value(0).toString().contains(QStringLiteral("취소")));
            QCOMPARE(q.value(2).toString(), QStringLiteral("kakaopay"));
            QCOMPARE(q.value(4).toString(), QStringLiteral("KRW"));
        }
        QCOMPARE(seen, 3);
    }

    void feeScheduleImportAndList_data() { addEngineRows(); }
    void feeScheduleImportAndList()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QFile file(path("fee_schedule.csv"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        auto rules = Fees::parseCsv(file.readAll());
        QVERIFY(rules.ok());
        FeeScheduleStore store(*f.orders, f.clock);
        auto r = store.import(*rules, kFinance);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->inserted, 4);
        auto again = store.import(*rules, kFinance);
        QVERIFY(again.ok());
        QCOMPARE(again->inserted, 0);
        QCOMPARE(again->unchanged, 4);
        QList<FeeRule> changed = *rules;
        changed[1].ratePpm = 30000;
        auto conflict = store.import(changed, kFinance);
        QVERIFY(!conflict.ok());
        QCOMPARE(conflict.error().code, ErrorCode::Conflict);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fee_schedules"), 4);
        auto list = store.list();
        QVERIFY(list.ok());
        QCOMPARE(list->size(), 4);
        QCOMPARE(list->at(0).channel, QStringLiteral("kakaopay"));
        QCOMPARE(Fees::toCsv(*list).count('\n'), 5);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fees.imported'"), 4);
    }
};

QTEST_GUILESS_MAIN(TstSettlementImport)
#include "tst_settlementimport.moc"
