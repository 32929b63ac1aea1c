#pragma once

// What the console's tables share for fitting their columns into the width they have:
// - TableMiddleElideDelegate: a cell too narrow for its text is cut in the middle, so that ids
//   that are told apart by their ends (a channel's prefix and an id's tail) stay readable;
// - TableColumnFitter: the widths a table's columns take from their contents ("natural"
//   widths), remembered once per load, and the page's rule that turns them into widths for the
//   viewport, applied again whenever the viewport is resized (a window resized, a splitter
//   moved, a scroll bar shown).
// Thread contract: GUI thread only.

#include <QList>
#include <QObject>
#include <QStyledItemDelegate>

#include <functional>

class QTableView;

namespace OncePay {

class TableMiddleElideDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

// Sizes `table`'s columns to their contents as QTableView::resizeColumnsToContents does, but
// measures no stretched column (QHeaderView::Stretch): its width is the room the others leave,
// and measuring its text, a table's longest (an order timeline's details), was wasted — about a
// third of fitting a new order's timeline. A table with none is QTableView's own pass. Beside a
// stretched column, a stretched last section is left as it is too (QTableView's pass sizes it
// by the room left as well), so TableColumnFitter remembers its present width, not its contents'.
void resizeColumnsToContents(QTableView *table);

class TableColumnFitter : public QObject {
public:
    // Sets the column widths from the natural ones (one per column of the table's model).
    using Fit = std::function<void(const QList<int> &natural)>;

    // Watches `table`'s viewport (and is owned by the table).
    TableColumnFitter(QTableView *table, Fit fit);

    // Sizes the columns to their contents (resizeColumnsToContents above), remembers those
    // widths and fits.
    void measure();
    // Remembers the columns' present widths as the natural ones (the caller sized them to
    // their contents) and fits.
    void remember();
    // One column's natural width changed (e.g. a longer value loaded later); does not fit.
    void setNatural(int column, int width);
    const QList<int> &natural() const { return m_natural; }
    // Applies the page's rule to the remembered widths; nothing until they were measured for
    // the model's present columns.
    void fit();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTableView *m_table = nullptr;
    Fit m_fit;
    QList<int> m_natural;
};

} // namespace OncePay
