#include "columnfit.h"

#include "common/measuredheader.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>

namespace OncePay {

void TableMiddleElideDelegate::initStyleOption(QStyleOptionViewItem *option,
                                               const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = Qt::ElideMiddle;
}

void resizeColumnsToContents(QTableView *table)
{
    const QHeaderView *header = table->horizontalHeader();
    bool stretched = false;
    for (int c = 0; c < header->count() && !stretched; ++c)
        stretched = header->sectionResizeMode(c) == QHeaderView::Stretch;
    if (!stretched) {
        table->resizeColumnsToContents(); // nothing to leave out: QTableView's own, in one pass
        return;
    }
    // Column by column, leaving out what QTableView's pass sizes by the room left: stretched
    // sections, and the last one when it stretches — resized here, it would keep that width as
    // the least it stretches to, and a narrower window would scroll it out of sight.
    const int last = stretchedLastSection(header);
    for (int c = 0; c < header->count(); ++c)
        if (c != last && !header->isSectionHidden(c) &&
            header->sectionResizeMode(c) != QHeaderView::Stretch)
            table->resizeColumnToContents(c);
}

TableColumnFitter::TableColumnFitter(QTableView *table, Fit fit)
    : QObject(table)
    , m_table(table)
    , m_fit(std::move(fit))
{
    m_table->viewport()->installEventFilter(this);
}

void TableColumnFitter::measure()
{
    resizeColumnsToContents(m_table);
    remember();
}

void TableColumnFitter::remember()
{
    m_natural.clear();
    const QHeaderView *header = m_table->horizontalHeader();
    for (int c = 0; c < header->count(); ++c)
        m_natural << header->sectionSize(c);
    fit();
}

void TableColumnFitter::setNatural(int column, int width)
{
    if (column >= 0 && column < m_natural.size())
        m_natural[column] = width;
}

void TableColumnFitter::fit()
{
    const QAbstractItemModel *model = m_table->model();
    if (!model || m_natural.size() != model->columnCount())
        return;
    m_fit(m_natural);
}

bool TableColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize && watched == m_table->viewport())
        fit();
    return QObject::eventFilter(watched, event);
}

} // namespace OncePay
