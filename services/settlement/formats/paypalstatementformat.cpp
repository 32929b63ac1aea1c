#include "paypalstatementformat.h"

#include "statementtable.h"

#include "core/money.h"

namespace OncePay {

namespace {

const QStringList kColumns = {QStringLiteral("Transaction ID"),
                              QStringLiteral("Invoice ID"),
                              QStringLiteral("PayPal Reference ID"),
                              QStringLiteral("PayPal Reference ID Type"),
                              QStringLiteral("Transaction Event Code"),
                              QStringLiteral("Transaction Initiation Date"),
                              QStringLiteral("Transaction Completion Date"),
                              QStringLiteral("Transaction Debit or Credit"),
                              QStringLiteral("Gross Transaction Amount"),
                              QStringLiteral("Gross Transaction Currency"),
                              QStringLiteral("Fee Debit or Credit"),
                              QStringLiteral("Fee Amount"),
                              QStringLiteral("Fee Currency"),
                              QStringLiteral("Custom Field"),
                              QStringLiteral("Consumer ID"),
                              QStringLiteral("Payment Tracking ID"),
                              QStringLiteral("Store ID"),
                              QStringLiteral("Bank Reference ID"),
                              QStringLiteral("Credit Transactional Fee"),
                              QStringLiteral("Credit Promotional Fee"),
                              QStringLiteral("Credit Term")};

const QString kDate = QStringLiteral("yyyy/MM/dd HH:mm:ss +0000");

// PayPal's transaction event codes (developer.paypal.com/docs/reports/reference/tcodes):
// T00xx payments, T01xx fees, T03xx/T04xx bank deposits and withdrawals (not a payment's
// settlement). In T11xx only T1107 is a refund (the merchant's, partial ones included); T1106
// (payment reversed by PayPal) and the chargeback codes T1201 chargeback, T1202 its reversal,
// T1205 reimbursement, T1207 re-presentment rejection and T1208 cancellation are chargebacks;
// holds, releases and the other reversals (T1105, T1110, T1111, T1114, ...), the account
// adjustments T1200, T1203, T1204 and every other code are adjustments, kept with their sign.
// A T00xx code is CR for the account receiving the payment and DR for the one sending it: a
// T00xx debit is a payment this account made (a purchasing platform buying goods through it),
// not a capture settled — parse() keeps it as an adjustment (see there).
QString kindOf(const QString &code)
{
    if (code.startsWith(QStringLiteral("T00")))
        return SettlementKind::Charge;
    if (code == u"T1107")
        return SettlementKind::Refund;
    if (code == u"T1106" || code == u"T1201" || code == u"T1202" || code == u"T1205" ||
        code == u"T1207" || code == u"T1208")
        return SettlementKind::Chargeback;
    if (code.startsWith(QStringLiteral("T01")))
        return SettlementKind::Fee;
    if (code.startsWith(QStringLiteral("T04")) || code.startsWith(QStringLiteral("T03")))
        return {};
    return SettlementKind::Adjustment;
}

Result<qint64> signedAmount(const StatementTable::Row &row, const QString &flagColumn,
                            const QString &amountColumn, bool creditPositive)
{
    auto flag = row.text(flagColumn);
    if (!flag)
        return flag.error();
    auto value = row.integer(amountColumn, false);
    if (!value)
        return value.error();
    if (*value < 0)
        return row.error(amountColumn, QStringLiteral("amounts are unsigned in this report"));
    if (flag->isEmpty() && *value == 0)
        return qint64(0);
    if (*flag != u"CR" && *flag != u"DR")
        return row.error(flagColumn, QStringLiteral("'%1' is neither CR nor DR").arg(*flag));
    return (*flag == u"CR") == creditPositive ? *value : -*value;
}

} // namespace

Result<ParsedStatement> PayPalStatementFormat::parse(const QByteArray &data) const
{
    using namespace StatementTable;
    auto records = Csv::read(data);
    if (!records)
        return records.error();
    if (records->isEmpty() || records->first().fields.value(0) != u"RH")
        return Csv::fieldError(
            records->isEmpty() ? 1 : records->first().line, 1, QStringLiteral("record type"),
            QStringLiteral("a PayPal settlement report starts with an RH record"));
    ParsedStatement out;
    out.channel = channel();
    Header header;
    bool haveHeader = false;
    bool footer = false;
    qint64 bodyRows = 0;
    for (const Csv::Record &r : *records) {
        const QString type = r.fields.value(0);
        if (type == u"CH") {
            header = Header();
            for (qsizetype c = 1; c < r.fields.size(); ++c) {
                header.names << r.fields[c];
                header.columns.insert(r.fields[c].trimmed().toLower(), int(c));
                header.columns.insert(r.fields[c].trimmed(), int(c));
            }
            for (const QString &need :
                 {QStringLiteral("Transaction ID"), QStringLiteral("Transaction Event Code"),
                  QStringLiteral("Transaction Debit or Credit"),
                  QStringLiteral("Gross Transaction Amount"),
                  QStringLiteral("Gross Transaction Currency"),
                  QStringLiteral("Transaction Initiation Date")})
                if (header.find(need) < 0)
                    return Csv::fieldError(r.line, 1, QStringLiteral("CH"),
                                           QStringLiteral("column header lacks '%1'").arg(need));
            haveHeader = true;
            continue;
        }
        if (type == u"SF") {
            bool ok = false;
            const qint64 declared = r.fields.value(1).toLongLong(&ok);
            if (!ok || declared != bodyRows)
                return Csv::fieldError(
                    r.line, 2, QStringLiteral("SF"),
                    QStringLiteral("section footer counts %1 rows but the section has %2")
                        .arg(r.fields.value(1))
                        .arg(bodyRows));
            bodyRows = 0;
            continue;
        }
        if (type == u"FF") {
            footer = true;
            continue;
        }
        if (type != u"SB") {
            if (!QStringList{QStringLiteral("RH"), QStringLiteral("FH"), QStringLiteral("SH"),
                             QStringLiteral("SC"), QStringLiteral("RF"), QStringLiteral("RC")}
                     .contains(type))
                return Csv::fieldError(r.line, 1, QStringLiteral("record type"),
                                       QStringLiteral("unknown record type '%1'").arg(type));
            continue;
        }
        if (!haveHeader)
            return Csv::fieldError(r.line, 1, QStringLiteral("record type"),
                                   QStringLiteral("SB before any CH"));
        ++bodyRows;
        const Row row{r, header};
        auto code = row.text(QStringLiteral("Transaction Event Code"));
        if (!code)
            return code.error();
        QString kind = kindOf(*code);
        if (kind.isEmpty()) {
            ++out.skippedRecords;
            continue;
        }
        SettlementLine l;
        l.lineNo = r.line;
        l.kind = kind;
        l.raw = r.raw;
        auto currency = StatementTable::currency(row, QStringLiteral("Gross Transaction Currency"));
        if (!currency)
            return currency.error();
        l.currency = *currency;
        auto gross = signedAmount(row, QStringLiteral("Transaction Debit or Credit"),
                                  QStringLiteral("Gross Transaction Amount"), true);
        if (!gross)
            return gross.error();
        l.grossMinor = *gross;
        if (header.find(QStringLiteral("Fee Amount")) >= 0 &&
            !row.optional(QStringLiteral("Fee Amount")).isEmpty()) {
            auto fee = signedAmount(row, QStringLiteral("Fee Debit or Credit"),
                                    QStringLiteral("Fee Amount"), false);
            if (!fee)
                return fee.error();
            const QString feeCurrency = row.optional(QStringLiteral("Fee Currency")).toUpper();
            if (*fee != 0 && !feeCurrency.isEmpty() && feeCurrency != l.currency)
                return row.error(
                    QStringLiteral("Fee Currency"),
                    QStringLiteral("fee in %1 for a %2 transaction").arg(feeCurrency, l.currency));
            l.feeMinor = *fee;
        }
        l.netMinor = l.grossMinor - l.feeMinor;
        // A T00xx debit: money this account paid to someone else. It settles no capture of
        // OncePay's, so it is no charge; it is not dropped either: an adjustment under its own
        // Transaction ID (no OncePay payment has it), which reconciliation reports as a
        // settlement_adjustment for a person to review. The rest of the file imports as ever.
        const bool paymentSent = kind == SettlementKind::Charge && l.grossMinor < 0;
        if (paymentSent) {
            kind = SettlementKind::Adjustment;
            l.kind = kind;
        }
        // A payment received is a credit, a refund a debit; neither pays a negative fee.
        if (kind == SettlementKind::Charge || kind == SettlementKind::Refund) {
            const bool charge = kind == SettlementKind::Charge;
            if (charge ? l.grossMinor < 0 : l.grossMinor > 0)
                return row.error(
                    QStringLiteral("Transaction Debit or Credit"),
                    (charge ? QStringLiteral("'%1' is a debit, impossible for a %2 line")
                            : QStringLiteral("'%1' is a credit, impossible for a %2 line"))
                        .arg(row.optional(QStringLiteral("Transaction Debit or Credit")), *code));
            if (charge && l.feeMinor < 0)
                return row.error(
                    QStringLiteral("Fee Debit or Credit"),
                    QStringLiteral("'%1' is a credit, impossible for a %2 line")
                        .arg(row.optional(QStringLiteral("Fee Debit or Credit")), *code));
        }
        // The Initiation Date is the transaction time the fee rule judges the fee at; a report
        // may leave it empty where the Completion Date is set (PayPal reports as it knows them):
        // then the time is unknown (transacted_at NULL, the fee judged at captured_at), and the
        // line still imports. A row with neither date has no date at all: an error.
        const bool completedSet =
            !row.optional(QStringLiteral("Transaction Completion Date")).isEmpty();
        if (!completedSet ||
            !row.optional(QStringLiteral("Transaction Initiation Date")).isEmpty()) {
            auto initiated = row.time(QStringLiteral("Transaction Initiation Date"));
            if (!initiated)
                return initiated.error();
            l.transactedAtMs = *initiated;
            l.settledAtMs = *initiated;
        }
        if (completedSet) {
            auto completed = row.time(QStringLiteral("Transaction Completion Date"));
            if (!completed)
                return completed.error();
            l.settledAtMs = *completed;
        }
        // A refund, chargeback, hold or release names the capture it belongs to in PayPal
        // Reference ID (type TXN): the payment it settles.
        const bool byReference =
            kind != SettlementKind::Charge && !paymentSent &&
            row.optional(QStringLiteral("PayPal Reference ID Type")) == u"TXN" &&
            !row.optional(QStringLiteral("PayPal Reference ID")).isEmpty();
        const QString transactionId = row.optional(QStringLiteral("Transaction ID"));
        if (transactionId.isEmpty())
            return row.error(QStringLiteral("Transaction ID"), QStringLiteral("empty"));
        l.channelTxnId =
            byReference ? row.optional(QStringLiteral("PayPal Reference ID")) : transactionId;
        l.lineKey = transactionId + u':' + *code;
        out.lines << l;
    }
    if (!footer)
        return Csv::fieldError(
            records->last().line + 1, 1, QStringLiteral("record type"),
            QStringLiteral("the report ends without its FF record (truncated?)"));
    return out;
}

QByteArray PayPalStatementFormat::write(const QList<SettlementLine> &lines,
                                        const StatementWriteContext &ctx) const
{
    auto q = [](const QString &s) { return Csv::quote(s, true); };
    QStringList out;
    out << QStringLiteral("RH,%1,%2,%3,%4")
               .arg(q(StatementTable::formatUtc(ctx.periodToMs, kDate)), q(QStringLiteral("A")),
                    q(ctx.accountId), QStringLiteral("009"));
    out << QStringLiteral("FH,%1").arg(ctx.sequence, 2, 10, QLatin1Char('0'));
    out << QStringLiteral("SH,%1,%2,%3,%4")
               .arg(q(StatementTable::formatUtc(ctx.periodFromMs, kDate)),
                    q(StatementTable::formatUtc(ctx.periodToMs - 1000, kDate)), q(ctx.accountId),
                    q(QString()));
    out << QStringLiteral("CH,") + Csv::join(kColumns, true);
    int n = 0;
    for (const SettlementLine &l : lines) {
        // A refund, chargeback or adjustment names its capture in PayPal Reference ID.
        const bool byReference = l.kind != SettlementKind::Charge;
        const QString prefix = l.kind == SettlementKind::Refund       ? QStringLiteral("R")
                               : l.kind == SettlementKind::Chargeback ? QStringLiteral("C")
                                                                      : QStringLiteral("A");
        const QString code =
            l.kind == SettlementKind::Refund ? QStringLiteral("T1107")
            : l.kind == SettlementKind::Chargeback
                ? (l.grossMinor < 0 ? QStringLiteral("T1201") : QStringLiteral("T1202"))
            : l.kind == SettlementKind::Charge ? QStringLiteral("T0006")
                                               : QStringLiteral("T1200");
        const QString id = byReference ? prefix + l.channelTxnId.mid(1) : l.channelTxnId;
        QStringList f{
            id,
            l.reference,
            byReference ? l.channelTxnId : QString(),
            byReference ? QStringLiteral("TXN") : QString(),
            code,
            StatementTable::formatUtc(l.transactedAtMs ? l.transactedAtMs : l.settledAtMs, kDate),
            StatementTable::formatUtc(l.settledAtMs, kDate),
            l.grossMinor < 0 ? QStringLiteral("DR") : QStringLiteral("CR"),
            QString::number(qAbs(l.grossMinor)),
            l.currency,
            l.feeMinor < 0 ? QStringLiteral("CR") : QStringLiteral("DR"),
            QString::number(qAbs(l.feeMinor)),
            l.currency,
            QStringLiteral("oncepay:%1").arg(l.reference),
            QString(),
            QString(),
            QString(),
            QString(),
            QString(),
            QString(),
            QString()};
        QStringList quoted;
        for (qsizetype i = 0; i < f.size(); ++i) // amounts unquoted, varchars quoted (spec)
            quoted << ((i == 8 || i == 11) ? f[i] : q(f[i]));
        out << QStringLiteral("SB,") + quoted.join(u',');
        ++n;
    }
    out << QStringLiteral("SF,%1").arg(n) << QStringLiteral("SC,%1").arg(n)
        << QStringLiteral("RF,%1").arg(n) << QStringLiteral("RC,%1").arg(n)
        << QStringLiteral("FF,%1").arg(n);
    return (out.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n")).toUtf8();
}

QString PayPalStatementFormat::fileName(const StatementWriteContext &ctx) const
{
    return QStringLiteral("STL-%1.%2.009.CSV")
        .arg(StatementTable::formatUtc(ctx.periodToMs - 1, QStringLiteral("yyyyMMdd")))
        .arg(ctx.sequence, 2, 10, QLatin1Char('0'));
}

} // namespace OncePay
