// The order page's path line (views/orders/statepathlabel.h): it wraps between states, never
// before an arrow, as high as its lines at every width; each part's text is laid out once for
// as long as the font stays; a part's colour is painted behind it.

#include "orders/statepathlabel.h"

#include <QAccessible>
#include <QTest>

using namespace OncePay;

namespace {

using Part = StatePathLabel::Part;

QList<Part> path(const QStringList &states, const QColor &rollback = {})
{
    QList<Part> parts{Part{QStringLiteral("Path: "), false, {}}};
    for (qsizetype i = 0; i < states.size(); ++i) {
        if (i > 0)
            parts << Part{QStringLiteral(" → "), false, {}, false};
        parts << Part{states[i], i == states.size() - 1, i == 2 ? rollback : QColor()};
    }
    return parts;
}

const QStringList kLong{
    "pending payment",   "paying", "payment failed ↺", "pending payment", "paying",
    "paid, unconfirmed", "paid"};

} // namespace

class TstStatePathLabel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wrapsBetweenStatesAtEveryWidth()
    {
        StatePathLabel label;
        label.setParts(path(kLong));
        const int oneLine = label.sizeHint().width();
        const int lineHeight = label.fontMetrics().height();
        QCOMPARE(label.heightForWidth(oneLine), lineHeight);
        QCOMPARE(label.heightForWidth(oneLine - 1), 2 * lineHeight);
        int lastLines = 1;
        for (int width = oneLine; width >= label.minimumSizeHint().width(); width -= 7) {
            label.resize(width, label.heightForWidth(width));
            const QList<QRect> rects = label.partRects();
            const QList<Part> parts = label.parts();
            int lines = 1;
            for (qsizetype i = 0; i < rects.size(); ++i) {
                if (i > 0 && rects[i].y() > rects[i - 1].y()) {
                    ++lines;
                    QVERIFY2(parts[i].breakBefore, qPrintable(parts[i].text)); // not an arrow
                    QCOMPARE(rects[i].x(), 0);
                }
                if (parts[i].breakBefore) // an arrow may hang over the edge, a state not
                    QVERIFY2(rects[i].right() < width || rects[i].x() == 0,
                             qPrintable(QStringLiteral("%1 at %2").arg(parts[i].text).arg(width)));
            }
            QCOMPARE(label.heightForWidth(width), lines * lineHeight);
            QVERIFY(lines >= lastLines); // narrower: never fewer lines
            lastLines = lines;
        }
        QVERIFY(lastLines >= 4);
        QCOMPARE(label.text(), QStringLiteral("Path: ") + kLong.join(QStringLiteral(" → ")));
        QCOMPARE(label.accessibleName(), label.text());
    }

    void eachTextIsLaidOutOnce()
    {
        StatePathLabel label;
        label.setParts(path(kLong));
        (void)label.sizeHint();
        const int first = label.laidOut();
        // "Path: ", " → ", four distinct states regular, "paid" bold
        QCOMPARE(first, 2 + 4 + 1);
        label.setParts(path({"pending payment", "paying", "paid"}));
        label.resize(300, label.heightForWidth(300));
        (void)label.grab();
        label.setParts(path(kLong));
        (void)label.heightForWidth(120);
        (void)label.grab();
        QCOMPARE(label.laidOut(), first); // "paid" bold seen before; nothing new
        QFont bigger = label.font();
        bigger.setPointSize(bigger.pointSize() + 4);
        label.setFont(bigger); // another font: laid out again, wider
        const int before = label.sizeHint().width();
        QVERIFY(label.laidOut() > first);
        label.setFont(QFont());
        QVERIFY(label.sizeHint().width() < before);
    }

    // Screen readers read it as text, as they did the QLabel it replaced.
    void announcedAsText()
    {
        StatePathLabel label;
        label.setParts(path(kLong));
        QAccessibleInterface *a = QAccessible::queryAccessibleInterface(&label);
        QVERIFY(a);
        QCOMPARE(a->role(), QAccessible::StaticText);
        QCOMPARE(a->text(QAccessible::Name), label.text());
    }

    void paintsEachPartsColourBehindIt()
    {
        StatePathLabel label;
        const QColor amber(0xff, 0xe0, 0xa0);
        label.setParts(path(kLong, amber));
        label.resize(label.sizeHint());
        const QImage pixels = label.grab().toImage();
        const QList<QRect> rects = label.partRects();
        const QRect rolledBack = rects[1 + 2 * 2]; // "Path: ", then state, arrow, state, ...
        QCOMPARE(label.parts()[1 + 2 * 2].text, kLong[2]);
        const qreal dpr = pixels.devicePixelRatio();
        QCOMPARE(pixels.pixelColor(rolledBack.topLeft() * dpr), amber);
        QCOMPARE(pixels.pixelColor((rolledBack.bottomRight() - QPoint(1, 1)) * dpr), amber);
        QVERIFY(pixels.pixelColor(rects[1].topLeft() * dpr) != amber);
    }
};

QTEST_MAIN(TstStatePathLabel)
#include "tst_state_path_label.moc"
