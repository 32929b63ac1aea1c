// The order page's state diagram keeps each picture it painted (views/orders/statediagram.h):
// a kept picture has the pixels of the diagram drawn as before (on the window's colour, with
// nothing kept), a new path, current state, size or palette is drawn anew — never a stale
// picture — and a path shown before is copied, not drawn. Also run at a device-pixel ratio of 2
// (tst_state_diagram_pictures_dpr2).

#include "orders/statediagram.h"

#include <QApplication>
#include <QImage>
#include <QTest>
#include <QVBoxLayout>

#include <functional>

using namespace OncePay;

namespace {

using Steps = QList<std::pair<QString, QString>>;

const Steps kPaid{
    {"pending_payment", "paying"}, {"paying", "paid_unconfirmed"}, {"paid_unconfirmed", "paid"}};
const Steps kUnconfirmed{{"pending_payment", "paying"}, {"paying", "paid_unconfirmed"}};
const Steps kRolledBack{{"pending_payment", "paying"},           {"paying", "paid_unconfirmed"},
                        {"paid_unconfirmed", "pending_payment"}, {"pending_payment", "paying"},
                        {"paying", "paid_unconfirmed"},          {"paid_unconfirmed", "paid"}};

// The diagram in a window of the window's colour, as on the order page.
struct Shown {
    QWidget window;
    StateDiagram *diagram = new StateDiagram(&window);
    Shown()
    {
        auto *layout = new QVBoxLayout(&window);
        layout->addWidget(diagram);
        window.resize(760, 160);
        window.show();
        (void)QTest::qWaitForWindowExposed(&window);
    }
    QImage pixels() { return window.grab().toImage().convertToFormat(QImage::Format_RGB32); }
};

// What the diagram under test must show: a fresh one of `steps` in a window `setUp` prepares,
// painted twice (the second time from its kept picture).
QImage freshPixels(const Steps &steps, const QString &current,
                   const std::function<void(Shown &)> &setUp)
{
    Shown fresh;
    setUp(fresh);
    fresh.diagram->setPath(steps, current);
    (void)fresh.pixels();
    return fresh.pixels();
}

} // namespace

