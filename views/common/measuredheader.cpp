#include "measuredheader.h"

#include "common/pixelcopy.h"

#include <QEvent>
#include <QFont>
#include <QPainter>

#include <QStyle>
#include <QStyleOptionHeader>

namespace OncePay {

namespace {

// Distinct titles kept before the cache starts over (a language switch brings a new set).
constexpr qsizetype kMaxTitles = 512;
// The bytes of section looks a header keeps, least recently used dropped first: a table's
// titles in a few widths and states (a section of 150 × 24 pixels is 14 KiB).
constexpr qsizetype kLookBytes = 2 * 1024 * 1024;

} // namespace

int stretchedLastSection(const QHeaderView *header)
{
    if (!header->stretchLastSection())
        return -1;
    for (int v = header->count() - 1; v >= 0; --v)
        if (const int logical = header->logicalIndex(v); !header->isSectionHidden(logical))
            return logical;
    return -1;
}

MeasuredHeader::MeasuredHeader(Qt::Orientation orientation, QWidget *parent)
    : QHeaderView(orientation, parent)
{
    setSectionsClickable(true);
    setHighlightSections(true);
    m_looks.setMaxCost(kLookBytes);
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

bool MeasuredHeader::keepsLook(const QPainter *painter, const QRect &rect, int logicalIndex) const
{
    const QAbstractItemModel *m = model();
    if (!rect.isValid() || !m)
        return false;
    // Copied where it would be drawn (pixelcopy.h): QHeaderView draws a section whole, except
    // the faded copy a dragged section leaves.
    if (!copiesPixelForPixel(painter))
        return false;
    // A stretched section takes a new width at every step of a window or splitter resized:
    // each would be a new look, and a wide one.
    if (sectionResizeMode(logicalIndex) == QHeaderView::Stretch)
        return false;
    if (logicalIndex == stretchedLastSection(this))
        return false;
    const Qt::Orientation o = orientation();
    for (int role : {Qt::FontRole, Qt::ForegroundRole, Qt::BackgroundRole, Qt::DecorationRole})
        if (m->headerData(logicalIndex, o, role).isValid())
            return false;
    // The pixmap starts as what is under the section, an opaque colour (pixelcopy.h).
    return opaqueBackground(viewport()).has_value();
}

void MeasuredHeader::paintSection(QPainter *painter, const QRect &rect, int logicalIndex) const
{
    if (!keepsLook(painter, rect, logicalIndex))
        return QHeaderView::paintSection(painter, rect, logicalIndex);
    // The option QHeaderView::paintSection hands the style.
    QStyleOptionHeaderV2 opt;
    initStyleOption(&opt);
    initStyleOptionForIndex(&opt, logicalIndex);
    opt.rect = rect;
    // A title placed from the section's left edge is drawn alike at any x; a centred or
    // right-aligned one lands on a fraction of a pixel, rounded differently at another x, so
    // its look is kept per x.
    const bool anyX = QStyle::visualAlignment(opt.direction, opt.textAlignment) & Qt::AlignLeft;
    const qreal dpr = painter->device()->devicePixelRatio();
    const QColor under = *opaqueBackground(viewport()); // (keepsLook: there is one)
    const Look key{opt.text,
                   anyX ? QRect(QPoint(0, rect.y()), rect.size()) : rect,
                   int(opt.state),
                   int(opt.position),
                   int(opt.selectedPosition),
                   int(opt.sortIndicator),
                   int(opt.textAlignment),
                   int(opt.textElideMode),
                   opt.isSectionDragTarget,
                   opt.direction,
                   opt.palette.cacheKey(),
                   under.rgba(),
                   dpr,
                   painter->font().key()};
    if (const QPixmap *kept = m_looks.object(key)) {
        painter->drawPixmap(rect.topLeft(), *kept);
        return;
    }
    QPixmap look((QSizeF(rect.size()) * dpr).toSize());
    look.setDevicePixelRatio(dpr);
    look.fill(under);
    {
        QPainter p(&look);
        p.setFont(painter->font());
        p.setPen(painter->pen());
        p.setLayoutDirection(painter->layoutDirection());
        p.setRenderHints(painter->renderHints());
        p.translate(-rect.topLeft()); // at the section's own coordinates (above)
        QHeaderView::paintSection(&p, rect, logicalIndex);
    }
    ++m_painted;
    painter->drawPixmap(rect.topLeft(), look);
    const qsizetype bytes = qsizetype(look.width()) * look.height() * 4;
    m_looks.insert(key, new QPixmap(std::move(look)), bytes);
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
        m_looks.clear();
        break;
    case QEvent::PaletteChange:
    case QEvent::LayoutDirectionChange: m_looks.clear(); break;
    default: break;
    }
}

} // namespace OncePay
