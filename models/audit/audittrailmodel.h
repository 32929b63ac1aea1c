#pragma once

// The audit trail as a table filled page by page (DESIGN.md §5, §6): the model never queries.
// When the view scrolls near the end it asks for more (canFetchMore/fetchMore), the model
// emits fetchRequested(afterSeq) once, the page runs the keyset query off the GUI thread and
// hands the rows back with appendPage(); reset() starts over for a new filter, and a
// generation number lets the page drop pages that belong to an older filter.
// Thread contract: GUI thread only.

#include "audit/audittrailquery.h"

#include <QAbstractTableModel>

namespace OncePay {

class AuditTrailModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Seq, Time, Actor, Role, Action, Entity, Order, Callback, Amount, Reason, Count };

    explicit AuditTrailModel(QObject *parent = nullptr);

    // Forgets every row; the next fetchMore asks again from the start. Returns the new
    // generation, which fetchRequested carries.
    quint64 reset();
    quint64 generation() const { return m_generation; }
    // Appends a page for `generation`; a page of an older generation is ignored.
    void appendPage(quint64 generation, const AuditPage &page);
    // The request for `generation` failed: stop asking until reset().
    void fetchFailed(quint64 generation);

    const AuditLogRow &rowAt(int row) const { return m_rows.at(row); }
    bool atEnd() const { return m_atEnd; }
    bool loading() const { return m_loading; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void fetchRequested(quint64 generation, qint64 afterSeq);

private:
    QList<AuditLogRow> m_rows;
    quint64 m_generation = 0;
    qint64 m_lastSeq = 0;
    bool m_atEnd = true; // nothing to fetch until the first reset()
    bool m_loading = false;
};

} // namespace OncePay
