#pragma once

// FedaPay's transaction export (dashboard → Transactions → Export, CSV): one row per
// transaction with id (the numeric id FedaPay's webhooks carry), reference, description,
// amount, fees, commission, amount_transferred, currency (ISO code, XOF), mode, status
// (approved, refunded, declined, canceled, pending), created_at, approved_at, refunded_at.
// Amounts are whole francs CFA; French-locale exports group thousands with spaces ("10 000").
// The channel keeps fees + commission; an approved row settles a charge, a refunded row a
// charge and its refund, other statuses settle nothing.
// Thread contract: stateless.

#include "statementformat.h"

namespace OncePay {

class FedaPayStatementFormat final : public StatementFormat {
public:
    QString channel() const override { return QStringLiteral("fedapay"); }
    Result<ParsedStatement> parse(const QByteArray &data) const override;
    QByteArray write(const QList<SettlementLine> &lines,
                     const StatementWriteContext &ctx) const override;
    QString fileName(const StatementWriteContext &ctx) const override;
    // approved_at for the charge, refunded_at for its refund
    QString settledAtMeaning(const QString &kind) const override
    {
        return kind == SettlementKind::Refund ? SettledAt::Refunded : SettledAt::Approved;
    }
    // The same moments: a FedaPay payment is made when it is approved (created_at is when the
    // merchant opened the pending transaction, before any money moved), a refund when refunded.
    QString transactedAtColumn(const QString &kind) const override
    {
        return kind == SettlementKind::Refund ? QStringLiteral("refunded_at")
                                              : QStringLiteral("approved_at");
    }
};

} // namespace OncePay
