#pragma once

// The table look shared by the console's pages: whole-row selection, no row numbers,
// sortable where a proxy is in front, keyboard-navigable.
// Thread contract: GUI thread only.

#include "common/measuredheader.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QTableView>

namespace OncePay {

inline QTableView *makeTable(QWidget *parent, QAbstractItemModel *model, const QString &name)
{
    auto *t = new QTableView(parent);
    t->setObjectName(name);
    t->setHorizontalHeader(new MeasuredHeader(Qt::Horizontal, t)); // titles measured once
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(false);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->horizontalHeader()->setStretchLastSection(true);
    // Titles at the start of their column: a centred title of a long last column (a callback's
    // result, a reason) sat in the middle of its text's width, scrolled out of sight.
    t->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Column widths from the rows on screen only: measuring the default 1,000 rows per
    // column blocked the GUI thread for over 100 ms on a reload of the stuck list.
    t->horizontalHeader()->setResizeContentsPrecision(0);
    t->setTabKeyNavigation(false);
    return t;
}

} // namespace OncePay
