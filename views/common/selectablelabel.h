#pragma once

// A plain-text label whose text can be selected with the mouse and copied with the keyboard
// (QLabel with Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard) that keeps QLabel's
// cheap measuring while nobody selects. A selectable QLabel holds its text in a QTextDocument
// and lays that document out twice for every size it is asked (the width tried, then the
// width it had), its word-wrapped size hint trying up to three widths: an order page's title
// and facts, new for every order, took 1.5–2 ms of the page's layout. Here the label is
// selectable while the pointer is over it (every selection begins with the pointer coming in),
// while it has the keyboard focus (a click gives it; Ctrl+C copies) and while text is selected
// or a button drags a selection outside it; otherwise it measures and paints as a plain label,
// with the same sizes, line breaks and pixels (tst_selectable_label). As with any QLabel that
// takes the focus, its selection goes when the focus moves on within the window (it stays when
// the reader turns to another window).
// Thread contract: GUI thread only.

#include <QLabel>

namespace OncePay {

class SelectableLabel : public QLabel {
public:
    explicit SelectableLabel(QWidget *parent = nullptr);

    // Whether the label is selectable now (and holds a text document).
    bool isSelecting() const;

protected:
    void enterEvent(QEnterEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    // Back to a plain label once nothing needs the selection any more.
    void settle();
};

} // namespace OncePay
