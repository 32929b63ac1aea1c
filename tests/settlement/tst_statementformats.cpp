// Each channel's real statement layout, hand-written with the awkward cases (BOM, CRLF,
// quoted commas, thousands separators, zero-decimal currencies, skipped payouts/totals), and
// corrupt files refused naming line and column. No database.

#include "settlement/feeschedule.h"
#include "settlement/formats/statementformat.h"

#include <QFile>
#include <QTest>

using namespace OncePay;

namespace {

QByteArray data(const QString &name)
{
    QFile f(QStringLiteral(ONCEPAY_SETTLEMENT_DATA "/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing %s", qPrintable(name));
    return f.readAll();
}

ParsedStatement parse(const QString &channel, const QString &file)
{
    auto r = StatementFormat::forChannel(channel)->parse(data(file));
    if (!r)
        qFatal("%s: %s", qPrintable(file), qPrintable(r.error().message));
    return *r;
}

} // namespace

class TstStatementFormats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stripeItemizedReport()
    {
        const ParsedStatement s = parse("stripe", "stripe_itemized_payout_reconciliation.csv");
        QCOMPARE(s.lines.size(), 3);
        QCOMPARE(s.skippedRecords, 1); // the payout
        QCOMPARE(s.lines[0].channelTxnId, QStringLiteral("pi_1A"));
        QCOMPARE(s.lines[0].kind, QStringLiteral("charge"));
        QCOMPARE(s.lines[0].grossMinor, 2112);
        QCOMPARE(s.lines[0].feeMinor, 91);
        QCOMPARE(s.lines[0].netMinor, 2021);
        QCOMPARE(s.lines[0].currency, QStringLiteral("USD"));
        QCOMPARE(s.lines[0].settledAtMs, 1767398400000);    // available_on 2026-01-03
        QCOMPARE(s.lines[0].transactedAtMs, 1767261600000); // created 2026-01-01 10:00 UTC
        QCOMPARE(s.lines[0].lineNo, 2);
        QVERIFY(s.lines[0].raw.contains(QStringLiteral("\"Order o-1, purchase\"")));
        QCOMPARE(s.lines[1].grossMinor, 1000); // JPY has no decimals
        QCOMPARE(s.lines[1].currency, QStringLiteral("JPY"));
        QCOMPARE(s.lines[2].kind, QStringLiteral("refund"));
        QCOMPARE(s.lines[2].channelTxnId, QStringLiteral("pi_1A")); // by payment intent, not re_
        QCOMPARE(s.lines[2].grossMinor, -500);
    }

    void paypalSettlementReport()
    {
        const ParsedStatement s = parse("paypal", "STL-20260101.01.009.CSV");
        QCOMPARE(s.lines.size(), 3);
        QCOMPARE(s.skippedRecords, 1); // T0400 withdrawal
        QCOMPARE(s.lines[0].channelTxnId, QStringLiteral("5TY05013RG002845M"));
        QCOMPARE(s.lines[0].grossMinor, 10000);
        QCOMPARE(s.lines[0].feeMinor, 398);
        QCOMPARE(s.lines[0].netMinor, 9602);
        QCOMPARE(s.lines[0].transactedAtMs, 1767255300000); // Initiation 2026-01-01 08:15:00
        QCOMPARE(s.lines[0].settledAtMs, 1767255302000);    // Completion 08:15:02
        QCOMPARE(s.lines[1].currency, QStringLiteral("JPY"));
        QCOMPARE(s.lines[1].grossMinor, 5000); // minor units: 5000 yen
        QCOMPARE(s.lines[2].kind, QStringLiteral("refund"));
        QCOMPARE(s.lines[2].channelTxnId,
                 QStringLiteral("5TY05013RG002845M")); // PayPal Reference ID
        QCOMPARE(s.lines[2].grossMinor, -2500);
        QCOMPARE(s.lines[2].feeMinor, -50); // fee returned
        QCOMPARE(s.lines[2].netMinor, -2450);
    }

    // A report with the Completion Date set and the Initiation Date empty imports: the
    // transaction time is unknown (0, stored as NULL: the fee rule judges such a line at
    // captured_at), the line settles at its completion. Neither date is an error naming the row.
    void paypalWithoutInitiationDate()
    {
        QByteArray file = data("STL-20260101.01.009.CSV");
        file.replace("\"T0006\",\"2026/01/01 08:15:00 +0000\",", "\"T0006\",\"\",");
        auto r = StatementFormat::forChannel(QStringLiteral("paypal"))->parse(file);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines.size(), 3);
        QCOMPARE(r->lines[0].channelTxnId, QStringLiteral("5TY05013RG002845M"));
        QCOMPARE(r->lines[0].transactedAtMs, 0);
        QCOMPARE(r->lines[0].settledAtMs, 1767255302000);    // Completion 08:15:02
        QCOMPARE(r->lines[1].transactedAtMs, 1767258000000); // the others keep theirs

