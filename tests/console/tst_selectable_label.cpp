// The order page's selectable title and facts (views/common/selectablelabel): while nobody
// selects, the label holds no text document (what made a new order's header cost 1.5–2 ms of
// layout) yet has the sizes, line breaks and pixels of a selectable QLabel, in English and in
// Chinese; the pointer coming in makes its text selectable by dragging, Ctrl+C copies it, and a
// selection or the keyboard focus keeps it so after the pointer leaves.

#include "common/selectablelabel.h"

#include <QApplication>
#include <QClipboard>
#include <QTest>

using namespace OncePay;

namespace {

const QStringList kTexts{
    QStringLiteral("Amount: 1,234.56 USD   ·   Customer: cust-0001234   ·   Current attempt:"
                   " req-ord-00012345-1 on stripe   ·   Transaction: pi_3NabcdefGhijkl   ·  "
                   " Updated: 2026-11-28 12:34:56"),
    QStringLiteral("金额：1,234.56 美元   ·   客户：cust-0001234   ·   当前尝试：req-ord-00012345-1"
                   "（stripe）   ·   交易：pi_3NabcdefGhijkl   ·   更新时间：2026-11-28 12:34:56"),
    QStringLiteral("Order ord-00012345 — Paid, version 3")};

// The label's text document, if it has one (QLabel keeps it in a QWidgetTextControl child).
bool hasTextDocument(const QLabel &label)
{
    for (const QObject *child : label.children())
        if (qstrcmp(child->metaObject()->className(), "QWidgetTextControl") == 0)
            return true;
    return false;
}

void enter(QWidget *w)
{
    QEnterEvent e(QPointF(2, 2), w->mapTo(w->window(), QPointF(2, 2)),
                  w->mapToGlobal(QPointF(2, 2)));
    QApplication::sendEvent(w, &e);
}

// `label` holding `text`, at `size`, on screen.
bool show(SelectableLabel &label, const QString &text, QSize size)
{
    label.setText(text);
    label.resize(size);
    label.show();
    return QTest::qWaitForWindowExposed(&label);
}

void leave(QWidget *w)
{
    QEvent e(QEvent::Leave);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestSelectableLabel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void measuresAndPaintsAsASelectableLabel_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("wrap");
        for (const QString &t : kTexts)
            for (bool wrap : {true, false})
                QTest::addRow("%s %s", qPrintable(t.left(12)), wrap ? "wrapped" : "one line")
                    << t << wrap;
    }

    void measuresAndPaintsAsASelectableLabel()
    {
        QFETCH(QString, text);
        QFETCH(bool, wrap);
        QWidget window;
        QLabel reference(&window);
        reference.setTextFormat(Qt::PlainText);
        reference.setTextInteractionFlags(Qt::TextSelectableByMouse);
        SelectableLabel label(&window);
        for (QLabel *l : {&reference, static_cast<QLabel *>(&label)}) {
            l->setWordWrap(wrap);
            l->setText(text);
        }
        QVERIFY(!label.isSelecting());
        QVERIFY(!hasTextDocument(label));
        QCOMPARE(label.minimumSizeHint(), reference.minimumSizeHint());
        for (int width : {120, 300, 451, 640, 1100})
            QCOMPARE(label.heightForWidth(width), reference.heightForWidth(width));
        // The size hint: on one line, QLabel's for a plain label. Wrapped, QLabel searches for a
        // pleasing width in up to three more layouts (differently for a plain label and a
        // selectable one); this label asks for its text on one line up to 80 average
        // characters, at the height it takes there (the page lays the label out by its height
        // for the width it has, compared above).
        const QSize hint = label.sizeHint();
        if (!wrap) {
            QLabel plain(text);
            plain.setTextFormat(Qt::PlainText);
            QCOMPARE(hint, plain.sizeHint());
        } else {
            QCOMPARE(hint.height(), label.heightForWidth(hint.width()));
            QVERIFY2(hint.width() >= label.minimumSizeHint().width(), qPrintable(text));
            const int oneLine = std::min(label.fontMetrics().horizontalAdvance(text),
                                         label.fontMetrics().averageCharWidth() * 80);
            QVERIFY2(std::abs(hint.width() - oneLine) <= 1,
                     qPrintable(QStringLiteral("%1 for %2").arg(hint.width()).arg(oneLine)));
        }
        for (int width : {300, 640}) {
            const QSize size(width,
                             std::max(label.heightForWidth(width), label.sizeHint().height()));
            label.resize(size);
            reference.resize(size);
            QCOMPARE(label.grab().toImage(), reference.grab().toImage());
        }
        QVERIFY(!hasTextDocument(label)); // measuring and painting did not make one
    }

    // What else QLabel sizes a text by — a margin, an indent, contents margins, an alignment,
    // a minimum size — and a label with no text (nothing, or a picture) sized as QLabel sizes it.
    void sizedByWhatQLabelSizesBy_data()
    {
        QTest::addColumn<int>("setup");
        const char *names[] = {"margin",       "indent",  "contents margins", "right and bottom",
                               "minimum size", "no text", "a picture"};
        for (int i = 0; i < int(std::size(names)); ++i)
            for (bool wrap : {true, false})
                QTest::addRow("%s %s", names[i], wrap ? "wrapped" : "one line") << (i * 2 + wrap);
    }

