// The order page's tab bar (views/common/kepttabbar): once a look was painted it is kept, and
// painting it again — the bar moved by a header of another height, or anything else — copies
// it, with the pixels QTabBar paints: for the current tab changed, a tab under the pointer, the
// keyboard focus, another title, the bar disabled, in English and in Chinese (each step seen
// to change QTabBar's pixels). A look it does not keep (tabs that can be dragged, a style sheet)
// is painted by QTabBar as before.

#include "common/kepttabbar.h"

#include <QApplication>
#include <QHoverEvent>
#include <QPainter>
#include <QProxyStyle>
#include <QStyleOption>
#include <QTest>
#include <QVBoxLayout>

using namespace OncePay;

namespace {

const QStringList kEnglish{QStringLiteral("&Timeline"),
                           QStringLiteral("&Callbacks"),
                           QStringLiteral("&Payments and ledger"),
                           QStringLiteral("&Requests"),
                           QStringLiteral("Purchase and &logistics"),
                           QStringLiteral("&Audit rows")};
const QStringList kChinese{QStringLiteral("时间线(&T)"),     QStringLiteral("回调(&C)"),
                           QStringLiteral("支付与账本(&P)"), QStringLiteral("请求(&R)"),
                           QStringLiteral("采购与物流(&L)"), QStringLiteral("审计记录(&A)")};

// The style with a mark on a tab under the pointer and on the current tab of a bar with the
// focus (Fusion draws neither here), so that keeping a picture of another state would show.
class MarkingStyle : public QProxyStyle {
public:
    MarkingStyle()
        : QProxyStyle(QStringLiteral("Fusion"))
    {}
    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget) const override
    {
        QProxyStyle::drawControl(element, option, painter, widget);
        if (element != CE_TabBarTabShape)
            return;
        if (option->state & State_MouseOver)
            painter->fillRect(QRect(option->rect.topLeft() + QPoint(3, 3), QSize(4, 4)), Qt::red);
        if (option->state & State_HasFocus)
            painter->fillRect(QRect(option->rect.topLeft() + QPoint(9, 3), QSize(4, 4)), Qt::blue);
    }
};

// A window with a kept bar and, below it, a QTabBar of the same tabs, as the order page has its
// bar: in document mode, on the window's colour.
struct Bars {
    QWidget window;
    KeptTabBar *kept = new KeptTabBar(&window);
    QTabBar *plain = new QTabBar(&window);
    MarkingStyle style;

    explicit Bars(const QStringList &titles)
    {
        window.setAutoFillBackground(true);
        auto *layout = new QVBoxLayout(&window);
        layout->setSpacing(40); // (room for the kept bar moved down)
        for (QTabBar *bar : {static_cast<QTabBar *>(kept), plain}) {
            bar->setStyle(&style);
            bar->setFocusPolicy(Qt::NoFocus); // (focused by the step that tests it only)
            bar->setDocumentMode(true);
            bar->setExpanding(false);
            for (const QString &t : titles)
                bar->addTab(t);
            layout->addWidget(bar);
        }
        layout->addStretch();
        window.resize(900, 200);
    }
    // Both bars' pixels as the window shows them (grab() paints as the screen does), on what
    // is under them there.
    static QImage pixels(QTabBar *bar) { return bar->window()->grab(bar->geometry()).toImage(); }
    QImage keptPixels() const { return pixels(kept); }
    QImage plainPixels() const { return pixels(plain); }
    void hover(int tab)
    {
        for (QTabBar *bar : {static_cast<QTabBar *>(kept), plain}) {
            const QPointF at = bar->tabRect(tab).center();
            QHoverEvent move(QEvent::HoverMove, at, bar->mapToGlobal(at), QPointF(-1, -1));
            QApplication::sendEvent(bar, &move);
        }
    }
};

