#pragma once

// A channel's settlement statement layout (DESIGN.md §4): one class per channel, parsing that
// channel's own report into SettlementLines and writing lines back in the same layout (the
// simulator's statements). Adding a channel is one class plus a line in forChannel().
// Thread contract: formats are stateless; parse()/write() are safe from any thread.

#include "settlement/settlementline.h"

#include "core/result.h"

#include <QByteArray>

namespace OncePay {

struct StatementWriteContext {
    qint64 periodFromMs = 0;
    qint64 periodToMs = 0; // exclusive
    QString accountId = QStringLiteral("oncepay-merchant");
    int sequence = 1;
};

class StatementFormat {
public:
    virtual ~StatementFormat() = default;
    virtual QString channel() const = 0;
    // A corrupt file is refused as a whole, with the line and column that broke it.
    virtual Result<ParsedStatement> parse(const QByteArray &data) const = 0;
    virtual QByteArray write(const QList<SettlementLine> &lines,
                             const StatementWriteContext &ctx) const = 0;
    // The file name the channel gives such a statement.
    virtual QString fileName(const StatementWriteContext &ctx) const = 0;
    // What settled_at means for a line of `kind` read from this layout (a SettledAt code): the
    // date finance sees as "settled" is the channel's, and not the same moment everywhere.
    virtual QString settledAtMeaning(const QString &kind) const = 0;
    // The column a line of `kind` takes its transaction time from (SettlementLine::
    // transactedAtMs: when the channel made the charge or refund, and so fixed its fee), or
    // an empty string when this layout prints none.
    virtual QString transactedAtColumn(const QString &kind) const = 0;

    // nullptr for a channel without a format.
    static const StatementFormat *forChannel(const QString &channel);
    static QStringList channels();
};

} // namespace OncePay
