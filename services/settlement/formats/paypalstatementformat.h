#pragma once

// PayPal's Settlement Report (STL-yyyymmdd.sequence.version.CSV, spec v9): typed records —
// RH report header, FH file header, SH section header, CH column header, SB section body
// (one per transaction event), SF/SC section footer/count, RF/RC report footer/count, FF file
// footer. Amounts are unsigned minor units with their own Debit/Credit flags (CR/DR) and
// currency; every varchar is quoted. A capture is named by its Transaction ID; a refund's
// SB row names the capture in PayPal Reference ID (type TXN). The SF record's row count
// must match the SB rows, so a truncated report is refused.
// Thread contract: stateless.

#include "statementformat.h"

namespace OncePay {

class PayPalStatementFormat final : public StatementFormat {
public:
    QString channel() const override { return QStringLiteral("paypal"); }
    Result<ParsedStatement> parse(const QByteArray &data) const override;
    QByteArray write(const QList<SettlementLine> &lines,
                     const StatementWriteContext &ctx) const override;
    QString fileName(const StatementWriteContext &ctx) const override;
    // Transaction Completion Date (the Initiation Date where it is empty)
    QString settledAtMeaning(const QString &) const override { return SettledAt::Completed; }
    // Transaction Initiation Date: when the payment (or refund) was made
    QString transactedAtColumn(const QString &) const override
    {
        return QStringLiteral("Transaction Initiation Date");
    }
};

} // namespace OncePay
