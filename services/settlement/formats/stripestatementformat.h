#pragma once

// Stripe's itemized payout reconciliation report (payout_reconciliation.itemized.5; the
// itemized balance-change report has the same columns): one row per balance transaction,
// lower-case currency, amounts as decimal strings in major units ("21.12", "-5.00", JPY
// "1000"), timestamps "YYYY-MM-DD HH:MM:SS" in UTC. The payment is named by
// payment_intent_id (what Stripe's webhooks carry), falling back to source_id.
// Thread contract: stateless.

#include "statementformat.h"

namespace OncePay {

class StripeStatementFormat final : public StatementFormat {
public:
    QString channel() const override { return QStringLiteral("stripe"); }
    Result<ParsedStatement> parse(const QByteArray &data) const override;
    QByteArray write(const QList<SettlementLine> &lines,
                     const StatementWriteContext &ctx) const override;
    QString fileName(const StatementWriteContext &ctx) const override;
    // available_on_utc (created_utc only in an export without it)
    QString settledAtMeaning(const QString &) const override { return SettledAt::FundsAvailable; }
    // created_utc: the balance transaction's creation, when Stripe made the charge or refund
    QString transactedAtColumn(const QString &) const override
    {
        return QStringLiteral("created_utc");
    }
};

} // namespace OncePay
