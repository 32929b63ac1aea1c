#pragma once

// Plain-text table cells drawn and measured without the style's item layout. QCommonStyle
// lays a cell's text out (QTextLayout: itemizing, shaping) three times to find the cell's
// rectangles, once more to draw it and again for every size hint, so an order page's tables
// spent ~0.4 ms fitting their columns and ~0.8 ms painting a dozen rows. Here each distinct
// (text, font) is laid out once and its glyphs kept. The look is the style's own: its
// item panel (selection, BackgroundRole), its text margins, Text/HighlightedText colours,
// FontRole, ForegroundRole, vertical alignment and the focus frame. Cells with an icon, a check
// box, wrapping, line breaks, text aligned right or centred, or text too wide for the cell
// (elided) are drawn by QStyledItemDelegate as before; their size hints come from here.
// One QTextLayout gives both a text's size and its glyphs (a QStaticText beside a measuring
// layout shaped every new text twice; a new order's page has a hundred of them).
// Thread contract: GUI thread only.

#include <QGlyphRun>
#include <QStyledItemDelegate>

#include <vector>

namespace OncePay {

class TextCellDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    struct Shaped {
        QList<QGlyphRun> runs; // placed from the line's top left (more than one with fallbacks)
        QSize size; // as the style sizes the line: its natural width rounded up, its height
    };
    // True when `opt` is a cell this delegate draws itself (plain text only).
    static bool plain(const QStyleOptionViewItem &opt);
    const Shaped &shaped(const QString &text, const QFont &font) const;

    // Per font (a table uses one or two: regular, bold), its texts shaped; bounded.
    mutable std::vector<std::pair<QFont, QHash<QString, Shaped>>> m_cache;
};

} // namespace OncePay