    void sizedByWhatQLabelSizesBy()
    {
        QFETCH(int, setup);
        const bool wrap = setup % 2;
        QLabel reference;
        reference.setTextFormat(Qt::PlainText);
        reference.setTextInteractionFlags(Qt::TextSelectableByMouse);
        QLabel plain; // (the size hint of a one-line text: a plain QLabel's)
        SelectableLabel label;
        QPixmap picture(48, 32);
        picture.fill(Qt::darkGreen);
        for (QLabel *l : {&reference, &plain, static_cast<QLabel *>(&label)}) {
            l->setTextFormat(Qt::PlainText);
            l->setWordWrap(wrap);
            l->setText(kTexts[0]);
            switch (setup / 2) {
            case 0: l->setMargin(5); break;
            case 1: l->setIndent(7); break;
            case 2: l->setContentsMargins(3, 4, 5, 6); break;
            case 3: l->setAlignment(Qt::AlignRight | Qt::AlignBottom); break;
            case 4: l->setMinimumSize(200, 80); break;
            case 5: l->setText({}); break;
            case 6: l->setPixmap(picture); break;
            }
        }
        QCOMPARE(label.minimumSizeHint(), reference.minimumSizeHint());
        for (int width : {300, 640})
            QCOMPARE(label.heightForWidth(width), reference.heightForWidth(width));
        if (!wrap || setup / 2 >= 5)
            QCOMPARE(label.sizeHint(), plain.sizeHint());
    }

    // The sizes it keeps are for the text and font they were measured for: another text, or
    // the same in another font, is measured anew (the order page sets a new text for every
    // order on the same label).
    void anotherTextOrFontIsMeasuredAnew()
    {
        QLabel reference;
        reference.setTextFormat(Qt::PlainText);
        reference.setTextInteractionFlags(Qt::TextSelectableByMouse);
        SelectableLabel label;
        for (QLabel *l : {&reference, static_cast<QLabel *>(&label)})
            l->setWordWrap(true);
        QFont bigger = label.font();
        bigger.setPointSizeF(bigger.pointSizeF() * 1.5);
        // Heights alone, the minimum size alone, and both (the layouts ask in any order).
        for (const auto &[heights, minimum] :
             {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
            for (const QString &text : {kTexts[0], kTexts[1], kTexts[0]}) {
                for (const QFont &font : {QFont(), bigger}) {
                    for (QLabel *l : {&reference, static_cast<QLabel *>(&label)}) {
                        l->setText(text);
                        l->setFont(font);
                    }
                    if (minimum)
                        QCOMPARE(label.minimumSizeHint(), reference.minimumSizeHint());
                    for (int width : {300, 640})
                        if (heights)
                            QCOMPARE(label.heightForWidth(width), reference.heightForWidth(width));
                }
            }
        }
    }

    void thePointerMakesItSelectableAndLeavingUndoesIt()
    {
        SelectableLabel label;
        QVERIFY(show(label, kTexts.first(), QSize(600, 60)));
        enter(&label);
        QVERIFY(label.isSelecting());
        QVERIFY(hasTextDocument(label));
        leave(&label);
        QVERIFY(!label.isSelecting());
        QVERIFY(!hasTextDocument(label));
        QCOMPARE(label.text(), kTexts.first());
    }

    void aDraggedSelectionIsKeptAfterThePointerLeaves()
    {
        SelectableLabel label;
        QVERIFY(show(label, kTexts.first(), QSize(900, 40)));
        enter(&label);
        const int y = label.height() / 2;
        QTest::mousePress(&label, Qt::LeftButton, {}, QPoint(2, y));
        QTest::mouseMove(&label, QPoint(200, y));
        QTest::mouseRelease(&label, Qt::LeftButton, {}, QPoint(200, y));
        QVERIFY(label.hasSelectedText());
        QVERIFY(kTexts.first().startsWith(label.selectedText()));
        QVERIFY(label.hasFocus()); // the drag gave it the focus, which the other window takes
        // The reader turns to another window (the ticket): the label loses the focus but keeps
        // its selection (QLabel keeps it then), and the pointer leaving it keeps it selectable.
        QWidget ticket;
        ticket.show();
        ticket.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&ticket));
        QVERIFY(!label.hasFocus());
        QVERIFY(label.hasSelectedText());
        leave(&label);
        QVERIFY(label.isSelecting());
        QVERIFY(label.hasSelectedText());
    }

    void aSelectionIsCopiedWithTheKeyboard()
    {
        QWidget window;
        auto *label = new SelectableLabel(&window);
        label->setText(kTexts.at(1));
        label->setGeometry(0, 0, 900, 40);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        enter(label);
        const int y = label->height() / 2;
        QTest::mousePress(label, Qt::LeftButton, {}, QPoint(1, y));
        QTest::mouseMove(label, QPoint(160, y));
        QTest::mouseRelease(label, Qt::LeftButton, {}, QPoint(160, y));
        QVERIFY(label->hasFocus()); // the click gave it the keyboard
        const QString selected = label->selectedText();
        QVERIFY(!selected.isEmpty());
        leave(label);
        QGuiApplication::clipboard()->clear();
        QTest::keySequence(label, QKeySequence::Copy);
        QCOMPARE(QGuiApplication::clipboard()->text(), selected);
        // The focus gone elsewhere with nothing selected any more: a plain label again.
        enter(label);
        QTest::mouseClick(label, Qt::LeftButton, {}, QPoint(400, y));
        leave(label);
        QVERIFY(label->isSelecting()); // it still has the focus
        label->clearFocus();
        QVERIFY(!label->isSelecting());
        QVERIFY(!hasTextDocument(*label));
    }
};

QTEST_MAIN(TestSelectableLabel)
#include "tst_selectable_label.moc"
