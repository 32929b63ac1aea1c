#pragma once

// A read-only table model over a list of plain structs: each column is a title and a
// function from a row and a role to a value. Subclasses declare their columns in the
// constructor; rows are replaced whole with setRows() (the page loads them off the GUI
// thread and hands them over), or a further page is added with appendRows().
// Role SortRole gives a column's sort key (falls back to the display text).
// Thread contract: GUI thread only.

#include <QAbstractTableModel>
#include <QList>

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
        m_rows = std::move(rows);
        endResetModel();
    }
    void appendRows(const QList<Row> &rows)
    {
        if (rows.isEmpty())
            return;
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + rows.size() - 1));
        m_rows += rows;
        endInsertRows();
    }
    void clear() { setRows({}); }
    const QList<Row> &rows() const { return m_rows; }
    const Row &rowAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_columns.size());
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Row &row = m_rows.at(index.row());
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
    QList<Column> m_columns;
    QList<Row> m_rows;
};

} // namespace OncePay
