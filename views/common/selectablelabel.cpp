#include "selectablelabel.h"

#include <QApplication>

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
