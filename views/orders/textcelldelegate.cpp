#include "textcelldelegate.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyle>
#include <QTextLayout>

#include <cmath>

namespace OncePay {

namespace {

// Kept shaped texts per font before the cache starts over (an order page shows a few hundred).
constexpr qsizetype kMaxCachedTexts = 4096;

QStyle *styleOf(const QStyleOptionViewItem &opt)
{
    return opt.widget ? opt.widget->style() : QApplication::style();
}

int textMargin(const QStyleOptionViewItem &opt)
{
    return styleOf(opt)->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, opt.widget) + 1;
}

} // namespace

bool TextCellDelegate::plain(const QStyleOptionViewItem &opt)
{
    if (opt.features & (QStyleOptionViewItem::HasDecoration |
                        QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::WrapText))
        return false;
    if (opt.state & QStyle::State_Editing)
        return false;
    for (QChar c : opt.text)
        if (c == u'\n' || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            return false;
    return true;
}

const TextCellDelegate::Shaped &TextCellDelegate::shaped(const QString &text,
                                                         const QFont &font) const
{
    auto slot = std::find_if(m_cache.begin(), m_cache.end(),
                             [&font](const auto &entry) { return entry.first == font; });
    if (slot == m_cache.end()) {
        m_cache.emplace_back(font, QHash<QString, Shaped>());
        slot = m_cache.end() - 1;
    }
    QHash<QString, Shaped> &texts = slot->second;
    if (auto it = texts.constFind(text); it != texts.constEnd())
        return *it;
    if (texts.size() >= kMaxCachedTexts)
        texts.clear();
    // Laid out as the style lays out a line (fallback fonts, e.g. for Chinese, make it
    // taller), its glyphs kept to be drawn as they are.
    QTextLayout layout(text, font);
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(1e6);
    line.setPosition(QPointF(0, 0));
    layout.endLayout();
    Shaped s;
    s.runs = layout.glyphRuns();
    s.size = QSize(int(std::ceil(line.naturalTextWidth())), int(line.height()));
    return *texts.insert(text, s);
}

void TextCellDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int margin = textMargin(opt);
    const QRect textRect = opt.rect.adjusted(margin, 0, -margin, 0);
    if (!plain(opt)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const Shaped *text = opt.text.isEmpty() ? nullptr : &shaped(opt.text, opt.font);
    // Elided text, and text aligned right or centred (QTextLayout places those to a fraction
    // of a pixel, which glyphs drawn from a whole-pixel left edge do not reproduce exactly): the
    // style's own way.
    const bool left = QStyle::visualAlignment(opt.direction, opt.displayAlignment) & Qt::AlignLeft;
    if (!left || (text && text->size.width() > textRect.width())) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyle *style = styleOf(opt);
    const QWidget *widget = opt.widget;
    // As QCommonStyle's CE_ItemViewItem draws a text-only item, its text laid out once.
    painter->save();
    painter->setClipRect(opt.rect);
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    QPalette::ColorGroup group =
        opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(opt.state & QStyle::State_Active))
        group = QPalette::Inactive;
    if (text) {
        painter->setPen(opt.palette.color(group, opt.state & QStyle::State_Selected
                                                     ? QPalette::HighlightedText
                                                     : QPalette::Text));
        // Placed as the style places its laid-out line: vertically by its whole-pixel height.
        const int top =
            QStyle::alignedRect(opt.direction, opt.displayAlignment & Qt::AlignVertical_Mask,
                                QSize(textRect.width(), text->size.height()), textRect)
                .top();
        for (const QGlyphRun &run : text->runs)
            painter->drawGlyphRun(QPointF(textRect.left(), top), run);
    }
    if (opt.state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(opt);
        focus.rect = style->subElementRect(QStyle::SE_ItemViewItemFocusRect, &opt, widget);
        focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
        const QPalette::ColorGroup focusGroup =
            opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
        focus.backgroundColor =
            opt.palette.color(focusGroup, opt.state & QStyle::State_Selected ? QPalette::Highlight
                                                                             : QPalette::Window);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
    }
    painter->restore();
}

QSize TextCellDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (const QVariant hint = index.data(Qt::SizeHintRole); hint.isValid())
        return hint.toSize();
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (!plain(opt))
        return QStyledItemDelegate::sizeHint(option, index);
    const QSize text = opt.text.isEmpty() ? QSize(0, int(QFontMetricsF(opt.font).height()))
                                          : shaped(opt.text, opt.font).size;
    return {text.width() + 2 * textMargin(opt), text.height()};
}

} // namespace OncePay
