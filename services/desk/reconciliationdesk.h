#pragma once

// What the reconciliation desk shows (DESIGN.md §4, §6): the runs with their coverage, the
// discrepancies by kind, channel, age and amount — each with the settlement line and the
// payment it was matched against, side by side — and the automatic corrections with the rule
// and fee change that allowed them. Read-only; fixes go through FixService.
// Thread contract: the connection's thread; results are plain values.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "reconciliation/reconciliationtypes.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace OncePay {

struct ReconciliationRunRow {
    qint64 id = 0;
    qint64 periodFrom = 0;
    qint64 periodTo = 0;
    QString status;
    qint64 eligible = 0;
    qint64 matched = 0;
    std::optional<qint64> coveragePpm;
    qint64 autoFixed = 0;
    qint64 opened = 0;
    QString actor;
    qint64 startedAt = 0;
    qint64 finishedAt = 0;
    bool closed = false; // a closed period covers it
};

struct SettlementSide {
    bool present = false;
    qint64 lineId = 0;
    QString kind;
    qint64 grossMinor = 0;
    qint64 feeMinor = 0;
    qint64 netMinor = 0;
    QString currency;
    qint64 settledAt = 0;
    QString settledAtMeaning; // SettledAt code: which of the channel's moments settledAt is
    // When the channel made the charge or refund (settlement_lines.transacted_at): the moment
    // the fee rule judges the fee at; 0 for a line imported before migration 0010.
    qint64 transactedAt = 0;
};

struct PaymentSide {
    bool present = false;
    QString orderId;
    qint64 amountMinor = 0;
    QString currency;
    QString status;
    qint64 capturedAt = 0;
    qint64 refundedAt = 0; // 0 while not refunded
    QString orderState;
};

struct DiscrepancyRow {
    qint64 id = 0;
    QString kind;
    QString channel;
    QString channelTxnId;
    QString orderId;
    std::optional<qint64> expectedMinor;
    std::optional<qint64> actualMinor;
    QString currency;
    QString status; // open, auto_fixed, resolved, written_off
    QString ruleId;
    int ruleVersion = 0;
    qint64 feeScheduleId = 0;
    QString feeScheduleNote; // the fee change that explained an automatic correction
    QString evidenceSha256;
    QString detail;
    qint64 openedAt = 0; // when a run found it ("found")
    qint64 closedAt = 0;
    // An exception ages from the money movement it is about, as aging buckets count by
    // transaction date, not from the run that found it — the same moment a fix of it is dated
    // by (discrepancymoment.h): a payment's own exception from its capture; a refund's (a
    // ":refund" key, refund_not_settled) from OncePay's last refund debit, or the refund line
    // for a refund OncePay never booked; refund_due from its obligation; a chargeback, an
    // adjustment, a settlement after a write-off, a duplicate or a line without a payment from
    // its line; where that moment is not known, opened_at.
    // ageMs = (closedAt, or now while open) − agedFromMs, never below 0. The desk's minAgeMs
    // filter and its order (oldest first) use the same moment, in SQL.
    qint64 agedFromMs = 0;
    qint64 ageMs = 0;
    qint64 openFixId = 0; // an open proposal on it, if any
    SettlementSide line;
    PaymentSide payment;

    // COALESCE(discrepancies.expected_currency, currency) (migration 0012): the currency of
    // expectedMinor. `currency` is always actualMinor's; the two differ for a currency
    // mismatch (expected in the order's currency) and a chargeback in another currency than
    // its payment's.
    QString expectedIn;
    QString expectedCurrency() const { return expectedIn.isEmpty() ? currency : expectedIn; }
    // Actual − expected, when both sides are there in one currency; none across currencies.
    std::optional<qint64> differenceMinor() const
    {
        if (!expectedMinor || !actualMinor || expectedCurrency() != currency)
            return std::nullopt;
        return *actualMinor - *expectedMinor;
    }
};

struct DiscrepancyFilter {
    qint64 id = 0;        // one discrepancy
    QStringList statuses; // empty: all
    QString kind;
    QString channel;
    qint64 minAgeMs = 0; // ageMs at least this (DiscrepancyRow::agedFromMs)
    int limit = 5000;
};

struct DeskSummary {
    QMap<QString, qint64> openByKind;
    QMap<QString, qint64> openByChannel;
    qint64 open = 0;
    qint64 autoFixed = 0;
    // Refunds owed (refund_obligations not resolved), as the stuck records and the dashboard
    // count them. One is an open refund_due exception once a run has seen the channel settle
    // the captured money (a line of the capture); before that it is owed but no exception.
    qint64 refundsOwed = 0;
    qint64 lastFinishedAt = 0; // latest finished run, 0 = never
    qint64 cadenceMs = 0;      // reconcile.cadence_hours
    bool overdue = false;      // no finished run within the cadence
};

class ReconciliationDesk {
public:
    ReconciliationDesk(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // All require Action::ReadOrders.
    Result<QList<ReconciliationRunRow>> runs(const Actor &actor, int limit = 200) const;
    Result<QList<DiscrepancyRow>> discrepancies(const DiscrepancyFilter &filter,
                                                const Actor &actor) const;
    Result<DeskSummary> summary(const Actor &actor) const;

    // Starts a reconciliation run from the console: finance reviewers only (they answer for
    // what it opens and corrects); progress and cancellation as in Reconciler. Every refusal
    // (no right to, now or at sign-in; a bad period; a bad ops setting) is audited as
    // reconciliation.refused and logged (Reconciler::refuse).
    Result<ReconcileReport> reconcile(const ReconcileOptions &options, const Actor &actor) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
