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

// Stripe's reporting categories (docs.stripe.com/reports/reporting-categories). A dispute and
// its reversal are chargebacks; a partial-capture reversal (the uncaptured part of an
// authorisation: the charge plus it is what was captured) is an adjustment the matcher adds to
// the charge; a category OncePay does not know is an adjustment too, kept, never dropped.
QString kindOf(const QString &category)
{
    if (category == u"charge")
        return SettlementKind::Charge;
    if (category == u"refund")
        return SettlementKind::Refund;
    if (category == u"dispute" || category == u"dispute_reversal")
        return SettlementKind::Chargeback;
    if (category == u"fee" || category == u"network_cost" || category == u"tax")
        return SettlementKind::Fee;
    if (category == u"payout" || category == u"payout_reversal" || category == u"transfer")
        return {}; // money leaving for the bank, not a payment's settlement
    return SettlementKind::Adjustment;
}

// The signs a category cannot have: a charge takes no negative gross or fee, a refund, a
// dispute and a partial-capture reversal give money back (no positive gross), a dispute
// reversal returns it (no negative gross).
Result<void> checkSigns(const StatementTable::Row &row, const QString &category,
                        const SettlementLine &l)
{
    const QString gross = QStringLiteral("gross");
    if (category == u"charge") {
        if (auto r = row.requireSign(gross, l.grossMinor, true, category); !r)
            return r;
        return row.requireSign(QStringLiteral("fee"), l.feeMinor, true, category);
    }
    if (category == u"refund" || category == u"dispute" || category == u"partial_capture_reversal")
        return row.requireSign(gross, l.grossMinor, false, category);
    if (category == u"dispute_reversal")
        return row.requireSign(gross, l.grossMinor, true, category);
    return {};
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
        if (auto r = checkSigns(row, *category, l); !r)
            return r.error();
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
        auto balanceTxn = row.text(QStringLiteral("balance_transaction_id"));
        if (!balanceTxn)
            return balanceTxn.error();
        if (balanceTxn->isEmpty())
            return row.error(QStringLiteral("balance_transaction_id"), QStringLiteral("empty"));
        l.lineKey = *balanceTxn;
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
        const bool dispute = l.kind == SettlementKind::Chargeback;
        const QString category = dispute ? (l.grossMinor < 0 ? QStringLiteral("dispute")
                                                             : QStringLiteral("dispute_reversal"))
                                         : l.kind;
        // Balance transaction ids are unique: a payment's refund in next week's file must not
        // take its charge's id (the line key).
        const QString tag = l.kind == SettlementKind::Charge ? QString() : l.kind.left(2);
        const QString source = (refund    ? QStringLiteral("re_")
                                : dispute ? QStringLiteral("dp_")
                                          : QStringLiteral("ch_")) +
                               id;
        out +=
            Csv::join(
                {QStringLiteral("txn_%1%2%3").arg(id, tag).arg(++n, 4, 10, QLatin1Char('0')),
                 StatementTable::formatUtc(l.transactedAtMs ? l.transactedAtMs : l.settledAtMs),
                 StatementTable::formatUtc(l.settledAtMs), l.currency.toLower(),
                 Currency::formatAmount(l.grossMinor, exp), Currency::formatAmount(l.feeMinor, exp),
                 Currency::formatAmount(l.netMinor, exp), category, source,
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
