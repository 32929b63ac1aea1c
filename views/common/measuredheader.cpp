#include "measuredheader.h"

#include <QEvent>
#include <QFont>

namespace OncePay {

namespace {

// Distinct titles kept before the cache starts over (a language switch brings a new set).
constexpr qsizetype kMaxTitles = 512;

} // namespace

MeasuredHeader::MeasuredHeader(Qt::Orientation orientation, QWidget *parent)
    : QHeaderView(orientation, parent)
{
    setSectionsClickable(true);
    setHighlightSections(true);
}

QSize MeasuredHeader::sectionSizeFromContents(int logicalIndex) const
{
    const QAbstractItemModel *m = model();
    if (!m)
        return QHeaderView::sectionSizeFromContents(logicalIndex);
    const Qt::Orientation o = orientation();
    if (m->headerData(logicalIndex, o, Qt::SizeHintRole).isValid() ||
        m->headerData(logicalIndex, o, Qt::DecorationRole).isValid())
        return QHeaderView::sectionSizeFromContents(logicalIndex);
    // What the size depends on besides the style and the header's font (either changing
    // empties the cache): the title, the section's own font, whether a sort indicator is drawn.
    Title key{m->headerData(logicalIndex, o, Qt::DisplayRole).toString(), isSortIndicatorShown(),
              std::nullopt};
    if (const QVariant font = m->headerData(logicalIndex, o, Qt::FontRole);
        font.canConvert<QFont>())
        key.font = font.value<QFont>();
    if (auto it = m_sizes.constFind(key); it != m_sizes.constEnd())
        return *it;
    if (m_sizes.size() >= kMaxTitles)
        m_sizes.clear();
    ++m_measured;
    return *m_sizes.insert(key, QHeaderView::sectionSizeFromContents(logicalIndex));
}

bool MeasuredHeader::event(QEvent *event)
{
    forgetOn(event);
    return QHeaderView::event(event);
}

bool MeasuredHeader::viewportEvent(QEvent *event)
{
    // A new font reaches the viewport first, and QHeaderView sizes itself again there at once.
    forgetOn(event);
    return QHeaderView::viewportEvent(event);
}

void MeasuredHeader::forgetOn(const QEvent *event) const
{
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::StyleChange:
    case QEvent::EnabledChange: // the style may draw (and size) a disabled section otherwise
        m_sizes.clear();
        break;
    default: break;
    }
}

} // namespace OncePay