        file.replace("\"T0006\",\"\",\"2026/01/01 08:15:02 +0000\",", "\"T0006\",\"\",\"\",");
        auto none = StatementFormat::forChannel(QStringLiteral("paypal"))->parse(file);
        QVERIFY(!none.ok());
        QVERIFY2(none.error().message.contains(QStringLiteral("line 5")) &&
                     none.error().message.contains(QStringLiteral("Transaction Initiation Date")),
                 qPrintable(none.error().message));
    }

    void kakaoPaySettlementExport()
    {
        const ParsedStatement s = parse("kakaopay", "kakaopay_settlement_20260101_20260107.csv");
        QCOMPARE(s.lines.size(), 3);
        QCOMPARE(s.skippedRecords, 1); // 합계
        QCOMPARE(s.lines[0].channelTxnId, QStringLiteral("T1a2b3c4d5e6f7a8b"));
        QCOMPARE(s.lines[0].grossMinor, 1234000);
        QCOMPARE(s.lines[0].feeMinor, 24680 + 2468); // 수수료 + 부가세
        QCOMPARE(s.lines[0].netMinor, 1206852);
        QCOMPARE(s.lines[0].settledAtMs, 1767538800000);    // 2026-01-05 00:00 KST
        QCOMPARE(s.lines[0].transactedAtMs, 1767263400000); // 2026-01-01 19:30 KST
        QCOMPARE(s.lines[2].kind, QStringLiteral("refund"));
        QCOMPARE(s.lines[2].grossMinor, -12000);
    }

    void fedaPayTransactionExport()
    {
        const ParsedStatement s =
            parse("fedapay", "fedapay_transactions_2026-01-01_2026-01-07.csv");
        QCOMPARE(s.lines.size(), 3); // approved, refunded (charge + refund); declined skipped
        QCOMPARE(s.skippedRecords, 1);
        QCOMPARE(s.lines[0].channelTxnId, QStringLiteral("104285"));
        QCOMPARE(s.lines[0].grossMinor, 10000); // "10 000" grouped with a space
        QCOMPARE(s.lines[0].feeMinor, 350);     // fees + commission
        QCOMPARE(s.lines[0].currency, QStringLiteral("XOF"));
        // A FedaPay payment is made when approved (created_at is the pending transaction's
        // creation), a refund when refunded: both dates are the transaction time too.
        QCOMPARE(s.lines[0].transactedAtMs, 1767254470000); // approved_at 08:01:10
        QCOMPARE(s.lines[0].settledAtMs, 1767254470000);
        QCOMPARE(s.lines[2].kind, QStringLiteral("refund"));
        QCOMPARE(s.lines[2].grossMinor, -2500);
        QCOMPARE(s.lines[2].transactedAtMs, 1767348000000); // refunded_at 2026-01-02 10:00
    }

    void corruptFilesNameLineAndColumn_data()
    {
        QTest::addColumn<QString>("channel");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("where");
        QTest::newRow("stripe amount") << "stripe"
                                       << "stripe_corrupt_amount.csv"
                                       << "line 3, column 5 (gross)";
        QTest::newRow("kakaopay quote") << "kakaopay"
                                        << "kakaopay_corrupt_quote.csv"
                                        << "line 4, column 7";
        QTest::newRow("paypal count") << "paypal"
                                      << "STL-badcount.CSV"
                                      << "line 9, column 2 (SF)";
        QTest::newRow("paypal truncated") << "paypal"
                                          << "STL-truncated.CSV"
                                          << "line 8, column 1";
        QTest::newRow("wrong channel") << "fedapay"
                                       << "STL-20260101.01.009.CSV"
                                       << "no header row";
    }
    void corruptFilesNameLineAndColumn()
    {
        QFETCH(QString, channel);
        QFETCH(QString, file);
        QFETCH(QString, where);
        auto r = StatementFormat::forChannel(channel)->parse(data(file));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Corrupt);
        QVERIFY2(r.error().message.contains(where), qPrintable(r.error().message));
    }

    void writeThenParseRoundTrips_data()
    {
        QTest::addColumn<QString>("channel");
        for (const QString &c : StatementFormat::channels())
            QTest::newRow(qPrintable(c)) << c;
    }
    void writeThenParseRoundTrips()
    {
        QFETCH(QString, channel);
        const QString currency = channel == u"kakaopay"  ? "KRW"
                                 : channel == u"fedapay" ? "XOF"
                                                         : "USD";
        QList<SettlementLine> lines;
        SettlementLine l;
        l.channelTxnId = channel == u"fedapay"  ? "123456"
                         : channel == u"stripe" ? "pi_3Abc"
                                                : "TX1234567890ABCDE";
        l.kind = SettlementKind::Charge;
        l.grossMinor = 1234567;
        l.feeMinor = 36012;
        l.netMinor = l.grossMinor - l.feeMinor;
        l.currency = currency;
        l.transactedAtMs = 1767225600000;
        l.settledAtMs = channel == u"kakaopay" ? 1767452400000 : 1767398400000;
        l.reference = "o-1, \"quoted\"";
        lines << l;
        StatementWriteContext ctx{1767225600000, 1767830400000};
        const StatementFormat *f = StatementFormat::forChannel(channel);
        auto back = f->parse(f->write(lines, ctx));
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message));
        QCOMPARE(back->lines.size(), 1);
        QCOMPARE(back->lines[0].channelTxnId, l.channelTxnId);
        QCOMPARE(back->lines[0].grossMinor, l.grossMinor);
        QCOMPARE(back->lines[0].feeMinor, l.feeMinor);
        QCOMPARE(back->lines[0].netMinor, l.netMinor);
        QCOMPARE(back->lines[0].currency, currency);
        QCOMPARE(back->lines[0].settledAtMs, l.settledAtMs);
        // The transaction time where the layout prints its own column (FedaPay's is its
        // approved_at, the settlement date it writes).
        QCOMPARE(back->lines[0].transactedAtMs,
                 channel == u"fedapay" ? l.settledAtMs : l.transactedAtMs);
        QVERIFY(!f->transactedAtColumn(l.kind).isEmpty());
    }

    void feeScheduleParsesExactly()
    {
        QCOMPARE(*Fees::parsePercent("2.9"), 29000);
        QCOMPARE(*Fees::parsePercent("2.95"), 29500);
        QCOMPARE(*Fees::parsePercent("0.0001"), 1);
        QCOMPARE(*Fees::parsePercent("100"), 1000000);
        QVERIFY(!Fees::parsePercent("2.9.5").ok());
        QVERIFY(!Fees::parsePercent("-1").ok());
        QVERIFY(!Fees::parsePercent("1e2").ok());
        QVERIFY(!Fees::parsePercent("2.12345").ok());
        QCOMPARE(Fees::feeFor(2112, 29000, 30), 91);  // 61.248 -> 61, + 30
        QCOMPARE(Fees::feeFor(-2112, 29000, 30), 91); // by magnitude
        QCOMPARE(Fees::feeFor(10000, 5, 0), 0);       // 0.05 -> 0
        QCOMPARE(Fees::feeFor(100000, 5, 0), 1);      // 0.5 -> 1 (half up)
        auto rules = Fees::parseCsv(data("fee_schedule.csv"));
        QVERIFY(rules.ok());
        QCOMPARE(rules->size(), 4);
        QCOMPARE(rules->at(1).ratePpm, 29500);
        QCOMPARE(rules->at(1).fixedMinor, 30);
        QCOMPARE(rules->at(1).effectiveFromMs, 1767312000000); // 2026-01-02
        QCOMPARE(rules->at(1).note, QStringLiteral("rate change, announced 2025-12-01"));
        auto bad = Fees::parseCsv(data("fee_schedule_bad.csv"));
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains("line 2, column 4 (rate_percent)"),
                 qPrintable(bad.error().message));
        FeeSchedule s(*rules);
        QCOMPARE(s.ruleAt("stripe", "USD", 1767312000000 - 1)->ratePpm, 29000);
        QCOMPARE(s.ruleAt("stripe", "USD", 1767312000000)->ratePpm, 29500);
        QVERIFY(!s.ruleAt("stripe", "EUR", 1767312000000));
        QVERIFY(!s.ruleAt("stripe", "USD", 0));
    }
};

QTEST_GUILESS_MAIN(TstStatementFormats)
#include "tst_statementformats.moc"
