#pragma once

// A plain-text label whose text can be selected with the mouse and copied with the keyboard
// (QLabel with Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard) that keeps QLabel's
// cheap measuring while nobody selects. A selectable QLabel holds its text in a QTextDocument
// and lays that document out twice for every size it is asked (the width tried, then the
// width it had), its word-wrapped size hint trying up to three widths: an order page's title
// and facts, new for every order, took 1.5–2 ms of the page's layout. Here the label is
// selectable while the pointer is over it (every selection begins with the pointer coming in),
// while it has the keyboard focus (a click gives it; Ctrl+C copies) and while text is selected
// or a button drags a selection outside it; otherwise it paints as a plain label, with the
// same line breaks, heights, minimum size and pixels (tst_selectable_label). As with any QLabel
// that takes the focus, its selection goes when the focus moves on within the window (it stays
// when the reader turns to another window).
// While plain, it also measures a new text in fewer layouts than QLabel, each of which shapes
// the text anew (a word-wrapped QLabel took five for its size hints, then one per width asked:
// 0.3–0.5 ms of a new order's page): one layout for both size hints, one more for a wrapped
// label's height at its hint's width, and the heights asked for are kept per width until the
// text changes. A wrapped label's size hint is its text on one line up to 80 average characters
// wide, at the height it takes there (QLabel searches for a narrower width in more layouts).
// Thread contract: GUI thread only.

#include <QLabel>

#include <array>

namespace OncePay {

class SelectableLabel : public QLabel {
public:
    explicit SelectableLabel(QWidget *parent = nullptr);

    // Whether the label is selectable now (and holds a text document).
    bool isSelecting() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void enterEvent(QEnterEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    // Back to a plain label once nothing needs the selection any more.
    void settle();

    // What the sizes below were measured for: the text and everything QLabel sizes it by.
    struct Look {
        QString text;
        QFont font;
        QMargins margins;
        int flags = 0, margin = 0, indent = 0;
        QSize minimumSize;
        int maximumWidth = 0;
        Qt::LayoutDirection direction = Qt::LeftToRight;
        bool operator==(const Look &) const = default;
    };
    Look look() const;
    // Whether the sizes kept are for look(); if not, they are dropped and it is kept instead.
    bool sameLook() const;
    // Whether this label measures itself (plain, not selecting, no line breaks of its own, no
    // frame or buddy that QLabel sizes by); otherwise QLabel does.
    bool measuresItself() const;
    // The sizes for look(), measured when first asked.
    void measure() const;

    struct Measured {
        Look look;
        bool measured = false; // hint and minimum
        QSize hint, minimum;
        std::array<std::pair<int, int>, 4> heights{}; // width → height, width 0 for none
        int nextHeight = 0;
    };
    mutable Measured m_measured;
};

} // namespace OncePay
