#pragma once

// A table header that measures each column title once. QHeaderView sizes a section by laying
// its title out anew (QFontMetrics::size: itemizing and shaping with HarfBuzz) every time it is
// asked — for its own size hint after every model reset, and again for each column a table
// fits to its contents — so a three-row hit list spent half of its ~0.8 ms on the GUI thread
// shaping the same six titles (callgrind, 2026-12-02). Here a title's size is kept per
// (text, the header's font, a font the model gives the section, the sort indicator shown);
// a change of font or style starts over. Sections with an icon or a model-given size hint are
// measured by QHeaderView as before.
// Thread contract: GUI thread only.

#include <QHash>
#include <QHeaderView>

namespace OncePay {

class MeasuredHeader : public QHeaderView {
public:
    // As QTableView sets up its own headers: clickable sections, highlighted with a selection.
    explicit MeasuredHeader(Qt::Orientation orientation, QWidget *parent = nullptr);

    // How many titles were laid out by QHeaderView (each distinct one once): what tests count.
    int measuredTitles() const { return m_measured; }

protected:
    QSize sectionSizeFromContents(int logicalIndex) const override;
    bool event(QEvent *event) override;
    bool viewportEvent(QEvent *event) override;

private:
    // A new font or style: every title is measured again.
    void forgetOn(const QEvent *event) const;

    mutable QHash<QString, QSize> m_sizes;
    mutable int m_measured = 0;
};

} // namespace OncePay