// Lets the bar paint its look and keep it (the picture is taken once the event loop is idle).
bool kept(KeptTabBar *bar, int timeoutMs = 2000)
{
    bar->update();
    return QTest::qWaitFor([bar] { return bar->keepsThisLook(); }, timeoutMs);
}

} // namespace

class TstKeptTabBar : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void copiesTheLookQTabBarPaints_data()
    {
        QTest::addColumn<QStringList>("titles");
        QTest::newRow("English") << kEnglish;
        QTest::newRow("简体中文") << kChinese;
    }

    void copiesTheLookQTabBarPaints()
    {
        QFETCH(QStringList, titles);
        Bars bars(titles);
        bars.window.show();
        QVERIFY(QTest::qWaitForWindowActive(&bars.window));
        struct Step {
            const char *what;
            std::function<void()> take;
            bool newLook; // QTabBar paints it otherwise than the step before
        };
        const std::vector<Step> steps{
            {"as shown", [] {}, false},
            {"another current tab",
             [&] { bars.kept->setCurrentIndex(2), bars.plain->setCurrentIndex(2); }, true},
            {"a tab under the pointer", [&] { bars.hover(4); }, true},
            {"the keyboard focus", [&] { bars.kept->setFocus(); }, true},
            {"another title",
             [&] {
                 for (QTabBar *bar : {static_cast<QTabBar *>(bars.kept), bars.plain})
                     bar->setTabText(1, bar->tabText(1) + QStringLiteral(" 2"));
             },
             true},
            {"moved down", [&] { bars.kept->move(bars.kept->x(), bars.kept->y() + 7); }, false},
            {"disabled", [&] { bars.kept->setEnabled(false), bars.plain->setEnabled(false); },
             true}};
        QImage before = bars.plainPixels();
        for (const auto &[what, take, newLook] : steps) {
            take();
            if (QByteArrayView(what) == "the keyboard focus") { // one bar at a time has it
                QVERIFY(QTest::qWaitFor([&] { return bars.kept->hasFocus(); }));
                QVERIFY(kept(bars.kept));
                const QImage kept = bars.keptPixels();
                QCOMPARE(bars.kept->copies() > 0, true);
                bars.plain->setFocus();
                QVERIFY(QTest::qWaitFor([&] { return bars.plain->hasFocus(); }));
                QCOMPARE(kept, bars.plainPixels());
                QVERIFY2(kept != before, what);
                bars.plain->clearFocus(); // (the steps after compare bars without it)
                before = bars.plainPixels();
                continue;
            }
            QVERIFY2(kept(bars.kept), what);
            const int copies = bars.kept->copies();
            const QImage plain = bars.plainPixels();
            QVERIFY2(bars.keptPixels() == plain, what);
            QVERIFY2(bars.kept->copies() > copies, what); // the picture, not QTabBar, painted it
            QVERIFY2((plain != before) == newLook, what); // (a step that shows what it tests)
            before = plain;
        }
    }

    // Tabs that can be dragged (and slide as they are), and a bar under a style sheet (drawn by
    // rules no key holds), are painted by QTabBar every time.
    void aBarItDoesNotKeep_data()
    {
        QTest::addColumn<bool>("movable");
        QTest::newRow("tabs that move") << true;
        QTest::newRow("a style sheet") << false;
    }

    void aBarItDoesNotKeep()
    {
        QFETCH(bool, movable);
        Bars bars(kEnglish);
        bars.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bars.window));
        QVERIFY(kept(bars.kept));
        if (movable)
            bars.kept->setMovable(true);
        else
            bars.window.setStyleSheet(QStringLiteral("QTabBar::tab:selected { color: red; }"));
        const int copies = bars.kept->copies();
        QVERIFY(!kept(bars.kept, 600));
        QCOMPARE(bars.keptPixels(), bars.plainPixels());
        QCOMPARE(bars.kept->copies(), copies);
    }
};

QTEST_MAIN(TstKeptTabBar)
#include "tst_kept_tab_bar.moc"
