#include "kakaopaystatementformat.h"

#include "statementtable.h"

#include "core/money.h"

namespace OncePay {

namespace {

constexpr int kKst = 9 * 3600;

const QString cTime = QStringLiteral("거래일시");
const QString cSettleDate = QStringLiteral("정산일");
const QString cTid = QStringLiteral("TID");
const QString cOrder = QStringLiteral("가맹점주문번호");
const QString cType = QStringLiteral("결제구분");
const QString cCurrency = QStringLiteral("통화");
const QString cAmount = QStringLiteral("거래금액");
const QString cFee = QStringLiteral("수수료");
const QString cVat = QStringLiteral("부가세");
const QString cNet = QStringLiteral("정산금액");

QString won(qint64 v)
{
    // Grouped the way the export prints it: 1,234,567 (and -12,000 for cancellations).
    QString digits = QString::number(qAbs(v));
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, u',');
    return v < 0 ? u'-' + digits : digits;
}

} // namespace

Result<ParsedStatement> KakaoPayStatementFormat::parse(const QByteArray &data) const
{
    using namespace StatementTable;
    auto records = Csv::read(data);
    if (!records)
        return records.error();
    auto header = findHeader(*records, {cTime, cSettleDate, cTid, cType, cAmount, cFee, cNet});
    if (!header)
        return header.error();
    ParsedStatement out;
    out.channel = channel();
    for (qsizetype i = header->recordIndex + 1; i < records->size(); ++i) {
        const Row row{records->at(i), *header};
        if (row.record.fields.value(0).startsWith(QStringLiteral("합계"))) { // totals line
            ++out.skippedRecords;
            continue;
        }
        auto type = row.text(cType);
        if (!type)
            return type.error();
        SettlementLine l;
        if (*type == u"승인")
            l.kind = SettlementKind::Charge;
        else if (*type == u"취소" || *type == u"부분취소")
            l.kind = SettlementKind::Refund;
        else
            return row.error(cType, QStringLiteral("'%1' is neither 승인 nor 취소").arg(*type));
        l.lineNo = row.record.line;
        l.raw = row.record.raw;
        l.currency = QStringLiteral("KRW");
        if (header->find(cCurrency) >= 0) {
            auto code = StatementTable::currency(row, cCurrency);
            if (!code)
                return code.error();
            l.currency = *code;
        }
        auto gross = row.amount(cAmount, l.currency, true);
        auto fee = row.amount(cFee, l.currency, true);
        auto net = row.amount(cNet, l.currency, true);
        for (auto *r : {&gross, &fee, &net})
            if (!*r)
                return r->error();
        qint64 vat = 0;
        if (header->find(cVat) >= 0) {
            auto v = row.amount(cVat, l.currency, true);
            if (!v)
                return v.error();
            vat = *v;
        }
        // An approval takes no negative amount and no negative fee, a cancellation gives money
        // back: its amount is not positive.
        const bool charge = l.kind == SettlementKind::Charge;
        if (auto r = row.requireSign(cAmount, *gross, charge, *type); !r)
            return r.error();
        if (charge) {
            if (auto r = row.requireSign(cFee, *fee, true, *type); !r)
                return r.error();
            if (auto r = row.requireSign(cVat, vat, true, *type); !r)
                return r.error();
        }
        l.grossMinor = *gross;
        l.feeMinor = *fee + vat;
        l.netMinor = *net;
        if (l.grossMinor - l.feeMinor != l.netMinor)
            return row.error(cNet, QStringLiteral("거래금액 - 수수료 - 부가세 is %1, not %2")
                                       .arg(won(l.grossMinor - l.feeMinor), won(l.netMinor)));
        auto traded = row.time(cTime, kKst);
        if (!traded)
            return traded.error();
        auto settled = row.time(cSettleDate, kKst); // a date: midnight KST
        if (!settled)
            return settled.error();
        if (*settled + 86400000LL <= *traded)
            return row.error(cSettleDate, QStringLiteral("settled before the transaction"));
        l.transactedAtMs = *traded;
        l.settledAtMs = *settled;
        auto tid = row.text(cTid);
        if (!tid)
            return tid.error();
        if (tid->isEmpty())
            return row.error(cTid, QStringLiteral("empty"));
        l.channelTxnId = *tid;
        l.lineKey = *tid + u':' + l.kind + u':' + QString::number(l.transactedAtMs);
        out.lines << l;
    }
    return out;
}

QByteArray KakaoPayStatementFormat::write(const QList<SettlementLine> &lines,
                                          const StatementWriteContext &ctx) const
{
    auto kst = [](qint64 ms, const QString &f) {
        return StatementTable::formatUtc(ms + qint64(kKst) * 1000, f);
    };
    QStringList out;
    out << Csv::join({QStringLiteral("카카오페이 정산 상세내역 (%1 ~ %2)")
                          .arg(kst(ctx.periodFromMs, QStringLiteral("yyyy-MM-dd")),
                               kst(ctx.periodToMs - 1, QStringLiteral("yyyy-MM-dd")))});
    out << Csv::join(
        {cTime, cSettleDate, cTid, cOrder, cType, cCurrency, cAmount, cFee, cVat, cNet});
    for (const SettlementLine &l : lines) {
        const qint64 vat = l.feeMinor / 11; // the fee includes 10 % VAT on the fee itself
        out << Csv::join(
            {kst(l.transactedAtMs ? l.transactedAtMs : l.settledAtMs,
                 QStringLiteral("yyyy-MM-dd HH:mm:ss")),
             kst(l.settledAtMs, QStringLiteral("yyyy-MM-dd")), l.channelTxnId, l.reference,
             l.kind == SettlementKind::Refund ? QStringLiteral("취소") : QStringLiteral("승인"),
             l.currency, won(l.grossMinor), won(l.feeMinor - vat), won(vat), won(l.netMinor)});
    }
    return (QStringLiteral("\xFEFF") + out.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n"))
        .toUtf8();
}

QString KakaoPayStatementFormat::fileName(const StatementWriteContext &ctx) const
{
    return QStringLiteral("kakaopay_settlement_%1_%2.csv")
        .arg(StatementTable::formatUtc(ctx.periodFromMs, QStringLiteral("yyyyMMdd")),
             StatementTable::formatUtc(ctx.periodToMs - 1, QStringLiteral("yyyyMMdd")));
}

} // namespace OncePay
