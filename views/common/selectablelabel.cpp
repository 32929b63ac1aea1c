#include "selectablelabel.h"

#include <QApplication>
#include <QStyle>
#include <QTextLayout>

#include <cmath>

namespace OncePay {

namespace {

constexpr Qt::TextInteractionFlags kSelectable =
    Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard;

} // namespace

SelectableLabel::SelectableLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::NoTextInteraction);
}

bool SelectableLabel::isSelecting() const
{
    return textInteractionFlags() == kSelectable;
}

void SelectableLabel::enterEvent(QEnterEvent *event)
{
    setTextInteractionFlags(kSelectable);
    QLabel::enterEvent(event);
}

void SelectableLabel::leaveEvent(QEvent *event)
{
    QLabel::leaveEvent(event);
    settle();
}

void SelectableLabel::focusOutEvent(QFocusEvent *event)
{
    QLabel::focusOutEvent(event);
    if (!underMouse())
        settle();
}

SelectableLabel::Look SelectableLabel::look() const
{
    return {text(),
            font(),
            contentsMargins(),
            int(alignment()) | (wordWrap() ? int(Qt::TextWordWrap) : 0),
            margin(),
            indent(),
            minimumSize(),
            maximumWidth(),
            layoutDirection()};
}

bool SelectableLabel::sameLook() const
{
    ensurePolished(); // (a style sheet's font is the label's once polished)
    Look now = look();
    if (now == m_measured.look)
        return true;
    m_measured = {}; // another text, font or setting: its sizes are still to measure
    m_measured.look = std::move(now);
    return false;
}

bool SelectableLabel::measuresItself() const
{
    // (no text: a pixmap, or nothing, which QLabel sizes otherwise)
    if (isSelecting() || textFormat() != Qt::PlainText || frameWidth() > 0 || buddy() ||
        text().isEmpty())
        return false;
    for (QChar c : text())
        if (c == u'\n' || c == u'\r' || c == u'\t' || c == QChar::LineSeparator ||
            c == QChar::ParagraphSeparator)
            return false;
    return true;
}

// As QLabel sizes a plain text label (QLabelPrivate::sizeForWidth): the text's bounding box
// laid out as QPainter lays it out (qt_format_text: lines of whole-pixel tops, the widest line's
// natural width), plus twice the margin, an indent only when set (no frame here), and the
// contents margins.
void SelectableLabel::measure() const
{
    if (sameLook() && m_measured.measured)
        return;
    m_measured.measured = true; // (the heights kept for this look stay)
    const Look &l = m_measured.look;
    const int align = QStyle::visualAlignment(layoutDirection(), Qt::Alignment(l.flags));
    int hextra = 2 * l.margin, vextra = 2 * l.margin;
    if (l.indent > 0) {
        if (align & (Qt::AlignLeft | Qt::AlignRight))
            hextra += l.indent;
        if (align & (Qt::AlignTop | Qt::AlignBottom))
            vextra += l.indent;
    }
    const QSize extra(hextra + l.margins.left() + l.margins.right(),
                      vextra + l.margins.top() + l.margins.bottom());
    // One layout: a wrapped label's text broken at every opportunity (each line its own word,
    // as QLabel finds its minimum width), the line's advances adding up to the text's width on
    // one line and its tallest fonts to one line's height; a one-line label's text on one line.
    const bool wrap = l.flags & Qt::TextWordWrap;
    QTextLayout layout(l.text, l.font);
    QTextOption option;
    option.setWrapMode(wrap ? QTextOption::WordWrap : QTextOption::NoWrap);
    option.setTextDirection(layoutDirection());
    layout.setTextOption(option);
    const QFontMetricsF spaces(l.font);
    qreal widest = 0, natural = 0, ascent = 0, descent = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(wrap ? 0 : 1e7);
        widest = std::max(widest, line.naturalTextWidth());
        natural += line.naturalTextWidth();
        // The spaces a line ends with hang past it; on one line, all but the text's last count.
        if (const int end = line.textStart() + line.textLength(); end < l.text.size())
            for (int i = end - 1; i >= line.textStart() && l.text.at(i).isSpace(); --i)
                natural += spaces.horizontalAdvance(l.text.at(i));
        ascent = std::max(ascent, line.ascent());
        descent = std::max(descent, line.descent());
    }
    layout.endLayout();
    const int oneLine = int(std::ceil(ascent + descent));
    if (!wrap) {
        m_measured.hint =
            (QSize(int(std::ceil(natural)), oneLine) + extra).expandedTo(l.minimumSize);
        m_measured.minimum = m_measured.hint;
        return;
    }
    const QFontMetrics fm(l.font);
    const int roomy = std::min(fm.averageCharWidth() * 80, l.maximumWidth) - extra.width();
    const int width = std::min(int(std::ceil(natural)), std::max(roomy, 1)) + extra.width();
    // As high as it is at that width (QLabel wraps a line whose last letter overhangs its
    // natural width, so even a text that fits is measured there).
    m_measured.hint = QSize(width, heightForWidth(width)).expandedTo(l.minimumSize);
    m_measured.minimum = (QSize(int(std::ceil(widest)), oneLine) + extra).expandedTo(l.minimumSize);
    m_measured.minimum.setHeight(std::min(m_measured.minimum.height(), m_measured.hint.height()));
}

QSize SelectableLabel::sizeHint() const
{
    if (!measuresItself())
        return QLabel::sizeHint();
    measure();
    return m_measured.hint;
}

QSize SelectableLabel::minimumSizeHint() const
{
    if (!measuresItself())
        return QLabel::minimumSizeHint();
    measure();
    return m_measured.minimum;
}

int SelectableLabel::heightForWidth(int width) const
{
    if (!measuresItself() || !wordWrap())
        return QLabel::heightForWidth(width);
    sameLook();
    for (const auto &[w, h] : m_measured.heights)
        if (w == width && w > 0)
            return h;
    const int height = QLabel::heightForWidth(width);
    m_measured.heights[size_t(m_measured.nextHeight)] = {width, height};
    m_measured.nextHeight = (m_measured.nextHeight + 1) % int(m_measured.heights.size());
    return height;
}

void SelectableLabel::settle()
{
    // Kept selectable while text is selected (QLabel drops a selection when the focus moves on
    // within the window, not when another window takes it), while it has the focus, and while
    // a drag that left the label still holds the mouse.
    if (hasSelectedText() || hasFocus() || QApplication::mouseButtons() != Qt::NoButton)
        return;
    setTextInteractionFlags(Qt::NoTextInteraction);
}

} // namespace OncePay
