#pragma once

// KakaoPay's settlement detail export from the partner admin (정산 상세내역): a title line,
// then Korean headers — 거래일시, 정산일, TID, 가맹점주문번호, 결제구분 (승인 approval /
// 취소 cancel), 통화, 거래금액, 수수료, 부가세, 정산금액 — with amounts in whole won written
// with thousands separators ("12,000", quoted), cancellations negative, times in KST
// (UTC+9, no daylight saving). The fee the channel keeps is 수수료 + 부가세 (VAT on the fee).
// KakaoPay publishes no file specification; the columns follow its payment-order API
// (tid, partner_order_id, approved_at, amount, canceled_amount) as the admin export shows them.
// Thread contract: stateless.

#include "statementformat.h"

namespace OncePay {

class KakaoPayStatementFormat final : public StatementFormat {
public:
    QString channel() const override { return QStringLiteral("kakaopay"); }
    Result<ParsedStatement> parse(const QByteArray &data) const override;
    QByteArray write(const QList<SettlementLine> &lines,
                     const StatementWriteContext &ctx) const override;
    QString fileName(const StatementWriteContext &ctx) const override;
    // 정산일: a date, midnight KST
    QString settledAtMeaning(const QString &) const override { return SettledAt::PayoutDate; }
    // 거래일시: the trade's date and time (KST), when KakaoPay approved or cancelled it
    QString transactedAtColumn(const QString &) const override
    {
        return QStringLiteral("거래일시");
    }
};

} // namespace OncePay
