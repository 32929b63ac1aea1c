#pragma once

// A table header that measures each column title once and paints each section's look once.
// QHeaderView sizes a section by laying its title out anew (QFontMetrics::size: itemizing and
// shaping with HarfBuzz) every time it is asked — for its own size hint after every model reset,
// and again for each column a table fits to its contents — so half of the instructions of
// showing a customer's three hits went to shaping the same seven titles (callgrind,
// 2026-12-02). Here a title's size is kept per (text, a font the model gives the section, the
// sort indicator shown); a change of the header's font, style or enabled state starts over.
// Sections with an icon or a model-given size hint are measured by QHeaderView as before. Not
// covered, as no console table does it: a style sheet re-polished without a StyleChange, an
// orientation changed by restoreState().
// Painting: every model reset repaints the header, and the style draws each section's bevel
// and shapes its title again (0.2–0.6 ms of a new order's page for six unchanged titles). A
// section is drawn once per look — its title, size (and x, for a title not left-aligned), state
// (hover, pressed, selected, enabled, active), place in the row, sort indicator, alignment,
// elision, direction, palette and font, at a whole device-pixel ratio — into a pixmap, then
// copied (tst_measured_header compares the pixels, also at ratio 2). Up to 2 MiB of looks per
// header, the least recently used dropped first. Painted by QHeaderView as before: stretched
// sections (a new width at every step of a resize), sections whose model data gives them a font,
// colours or an icon, painters that scale, fractional device-pixel ratios.
// Thread contract: GUI thread only.

#include <QCache>
#include <QFont>
#include <QHash>
#include <QHeaderView>
#include <QPixmap>

#include <optional>

namespace OncePay {

// The logical index of the section `header` stretches as its last (the last visible one, with
// stretchLastSection on); -1 when none.
int stretchedLastSection(const QHeaderView *header);

class MeasuredHeader : public QHeaderView {
public:
    // As QTableView sets up its own headers: clickable sections, highlighted with a selection.
    explicit MeasuredHeader(Qt::Orientation orientation, QWidget *parent = nullptr);

    // How many titles were laid out by QHeaderView (each distinct one once): what tests count.
    int measuredTitles() const { return m_measured; }

    // How many section looks were drawn by QHeaderView (each distinct one once): for tests.
    int paintedLooks() const { return m_painted; }

protected:
    QSize sectionSizeFromContents(int logicalIndex) const override;
    void paintSection(QPainter *painter, const QRect &rect, int logicalIndex) const override;
    bool event(QEvent *event) override;
    bool viewportEvent(QEvent *event) override;

private:
    // A new font or style: every title is measured again.
    void forgetOn(const QEvent *event) const;

    struct Title {
        QString text;
        bool sortIndicator = false;
        std::optional<QFont> font; // the section's own (Qt::FontRole), compared whole
        bool operator==(const Title &) const = default;
    };
    friend size_t qHash(const Title &t, size_t seed = 0) noexcept
    {
        return qHashMulti(seed, t.text, t.sortIndicator, t.font ? qHash(*t.font) : size_t(0));
    }
    mutable QHash<Title, QSize> m_sizes;
    mutable int m_measured = 0;

    struct Look {
        QString text;
        QRect rect; // its x too unless the title is left-aligned (paintSection)
        int state = 0, position = 0, selectedPosition = 0, sortIndicator = 0, alignment = 0;
        int elide = 0;
        bool dragTarget = false;
        Qt::LayoutDirection direction = Qt::LeftToRight;
        qint64 palette = 0;
        QRgb under = 0; // the colour under the section
        qreal dpr = 1;
        QString font; // the painter's, QFont::key()
        bool operator==(const Look &) const = default;
    };
    friend size_t qHash(const Look &l, size_t seed = 0) noexcept
    {
        return qHashMulti(seed, l.text, l.rect.x(), l.rect.y(), l.rect.width(), l.rect.height(),
                          l.state, l.position, l.selectedPosition, l.sortIndicator, l.alignment,
                          l.elide, l.dragTarget, int(l.direction), l.palette, l.under, l.font);
    }
    // Whether a section is painted through m_looks (see the class comment), and its look.
    bool keepsLook(const QPainter *painter, const QRect &rect, int logicalIndex) const;
    mutable QCache<Look, QPixmap> m_looks; // cost: bytes
    mutable int m_painted = 0;
};

} // namespace OncePay
