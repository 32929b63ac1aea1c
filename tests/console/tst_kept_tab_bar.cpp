// The order page's tab bar (views/common/kepttabbar): once a look was painted it is kept, and
// painting it again — the bar moved by a header of another height, or anything else — copies
// it, with the pixels QTabBar paints: for the current tab changed, a tab under the pointer, the
// keyboard focus, the bar disabled, in English and in Chinese. A look it does not keep (tabs
// that can be dragged) is painted by QTabBar as before.

#include "common/kepttabbar.h"

#include <QApplication>
#include <QHoverEvent>
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

// A window with a kept bar and, below it, a QTabBar of the same tabs, as the order page has its
// bar: in document mode, on the window's colour.
struct Bars {
    QWidget window;
    KeptTabBar *kept = new KeptTabBar(&window);
    QTabBar *plain = new QTabBar(&window);

    explicit Bars(const QStringList &titles)
    {
        window.setAutoFillBackground(true);
        auto *layout = new QVBoxLayout(&window);
        for (QTabBar *bar : {static_cast<QTabBar *>(kept), plain}) {
            bar->setDocumentMode(true);
            bar->setExpanding(false);
            for (const QString &t : titles)
                bar->addTab(t);
            layout->addWidget(bar);
        }
        plain->setAutoFillBackground(true); // (what KeptTabBar sets, as its parent fills it)
        layout->addStretch();
        window.resize(900, 160);
    }
    // Both bars' pixels, each rendered on its own (grab() paints as the screen does).
    QImage keptPixels() const { return kept->grab().toImage(); }
    QImage plainPixels() const { return plain->grab().toImage(); }
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
        const std::vector<std::pair<const char *, std::function<void()>>> steps{
            {"as shown", [] {}},
            {"another current tab",
             [&] { bars.kept->setCurrentIndex(2), bars.plain->setCurrentIndex(2); }},
            {"a tab under the pointer", [&] { bars.hover(4); }},
            {"the keyboard focus", [&] { bars.kept->setFocus(); }},
            {"moved down", [&] { bars.kept->move(bars.kept->x(), bars.kept->y() + 7); }},
            {"disabled", [&] { bars.kept->setEnabled(false), bars.plain->setEnabled(false); }}};
        for (const auto &[what, step] : steps) {
            step();
            if (QByteArrayView(what) == "the keyboard focus") { // one bar at a time has it
                QVERIFY(QTest::qWaitFor([&] { return bars.kept->hasFocus(); }));
                QVERIFY(kept(bars.kept));
                const QImage kept = bars.keptPixels();
                bars.plain->setFocus();
                QVERIFY(QTest::qWaitFor([&] { return bars.plain->hasFocus(); }));
                QCOMPARE(kept, bars.plainPixels());
                continue;
            }
            QVERIFY2(kept(bars.kept), what);
            const int copies = bars.kept->copies();
            QCOMPARE(bars.keptPixels(), bars.plainPixels());
            QVERIFY2(bars.kept->copies() > copies, what); // the picture, not QTabBar, painted it
        }
    }

    // Tabs that can be dragged (and slide as they are) are painted by QTabBar every time.
    void aBarWhoseTabsMoveIsNotKept()
    {
        Bars bars(kEnglish);
        bars.kept->setMovable(true);
        bars.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bars.window));
        QVERIFY(!kept(bars.kept, 300));
        QCOMPARE(bars.keptPixels(), bars.plainPixels());
        QCOMPARE(bars.kept->copies(), 0);
    }
};

QTEST_MAIN(TstKeptTabBar)
#include "tst_kept_tab_bar.moc"
