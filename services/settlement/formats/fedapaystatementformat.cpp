#include "fedapaystatementformat.h"

#include "statementtable.h"

#include "core/money.h"

namespace OncePay {

namespace {

const QStringList kColumns = {QStringLiteral("id"),
                              QStringLiteral("reference"),
                              QStringLiteral("description"),
                              QStringLiteral("amount"),
                              QStringLiteral("fees"),
                              QStringLiteral("commission"),
                              QStringLiteral("amount_transferred"),
                              QStringLiteral("currency"),
                              QStringLiteral("mode"),
                              QStringLiteral("status"),
                              QStringLiteral("created_at"),
                              QStringLiteral("approved_at"),
                              QStringLiteral("refunded_at")};

Result<qint64> whole(const StatementTable::Row &row, const QString &name, const QString &currency)
{
    auto t = row.text(name);
    if (!t)
        return t.error();
    if (t->isEmpty())
        return qint64(0);
    auto v = Currency::parseDecimal(StatementTable::ungroup(*t, true), currency, false);
    if (!v)
        return row.error(name, QStringLiteral("'%1' is not an amount in %2").arg(*t, currency));
    return *v;
}

} // namespace

Result<ParsedStatement> FedaPayStatementFormat::parse(const QByteArray &data) const
{
    using namespace StatementTable;
    auto records = Csv::read(data);
    if (!records)
        return records.error();
    auto header = findHeader(*records, {QStringLiteral("id"), QStringLiteral("amount"),
                                        QStringLiteral("fees"), QStringLiteral("currency"),
                                        QStringLiteral("status"), QStringLiteral("approved_at")});
    if (!header)
        return header.error();
    ParsedStatement out;
    out.channel = channel();
    for (qsizetype i = header->recordIndex + 1; i < records->size(); ++i) {
        const Row row{records->at(i), *header};
        auto status = row.text(QStringLiteral("status"));
        if (!status)
            return status.error();
        const QString s = status->toLower();
        if (s != u"approved" && s != u"transferred" && s != u"refunded") {
            ++out.skippedRecords;
            continue;
        }
        auto code = StatementTable::currency(row, QStringLiteral("currency"));
        if (!code)
            return code.error();
        auto amount = whole(row, QStringLiteral("amount"), *code);
        auto fees = whole(row, QStringLiteral("fees"), *code);
        auto commission = whole(row, QStringLiteral("commission"), *code);
        for (auto *r : {&amount, &fees, &commission})
            if (!*r)
                return r->error();
        // The export prints unsigned amounts: a refunded row's refund is its amount given back.
        const QString what = SettlementKind::Charge;
        if (auto r = row.requireSign(QStringLiteral("amount"), *amount, true, what); !r)
            return r.error();
        if (auto r = row.requireSign(QStringLiteral("fees"), *fees, true, what); !r)
            return r.error();
        if (auto r = row.requireSign(QStringLiteral("commission"), *commission, true, what); !r)
            return r.error();
        auto approved = row.time(QStringLiteral("approved_at"));
        if (!approved)
            return approved.error();
        auto id = row.text(QStringLiteral("id"));
        if (!id)
            return id.error();
        bool numeric = false;
        id->toLongLong(&numeric);
        if (!numeric)
            return row.error(QStringLiteral("id"),
                             QStringLiteral("'%1' is not a FedaPay transaction id").arg(*id));
        SettlementLine l;
        l.lineNo = row.record.line;
        l.raw = row.record.raw;
        l.channelTxnId = *id;
        l.kind = SettlementKind::Charge;
        l.lineKey = *id + QStringLiteral(":charge");
        l.currency = *code;
        l.grossMinor = *amount;
        l.feeMinor = *fees + *commission;
        l.netMinor = l.grossMinor - l.feeMinor;
        if (header->find(QStringLiteral("amount_transferred")) >= 0) {
            auto transferred = whole(row, QStringLiteral("amount_transferred"), *code);
            if (!transferred)
                return transferred.error();
            if (*transferred != l.netMinor)
                return row.error(QStringLiteral("amount_transferred"),
                                 QStringLiteral("amount - fees - commission is %1, not %2")
                                     .arg(l.netMinor)
                                     .arg(*transferred));
        }
        l.settledAtMs = *approved;
        l.transactedAtMs = *approved;
        out.lines << l;
        if (s == u"refunded") {
            auto refunded = row.time(QStringLiteral("refunded_at"));
            if (!refunded)
                return refunded.error();
            SettlementLine r = l;
            r.kind = SettlementKind::Refund;
            r.lineKey = *id + QStringLiteral(":refund");
            r.grossMinor = -l.grossMinor;
            r.feeMinor = 0;
            r.netMinor = r.grossMinor;
            r.settledAtMs = *refunded;
            r.transactedAtMs = *refunded;
            // same physical line: the second settlement of the same record
            out.lines << r;
        }
    }
    return out;
}

QByteArray FedaPayStatementFormat::write(const QList<SettlementLine> &lines,
                                         const StatementWriteContext &) const
{
    // One row per transaction: a refund line folds into its charge's row.
    QHash<QString, const SettlementLine *> refunds;
    for (const SettlementLine &l : lines)
        if (l.kind == SettlementKind::Refund)
            refunds.insert(l.channelTxnId, &l);
    auto grouped = [](qint64 v) {
        QString digits = QString::number(qAbs(v));
        for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
            digits.insert(i, u' ');
        return v < 0 ? u'-' + digits : digits;
    };
    QStringList out{Csv::join(kColumns)};
    for (const SettlementLine &l : lines) {
        if (l.kind == SettlementKind::Refund)
            continue;
        const SettlementLine *refund = refunds.value(l.channelTxnId);
        const qint64 commission = l.feeMinor / 2;
        const qint64 fees = l.feeMinor - commission;
        out << Csv::join(
            {l.channelTxnId, QStringLiteral("trx_%1").arg(l.channelTxnId),
             QStringLiteral("Commande %1, paiement mobile").arg(l.reference), grouped(l.grossMinor),
             grouped(fees), grouped(commission), grouped(l.netMinor), l.currency,
             QStringLiteral("mtn_open"),
             refund ? QStringLiteral("refunded") : QStringLiteral("approved"),
             StatementTable::formatUtc(l.transactedAtMs ? l.transactedAtMs : l.settledAtMs),
             StatementTable::formatUtc(l.settledAtMs),
             refund ? StatementTable::formatUtc(refund->settledAtMs) : QString()});
    }
    return (out.join(u'\n') + u'\n').toUtf8();
}

QString FedaPayStatementFormat::fileName(const StatementWriteContext &ctx) const
{
    return QStringLiteral("fedapay_transactions_%1_%2.csv")
        .arg(StatementTable::formatUtc(ctx.periodFromMs, QStringLiteral("yyyy-MM-dd")),
             StatementTable::formatUtc(ctx.periodToMs - 1, QStringLiteral("yyyy-MM-dd")));
}

} // namespace OncePay
