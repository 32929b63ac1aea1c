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

    // Each line carries the channel's own id of it (migration 0011's line_key): Stripe's
    // balance transaction, PayPal's Transaction ID and event code, KakaoPay's TID, kind and
    // transaction time, FedaPay's id and kind (a refunded row gives two lines, two keys).
    void lineKeysAreTheChannelsOwnIds()
    {
        const ParsedStatement stripe = parse("stripe", "stripe_itemized_payout_reconciliation.csv");
        QCOMPARE(stripe.lines[0].lineKey, QStringLiteral("txn_1A"));
        QCOMPARE(stripe.lines[2].lineKey, QStringLiteral("txn_1C"));
        const ParsedStatement paypal = parse("paypal", "STL-20260101.01.009.CSV");
        QCOMPARE(paypal.lines[0].lineKey, QStringLiteral("5TY05013RG002845M:T0006"));
        QCOMPARE(paypal.lines[2].lineKey, QStringLiteral("R1C585209K746392H:T1107"));
        const ParsedStatement kakao =
            parse("kakaopay", "kakaopay_settlement_20260101_20260107.csv");
        QCOMPARE(kakao.lines[1].lineKey, QStringLiteral("T9f8e7d6c5b4a3928:charge:1767315600000"));
        QCOMPARE(kakao.lines[2].lineKey, QStringLiteral("T9f8e7d6c5b4a3928:refund:1767402000000"));
        const ParsedStatement feda =
            parse("fedapay", "fedapay_transactions_2026-01-01_2026-01-07.csv");
        QCOMPARE(feda.lines[1].lineKey, QStringLiteral("104286:charge"));
        QCOMPARE(feda.lines[2].lineKey, QStringLiteral("104286:refund"));
    }

    // Disputes are chargebacks, a partial-capture reversal and an unknown category are
    // adjustments kept with their sign (never dropped), a refund is negative (Stripe).
    void stripeKinds()
    {
        QByteArray file = data("stripe_itemized_payout_reconciliation.csv");
        file += "txn_1E,2026-01-05 10:00:00,2026-01-07 00:00:00,usd,-21.12,15.00,-36.12,dispute,"
                "dp_1A,Dispute,,,pi_1A,ch_1A,po_2\n"
                "txn_1F,2026-01-20 10:00:00,2026-01-22 00:00:00,usd,21.12,-15.00,36.12,"
                "dispute_reversal,dp_1A,Won,,,pi_1A,ch_1A,po_3\n"
                "txn_1G,2026-01-01 10:00:00,2026-01-03 00:00:00,jpy,-100,0,-100,"
                "partial_capture_reversal,ch_1B,,,,pi_1B,ch_1B,po_1\n"
                "txn_1H,2026-01-06 10:00:00,2026-01-08 00:00:00,usd,-1.00,0.00,-1.00,"
                "risk_reserved_funds,x,,,,pi_1A,ch_1A,po_2\n";
        auto r = StatementFormat::forChannel(QStringLiteral("stripe"))->parse(file);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines.size(), 7);
        QCOMPARE(r->lines[3].kind, SettlementKind::Chargeback);
        QCOMPARE(r->lines[3].grossMinor, -2112);
        QCOMPARE(r->lines[3].feeMinor, 1500);
        QCOMPARE(r->lines[3].channelTxnId, QStringLiteral("pi_1A"));
        QCOMPARE(r->lines[4].kind, SettlementKind::Chargeback);
        QCOMPARE(r->lines[4].grossMinor, 2112);
        QCOMPARE(r->lines[5].kind, SettlementKind::Adjustment);
        QCOMPARE(r->lines[5].grossMinor, -100); // charge 1000 + this = 900 captured
        QCOMPARE(r->lines[5].channelTxnId, QStringLiteral("pi_1B"));
        QCOMPARE(r->lines[6].kind, SettlementKind::Adjustment);
        QCOMPARE(r->lines[6].grossMinor, -100);
    }

    // Only T1107 is a refund; T1106 and the chargeback codes are chargebacks; holds, releases
    // and the other T11 codes are adjustments with their sign; each names the capture by its
    // PayPal Reference ID.
    void paypalKinds()
    {
        QByteArray file = data("STL-20260101.01.009.CSV");
        const QByteArray row =
            "\"SB\",\"%1\",\"o-3\",\"5TY05013RG002845M\",\"TXN\",\"%2\",\"2026/01/01 13:00:00 "
            "+0000\",\"2026/01/01 13:00:00 +0000\",\"%3\",2500,\"USD\",\"\",0,\"\",\"\",\"\",\"\","
            "\"\",\"\",\"\",\"\",\"\"\r\n";
        QByteArray extra;
        const QList<std::tuple<QByteArray, QByteArray, QByteArray>> rows{
            {"H1", "T1110", "DR"}, {"H2", "T1111", "CR"}, {"H3", "T1105", "CR"},
            {"H4", "T1114", "DR"}, {"C1", "T1106", "DR"}, {"C2", "T1201", "DR"},
            {"C3", "T1202", "CR"}, {"P1", "T1107", "DR"}};
        for (const auto &[id, code, flag] : rows)
            extra += QByteArray(row).replace("%1", id).replace("%2", code).replace("%3", flag);
        file.replace("\"SF\",4", "\"SF\",12");
        file.insert(file.indexOf("\"SF\""), extra);
        auto r = StatementFormat::forChannel(QStringLiteral("paypal"))->parse(file);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines.size(), 11);
        const QStringList kinds{SettlementKind::Adjustment, SettlementKind::Adjustment,
                                SettlementKind::Adjustment, SettlementKind::Adjustment,
                                SettlementKind::Chargeback, SettlementKind::Chargeback,
                                SettlementKind::Chargeback, SettlementKind::Refund};
        const QList<qint64> gross{-2500, 2500, 2500, -2500, -2500, -2500, 2500, -2500};
        for (int i = 0; i < 8; ++i) {
            const SettlementLine &l = r->lines[3 + i];
            QCOMPARE(l.kind, kinds[i]);
            QCOMPARE(l.grossMinor, gross[i]);
            QCOMPARE(l.channelTxnId, QStringLiteral("5TY05013RG002845M"));
        }
        QCOMPARE(r->lines[3].lineKey, QStringLiteral("H1:T1110"));
    }

    // A T00xx debit is a payment this PayPal account sent (T0006 is DR for the buyer): no
    // refusal of the file and no charge — an adjustment under its own Transaction ID (not its
    // PayPal Reference ID), kept with its sign and fee, for reconciliation to report. The same
    // code as a credit is still a charge.
    void paypalPaymentSentIsAnAdjustment()
    {
        QByteArray file = data("STL-20260101.01.009.CSV");
        const QByteArray from = "\"8MC585209K746392H\",\"o-4\",\"\",\"\",\"T0006\"";
        QVERIFY(file.contains(from));
        file.replace(from, "\"8MC585209K746392H\",\"o-4\",\"5TY05013RG002845M\",\"TXN\",\"T0006\"");
        file.replace("\"CR\",5000,\"JPY\"", "\"DR\",5000,\"JPY\"");
        auto r = StatementFormat::forChannel(QStringLiteral("paypal"))->parse(file);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->lines.size(), 3);
        QCOMPARE(r->lines[0].kind, SettlementKind::Charge);
        QCOMPARE(r->lines[0].grossMinor, 10000);
        const SettlementLine &sent = r->lines[1];
        QCOMPARE(sent.kind, SettlementKind::Adjustment);
        QCOMPARE(sent.grossMinor, -5000);
        QCOMPARE(sent.feeMinor, 220);
        QCOMPARE(sent.netMinor, -5220);
        QCOMPARE(sent.currency, QStringLiteral("JPY"));
        QCOMPARE(sent.channelTxnId, QStringLiteral("8MC585209K746392H"));
        QCOMPARE(sent.lineKey, QStringLiteral("8MC585209K746392H:T0006"));
        QCOMPARE(r->lines[2].kind, SettlementKind::Refund);
    }

    // A sign the line's kind cannot have refuses the whole file, naming line and column.
    void impossibleSignsAreRefused_data()
    {
        QTest::addColumn<QString>("channel");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("where");
        const QString stripe = "stripe_itemized_payout_reconciliation.csv";
        QTest::newRow("stripe charge, negative gross")
            << "stripe" << stripe << QByteArray("usd,21.12,0.91,20.21,charge")
            << QByteArray("usd,-21.12,0.91,-22.03,charge")
            << "line 2, column 5 (gross): '-21.12' is negative, impossible for a charge line";
        QTest::newRow("stripe charge, negative fee")
            << "stripe" << stripe << QByteArray("usd,21.12,0.91,20.21,charge")
            << QByteArray("usd,21.12,-0.91,22.03,charge")
            << "line 2, column 6 (fee): '-0.91' is negative, impossible for a charge line";
        QTest::newRow("stripe refund, positive gross")
            << "stripe" << stripe << QByteArray("usd,-5.00,0.00,-5.00,refund")
            << QByteArray("usd,5.00,0.00,5.00,refund")
            << "line 4, column 5 (gross): '5.00' is positive, impossible for a refund line";
        const QString paypal = "STL-20260101.01.009.CSV";
        QTest::newRow("paypal charge, fee credit")
            << "paypal" << paypal << QByteArray("\"CR\",10000,\"USD\",\"DR\",398")
            << QByteArray("\"CR\",10000,\"USD\",\"CR\",398")
            << "line 5, column 12 (Fee Debit or Credit): 'CR' is a credit, impossible for a "
               "T0006 line";
        QTest::newRow("paypal refund, credit")
            << "paypal" << paypal << QByteArray("\"DR\",2500,\"USD\"")
            << QByteArray("\"CR\",2500,\"USD\"")
            << "line 7, column 9 (Transaction Debit or Credit): 'CR' is a credit, impossible for "
               "a T1107 line";
        const QString kakao = "kakaopay_settlement_20260101_20260107.csv";
        QTest::newRow("kakaopay approval, negative")
            << "kakaopay" << kakao << QByteArray("승인,KRW,\"12,000\",240,24,\"11,736\"")
            << QByteArray("승인,KRW,\"-12,000\",240,24,\"-12,264\"")
            << "line 4, column 7 (거래금액): '-12,000' is negative, impossible for a 승인 line";
        QTest::newRow("kakaopay cancel, positive")
            << "kakaopay" << kakao << QByteArray("취소,KRW,\"-12,000\",0,0,\"-12,000\"")
            << QByteArray("취소,KRW,\"12,000\",0,0,\"12,000\"")
            << "line 5, column 7 (거래금액): '12,000' is positive, impossible for a 취소 line";
        QTest::newRow("fedapay negative amount")
            << "fedapay"
            << "fedapay_transactions_2026-01-01_2026-01-07.csv"
            << QByteArray("10 000,150,200,9 650") << QByteArray("-10 000,150,200,-10 350")
            << "line 2, column 4 (amount): '-10 000' is negative, impossible for a charge line";
    }
    void impossibleSignsAreRefused()
    {
        QFETCH(QString, channel);
        QFETCH(QString, file);
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, where);
        QByteArray bytes = data(file);
        QVERIFY(bytes.contains(from));
        auto good = StatementFormat::forChannel(channel)->parse(bytes);
        QVERIFY(good.ok());
        bytes.replace(from, to);
        auto r = StatementFormat::forChannel(channel)->parse(bytes);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Corrupt);
        QVERIFY2(r.error().message.contains(where), qPrintable(r.error().message));
    }

    // The planter writes chargebacks in each layout so that they read back as chargebacks.
    void chargebacksRoundTrip_data()
    {
        QTest::addColumn<QString>("channel");
        QTest::newRow("stripe") << "stripe";
        QTest::newRow("paypal") << "paypal";
    }
    void chargebacksRoundTrip()
    {
        QFETCH(QString, channel);
        SettlementLine l;
        l.channelTxnId = channel == u"stripe" ? "pi_3Abc" : "TX1234567890ABCDE";
        l.kind = SettlementKind::Chargeback;
        l.grossMinor = -5000;
        l.feeMinor = 1500;
        l.netMinor = -6500;
        l.currency = "USD";
        l.transactedAtMs = 1767225600000;
        l.settledAtMs = 1767398400000;
        l.reference = "o-1";
        const StatementFormat *f = StatementFormat::forChannel(channel);
        auto back = f->parse(f->write({l}, StatementWriteContext{1767225600000, 1767830400000}));
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().message));
        QCOMPARE(back->lines.size(), 1);
        QCOMPARE(back->lines[0].kind, SettlementKind::Chargeback);
        QCOMPARE(back->lines[0].channelTxnId, l.channelTxnId);
        QCOMPARE(back->lines[0].grossMinor, l.grossMinor);
        QCOMPARE(back->lines[0].feeMinor, l.feeMinor);
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
