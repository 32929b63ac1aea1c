#pragma once

// Tables of the write side of the console: fix proposals (the approvals queue and its
// history), a proposal's change as before → after, reconciliation runs and discrepancies.
// OrderIdRole gives the order a row belongs to; IdRole the row's own id.
// Thread contract: GUI thread only.

#include "common/rowtablemodel.h"
#include "desk/reconciliationdesk.h"
#include "fixes/fixtypes.h"

namespace OncePay {

inline constexpr int IdRole = Qt::UserRole + 10; // qint64: fix id, discrepancy id, run id

class FixModel : public RowTableModel<FixRequest> {
    Q_OBJECT
public:
    enum Column { Id, Kind, Target, Amount, Approvals, ProposedBy, Age, Status, Reason };
    explicit FixModel(QObject *parent = nullptr);
    void setNow(qint64 nowMs) { m_now = nowMs; }

private:
    qint64 m_now = 0;
};

// One row per field of a proposal's change: field, before, after.
// Shown as words; the stored field name and values stay in the tooltips.
struct ChangeRow {
    QString field;
    QString before;
    QString after;
    QString fieldCode;
    QString beforeCode;
    QString afterCode;
};

class ChangeModel : public RowTableModel<ChangeRow> {
    Q_OBJECT
public:
    explicit ChangeModel(QObject *parent = nullptr);
    void setChange(const QJsonObject &change);
    // A change's field name and a value of it as words (the stored ones are codes).
    static QString fieldName(const QString &field);
    static QString fieldValue(const QString &target, const QString &field, const QString &value);
};

class RunModel : public RowTableModel<ReconciliationRunRow> {
    Q_OBJECT
public:
    enum Column { Id, Period, Status, Coverage, Matched, AutoFixed, Opened, Actor, Finished };
    explicit RunModel(QObject *parent = nullptr);
};

class DiscrepancyDeskModel : public RowTableModel<DiscrepancyRow> {
    Q_OBJECT
public:
    enum Column {
        Id,
        Kind,
        Channel,
        Transaction,
        Order,
        Expected,
        Actual,
        Difference,
        Age,
        Status,
        Rule
    };
    explicit DiscrepancyDeskModel(QObject *parent = nullptr);
};

} // namespace OncePay