class TstStateDiagramPictures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Drawn as before: with nothing kept (no background of its own: the window's shows through,
    // each stroke on it) the window has the same pixels as with the kept pictures.
    void keptPicturesHaveTheDrawnPixels_data()
    {
        QTest::addColumn<int>("pointSize");
        QTest::newRow("the application's font") << 0;
        QTest::newRow("a larger font of its own") << 14; // the "×2" measured and drawn in it
    }
    void keptPicturesHaveTheDrawnPixels()
    {
        QFETCH(int, pointSize);
        auto withFont = [pointSize](Shown &shown) {
            if (pointSize == 0)
                return;
            QFont f = shown.diagram->font();
            f.setPointSize(pointSize);
            shown.diagram->setFont(f);
        };
        for (const auto &[steps, current] :
             {std::pair{kPaid, QStringLiteral("paid")},
              std::pair{kUnconfirmed, QStringLiteral("paid_unconfirmed")},
              std::pair{kRolledBack, QStringLiteral("paid")}}) {
            Shown kept;
            withFont(kept);
            kept.diagram->setPath(steps, current);
            const QImage copied = kept.pixels();
            QVERIFY(kept.diagram->picturesDrawn() > 0);
            Shown drawn;
            withFont(drawn);
            drawn.diagram->setAutoFillBackground(false); // nothing kept: drawn on the window
            drawn.diagram->setPath(steps, current);
            const int before = drawn.diagram->picturesDrawn(); // its first, empty, show
            const QImage direct = drawn.pixels();
            QCOMPARE(drawn.diagram->picturesDrawn(), before);
            QCOMPARE(copied, direct);
        }
    }

    // Each change shows its own picture; one shown before is copied; a new size starts over.
    void eachPictureIsItsOwnAndShownOnesAreCopied()
    {
        Shown shown;
        shown.diagram->setPath(kPaid, QStringLiteral("paid"));
        const QImage paid = shown.pixels();
        const int afterPaid = shown.diagram->picturesDrawn();
        shown.diagram->setPath(kUnconfirmed, QStringLiteral("paid_unconfirmed"));
        const QImage unconfirmed = shown.pixels();
        QVERIFY(unconfirmed != paid);
        QCOMPARE(shown.diagram->picturesDrawn(), afterPaid + 1);
        // The same path with another current state is another picture.
        shown.diagram->setPath(kUnconfirmed, QStringLiteral("paid"));
        QVERIFY(shown.pixels() != unconfirmed);
        QCOMPARE(shown.diagram->picturesDrawn(), afterPaid + 2);
        // Back to the paid order: copied, the same pixels.
        shown.diagram->setPath(kPaid, QStringLiteral("paid"));
        QCOMPARE(shown.pixels(), paid);
        QCOMPARE(shown.diagram->picturesDrawn(), afterPaid + 2);
        // A new width: drawn as it is at its first paint (a step of a resize), kept at its
        // second, both as a fresh diagram at that width draws it.
        shown.window.resize(900, 160);
        QTRY_COMPARE(shown.diagram->width(),
                     900 - 2 * shown.window.layout()->contentsMargins().left());
        const QImage wider = shown.pixels();
        QCOMPARE(shown.diagram->picturesDrawn(), afterPaid + 2);
        QCOMPARE(shown.pixels(), wider);
        QCOMPARE(shown.diagram->picturesDrawn(), afterPaid + 3);
        QCOMPARE(wider, freshPixels(kPaid, QStringLiteral("paid"), [&](Shown &fresh) {
                     fresh.window.resize(900, 160);
                     QTRY_COMPARE(fresh.diagram->width(), shown.diagram->width());
                 }));
    }

    // Another palette is another picture (a kept one in the old colours is not shown).
    void anotherPaletteIsDrawnAnew()
    {
        Shown shown;
        shown.diagram->setPath(kRolledBack, QStringLiteral("paid"));
        const QImage before = shown.pixels();
        QPalette dark = shown.window.palette();
        dark.setColor(QPalette::Window, QColor(0x30, 0x30, 0x30));
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Text, Qt::white);
        shown.window.setPalette(dark);
        const QImage after = shown.pixels();
        QVERIFY(after != before);
        QCOMPARE(after.pixelColor(1, 1), QColor(0x30, 0x30, 0x30));
        QCOMPARE(after, freshPixels(kRolledBack, QStringLiteral("paid"),
                                    [&](Shown &fresh) { fresh.window.setPalette(dark); }));
    }

    // A window resized step by step keeps no picture of each step.
    void stepsOfAResizeAreNotKept()
    {
        Shown shown;
        shown.diagram->setPath(kPaid, QStringLiteral("paid"));
        (void)shown.pixels();
        const int drawn = shown.diagram->picturesDrawn();
        for (int width = 700; width <= 756; width += 4) { // (not 760: the width shown first)
            shown.window.resize(width, 160);
            QTRY_COMPARE(shown.window.width(), width);
            (void)shown.pixels();
        }
        QCOMPARE(shown.diagram->picturesDrawn(), drawn);
        (void)shown.pixels(); // the last width painted again: now kept
        QCOMPARE(shown.diagram->picturesDrawn(), drawn + 1);
    }

    // A disabled (or inactive) window's colours are another picture, not the active one's.
    void anotherColourGroupIsAnotherPicture()
    {
        QPalette palette = QApplication::palette();
        palette.setColor(QPalette::Disabled, QPalette::Base, QColor(0xc0, 0xff, 0xc0));
        palette.setColor(QPalette::Disabled, QPalette::Window, QColor(0xff, 0xe0, 0xe0));
        Shown shown;
        shown.window.setPalette(palette);
        shown.diagram->setPath(kUnconfirmed, QStringLiteral("paid_unconfirmed"));
        (void)shown.pixels();
        const QImage enabled = shown.pixels();
        shown.window.setEnabled(false);
        const QImage disabled = shown.pixels();
        QVERIFY(disabled != enabled);
        QCOMPARE(disabled.pixelColor(2, 2), QColor(0xff, 0xe0, 0xe0));
        QCOMPARE(disabled,
                 freshPixels(kUnconfirmed, QStringLiteral("paid_unconfirmed"), [&](Shown &fresh) {
                     fresh.window.setPalette(palette);
                     fresh.window.setEnabled(false);
                 }));
        shown.window.setEnabled(true);
        QCOMPARE(shown.pixels(), enabled);
    }

    // At most kKeptPictures are kept: the oldest is drawn again after that many others.
    void keepsTheLatestPictures()
    {
        Shown shown;
        QList<QString> states{"pending_payment", "paying",    "paid_unconfirmed", "paid",
                              "refunded",        "cancelled", "payment_failed"};
        QVERIFY(states.size() > StateDiagram::kKeptPictures);
        const int shownEmpty = shown.diagram->picturesDrawn();
        for (const QString &s : states) {
            shown.diagram->setPath({}, s);
            (void)shown.pixels();
        }
        const int drawn = shown.diagram->picturesDrawn();
        QCOMPARE(drawn, shownEmpty + int(states.size()));
        shown.diagram->setPath({}, states.last()); // the latest: kept
        (void)shown.pixels();
        QCOMPARE(shown.diagram->picturesDrawn(), drawn);
        shown.diagram->setPath({}, states.first()); // kKeptPictures others since: drawn again
        (void)shown.pixels();
        QCOMPARE(shown.diagram->picturesDrawn(), drawn + 1);
    }
};

QTEST_MAIN(TstStateDiagramPictures)
#include "tst_state_diagram_pictures.moc"
