// Statement and fee-schedule import on SQLite, PostgreSQL and MariaDB: all or nothing per
// statement, the same file twice changes nothing, a corrupt file leaves no trace.

#include "enginefixture.h"

#include "settlement/feeschedule.h"
#include "settlement/settlementimporter.h"

#include <QFile>
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
