#pragma once

// A read-only table model over a list of plain structs: each column is a title and a
// function from a row and a role to a value. Subclasses declare their columns in the
// constructor; rows are replaced whole with setRows() (the page loads them off the GUI
// thread and hands them over), or a further page is added with appendRows().
// The rows are kept in the blocks they came in (one per setRows() or appendRows()): a page
// added to a long list moves none of the rows before it, and writes no new memory on the GUI
// thread — the page's own list, filled on a pool thread, is kept as it is. Moving 21,000 stuck
// records into one list blocked the GUI thread for 25–46 ms, most of it the first touch of the
// larger block's memory (tests/bench/README.md, 27th session).
// Role SortRole gives a column's sort key (falls back to the display text).
// Thread contract: GUI thread only.

#include <QAbstractTableModel>
#include <QList>

#include <algorithm>
#include <functional>

namespace OncePay {

inline constexpr int SortRole = Qt::UserRole;
inline constexpr int RefusedRole = Qt::UserRole + 1; // bool: a refused/failed row, highlighted
inline constexpr int OrderIdRole = Qt::UserRole + 2; // the order a row belongs to, if any

template <typename Row> class RowTableModel : public QAbstractTableModel {
public:
    using Cell = std::function<QVariant(const Row &, int role)>;

    explicit RowTableModel(QObject *parent = nullptr)
        : QAbstractTableModel(parent)
    {}

    void setRows(QList<Row> rows)
    {
        beginResetModel();
        m_blocks.clear();
        m_ends.clear();
        keep(std::move(rows));
        endResetModel();
    }
    // Pass the page with std::move to keep it without a copy.
    void appendRows(QList<Row> rows)
    {
        if (rows.isEmpty())
            return;
        const int first = rowCount();
        beginInsertRows({}, first, first + int(rows.size()) - 1);
        keep(std::move(rows));
        endInsertRows();
    }
    void clear() { setRows({}); }
    // Every row in order (a copy only when they came in more than one block).
    QList<Row> rows() const
    {
        if (m_blocks.size() == 1)
            return m_blocks.first();
        QList<Row> all;
        all.reserve(rowCount());
        for (const QList<Row> &block : m_blocks)
            all += block;
        return all;
    }
    const Row &rowAt(int row) const
    {
        if (m_blocks.size() == 1) // (most models: one block)
            return m_blocks.first().at(row);
        const qsizetype block =
            std::upper_bound(m_ends.cbegin(), m_ends.cend(), row) - m_ends.cbegin();
        return m_blocks.at(block).at(row - (block > 0 ? m_ends.at(block - 1) : 0));
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() || m_ends.isEmpty() ? 0 : m_ends.last();
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_columns.size());
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Row &row = rowAt(index.row());
        const Cell &cell = m_columns.at(index.column()).cell;
        QVariant v = cell(row, role);
        if (role == SortRole && !v.isValid())
            return cell(row, Qt::DisplayRole);
        if (role == Qt::ToolTipRole && !v.isValid())
            return cell(row, Qt::DisplayRole);
        return v;
    }
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
            section >= m_columns.size())
            return {};
        return m_columns.at(section).title;
    }

protected:
    void addColumn(const QString &title, Cell cell) { m_columns.append({title, std::move(cell)}); }

private:
    struct Column {
        QString title;
        Cell cell;
    };
    void keep(QList<Row> &&rows)
    {
        if (rows.isEmpty())
            return;
        m_ends.append(rowCount() + int(rows.size()));
        m_blocks.append(std::move(rows));
    }
    QList<Column> m_columns;
    QList<QList<Row>> m_blocks; // the rows, in the blocks they came in
    QList<int> m_ends;          // the row after each block's last
};

} // namespace OncePay
