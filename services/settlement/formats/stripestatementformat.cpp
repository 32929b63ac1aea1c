#include "stripestatementformat.h"

#include "statementtable.h"

#include "core/money.h"

namespace OncePay {

namespace {

const QStringList kColumns = {QStringLiteral("balance_transaction_id"),
                              QStringLiteral("created_utc"),
                              QStringLiteral("available_on_utc"),
                              QStringLiteral("currency"),
                              QStringLiteral("gross"),
                              QStringLiteral("fee"),
                              QStringLiteral("net"),
                              QStringLiteral("reporting_category"),
                              QStringLiteral("source_id"),
                              QStringLiteral("description"),
                              QStringLiteral("customer_facing_amount"),
                              QStringLiteral("customer_facing_currency"),
                              QStringLiteral("payment_intent_id"),
                              QStringLiteral("charge_id"),
                              QStringLiteral("automatic_payout_id"),
                              QStringLiteral("payment_metadata[order_id]")};

QString kindOf(const QString &category)
{
    if (category == u"charge")
        return SettlementKind::Charge;
    if (category == u"refund" || category == u"partial_capture_reversal")
        return SettlementKind::Refund;
    if (category == u"fee" || category == u"network_cost" || category == u"tax")
        return SettlementKind::Fee;
    if (category == u"payout" || category == u"payout_reversal" || category == u"transfer")
        return {}; // money leaving for the bank, not a payment's settlement
    return SettlementKind::Adjustment;
}

} // namespace

Result<ParsedStatement> StripeStatementFormat::parse(const QByteArray &data) const
{
    using namespace StatementTable;
    auto records = Csv::read(data);
    if (!records)
        return records.error();
    auto header =
        findHeader(*records, {QStringLiteral("balance_transaction_id"), QStringLiteral("currency"),
                              QStringLiteral("gross"), QStringLiteral("fee"), QStringLiteral("net"),
                              QStringLiteral("reporting_category"), QStringLiteral("created_utc")});
    if (!header)
        return header.error();
    ParsedStatement out;
    out.channel = channel();
    const bool hasAvailable = header->find(QStringLiteral("available_on_utc")) >= 0;
    for (qsizetype i = header->recordIndex + 1; i < records->size(); ++i) {
        const Row row{records->at(i), *header};
        auto category = row.text(QStringLiteral("reporting_category"));
        if (!category)
            return category.error();
        const QString kind = kindOf(*category);
        if (kind.isEmpty()) {
            ++out.skippedRecords;
            continue;
        }
        SettlementLine l;
        l.lineNo = row.record.line;
        l.kind = kind;
        l.raw = row.record.raw;
        auto code = StatementTable::currency(row, QStringLiteral("currency"));
        if (!code)
            return code.error();
        l.currency = *code;
        auto gross = row.amount(QStringLiteral("gross"), l.currency, false);
        auto fee = row.amount(QStringLiteral("fee"), l.currency, false);
        auto net = row.amount(QStringLiteral("net"), l.currency, false);
        for (auto *r : {&gross, &fee, &net})
            if (!*r)
                return r->error();
        l.grossMinor = *gross;
        l.feeMinor = *fee;
        l.netMinor = *net;
        if (l.grossMinor - l.feeMinor != l.netMinor)
            return row.error(QStringLiteral("net"),
                             QStringLiteral("gross - fee is %1, not %2")
                                 .arg(Currency::format(l.grossMinor - l.feeMinor, l.currency),
                                      Currency::format(l.netMinor, l.currency)));
        auto created = row.time(QStringLiteral("created_utc"));
        if (!created)
            return created.error();
        l.transactedAtMs = *created;
        l.settledAtMs = *created;
        if (hasAvailable && !row.optional(QStringLiteral("available_on_utc")).isEmpty()) {
            auto available = row.time(QStringLiteral("available_on_utc"));
            if (!available)
                return available.error();
            l.settledAtMs = *available;
        }
        l.channelTxnId = row.optional(QStringLiteral("payment_intent_id"));
        if (l.channelTxnId.isEmpty())
            l.channelTxnId = row.optional(QStringLiteral("source_id"));
        if (l.channelTxnId.isEmpty())
            l.channelTxnId = row.optional(QStringLiteral("balance_transaction_id"));
        if (l.channelTxnId.isEmpty())
            return row.error(QStringLiteral("balance_transaction_id"), QStringLiteral("empty"));
        out.lines << l;
    }
    return out;
}

QByteArray StripeStatementFormat::write(const QList<SettlementLine> &lines,
                                        const StatementWriteContext &ctx) const
{
    QString out = Csv::join(kColumns) + QStringLiteral("\n");
    int n = 0;
    const QString payout = QStringLiteral("po_sim%1").arg(ctx.periodFromMs / 1000, 0, 16);
    for (const SettlementLine &l : lines) {
        const int exp = Currency::exponent(l.currency).value_or(2);
        const QString id = l.channelTxnId.mid(3);
        const bool refund = l.kind == SettlementKind::Refund;
        const QString source = (refund ? QStringLiteral("re_") : QStringLiteral("ch_")) + id;
        out +=
            Csv::join(
                {QStringLiteral("txn_%1%2").arg(id).arg(++n, 4, 10, QLatin1Char('0')),
                 StatementTable::formatUtc(l.transactedAtMs ? l.transactedAtMs : l.settledAtMs),
                 StatementTable::formatUtc(l.settledAtMs), l.currency.toLower(),
                 Currency::formatAmount(l.grossMinor, exp), Currency::formatAmount(l.feeMinor, exp),
                 Currency::formatAmount(l.netMinor, exp), l.kind, source,
                 refund ? QStringLiteral("REFUND FOR ORDER %1, CUSTOMER").arg(l.reference)
                        : QStringLiteral("Order %1, purchase").arg(l.reference),
                 Currency::formatAmount(l.grossMinor, exp), l.currency.toLower(), l.channelTxnId,
                 QStringLiteral("ch_") + id, payout, l.reference}) +
            QStringLiteral("\n");
    }
    return out.toUtf8();
}

QString StripeStatementFormat::fileName(const StatementWriteContext &ctx) const
{
    return QStringLiteral("stripe_payout_reconciliation_%1_%2.csv")
        .arg(StatementTable::formatUtc(ctx.periodFromMs, QStringLiteral("yyyy-MM-dd")),
             StatementTable::formatUtc(ctx.periodToMs - 1, QStringLiteral("yyyy-MM-dd")));
}

} // namespace OncePay
