// The console tables' header (views/common/measuredheader): every size it gives is the one
// QHeaderView gives for the same title, font and sort indicator — in English and in Chinese —
// while each title is laid out once however often the table is reset and fitted; a new title, a
// new font or a sort indicator is measured anew. And the console's tables (makeTable) use it.

#include "common/measuredheader.h"
#include "common/tableviews.h"

#include <QPainter>
#include <QProxyStyle>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include <cmath>
#include <functional>

using namespace OncePay;

namespace {

// A style whose header sections have wider margins (so every title's size changes with it).
class WideHeaderStyle : public QProxyStyle {
public:
    int pixelMetric(PixelMetric metric, const QStyleOption *option,
                    const QWidget *widget) const override
    {
        const int base = QProxyStyle::pixelMetric(metric, option, widget);
        return metric == PM_HeaderMargin ? base + 10 : base;
    }
};

const QStringList kTitles{QStringLiteral("Order"), QStringLiteral("Found by"),
                          QStringLiteral("状态"), QStringLiteral("Updated at the channel")};

// Two tables over the same model, one with QHeaderView's own header and one with the console's,
// side by side in one window (the same style and font).
struct Pair {
    QWidget window;
    QStandardItemModel model{3, int(kTitles.size())};
    QTableView *plain = new QTableView(&window);
    QTableView *measured = new QTableView(&window);
    MeasuredHeader *header = new MeasuredHeader(Qt::Horizontal, measured);

    Pair()
    {
        model.setHorizontalHeaderLabels(kTitles);
        for (int r = 0; r < model.rowCount(); ++r)
            for (int c = 0; c < model.columnCount(); ++c)
                model.setItem(r, c, new QStandardItem(QStringLiteral("v%1").arg(r * 10 + c)));
        measured->setHorizontalHeader(header);
        plain->setModel(&model);
        measured->setModel(&model);
        plain->setGeometry(0, 0, 600, 200);
        measured->setGeometry(0, 220, 600, 200);
        window.resize(620, 440);
    }

    // Every section's size hint, as each header gives it.
    void compare(const char *when) const
    {
        for (int c = 0; c < model.columnCount(); ++c)
            QVERIFY2(measured->horizontalHeader()->sectionSizeHint(c) ==
                         plain->horizontalHeader()->sectionSizeHint(c),
                     qPrintable(QStringLiteral("%1: section %2").arg(when).arg(c)));
        QVERIFY2(measured->horizontalHeader()->sizeHint() == plain->horizontalHeader()->sizeHint(),
                 when);
    }
};

} // namespace

class TstMeasuredHeader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sizesAreQHeaderViewsOwn()
    {
        Pair p;
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        p.compare("shown");
        p.plain->resizeColumnsToContents();
        p.measured->resizeColumnsToContents();
        for (int c = 0; c < p.model.columnCount(); ++c)
            QCOMPARE(p.measured->columnWidth(c), p.plain->columnWidth(c));
        // The titles are what the columns are fitted to here (cells "v0".."v23" are shorter).
        QVERIFY(p.measured->columnWidth(3) > p.measured->columnWidth(0));
    }

    void eachTitleIsLaidOutOnce()
    {
        Pair p;
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        for (int i = 0; i < 5; ++i) {
            // A model reset makes QHeaderView size its sections again, as a search's hits do.
            p.model.setRowCount(0);
            p.model.setRowCount(3);
            p.measured->resizeColumnsToContents();
            (void)p.measured->horizontalHeader()->sizeHint();
        }
        QCOMPARE(p.header->measuredTitles(), int(kTitles.size()));
        p.compare("after five resets");
    }

    void aNewTitleFontOrSortIndicatorIsMeasuredAgain()
    {
        Pair p;
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        p.compare("at first");
        const int before = p.header->measuredTitles();

        p.model.setHeaderData(0, Qt::Horizontal, QStringLiteral("订单号（渠道交易）"));
        p.compare("a new title");
        QCOMPARE(p.header->measuredTitles(), before + 1);

        QFont larger = p.plain->horizontalHeader()->font();
        larger.setPointSize(larger.pointSize() + 6);
        const int narrow = p.measured->horizontalHeader()->sectionSizeHint(3);
        p.plain->horizontalHeader()->setFont(larger);
        p.measured->horizontalHeader()->setFont(larger);
        p.compare("a larger font");
        QVERIFY(p.measured->horizontalHeader()->sectionSizeHint(3) > narrow);

        QFont section = larger;
        section.setPointSize(larger.pointSize() + 4);
        p.model.setHeaderData(2, Qt::Horizontal, section, Qt::FontRole);
        p.compare("a section's own font");

        p.plain->horizontalHeader()->setSortIndicatorShown(true);
        p.measured->horizontalHeader()->setSortIndicatorShown(true);
        p.compare("a sort indicator");

        WideHeaderStyle wide;
        const int narrower = p.measured->horizontalHeader()->sectionSizeHint(1);
        p.plain->horizontalHeader()->setStyle(&wide);
        p.measured->horizontalHeader()->setStyle(&wide);
        p.compare("another style");
        QVERIFY(p.measured->horizontalHeader()->sectionSizeHint(1) > narrower);
        p.plain->horizontalHeader()->setStyle(nullptr);
        p.measured->horizontalHeader()->setStyle(nullptr);
        p.compare("the style back");
    }

    // Each section's pixels as QHeaderView paints them, through titles, widths, a sort
    // indicator, selected sections, a palette, a style and a section's own font; each look drawn
    // once however often the header is repainted.
    void sectionsLookAsQHeaderViewPaintsThem()
    {
        Pair p;
        p.plain->setFocusPolicy(Qt::NoFocus); // neither table takes the focus
        p.measured->setFocusPolicy(Qt::NoFocus);
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        auto same = [&](const char *when) {
            const QImage expected = p.plain->horizontalHeader()->grab().toImage();
            const QImage actual = p.measured->horizontalHeader()->grab().toImage();
            QVERIFY2(!expected.isNull() && actual == expected, when);
        };
        auto both = [&](const std::function<void(QTableView *)> &change) {
            change(p.plain);
            change(p.measured);
        };
        same("at first");
        // Looks are kept at a whole device-pixel ratio only (1 here, 2 in
        // tst_measured_header_dpr2); at another the sections are drawn each time, as QHeaderView
        // draws them, and only the pixels are compared.
        const qreal dpr = p.window.devicePixelRatio();
        const bool kept = dpr == std::round(dpr);
        if (!kept)
            qInfo("device-pixel ratio %g: looks not kept, their count not checked", dpr);
        QCOMPARE(p.header->paintedLooks() > 0, kept);
        const int drawn = p.header->paintedLooks();
        for (int i = 0; i < 3; ++i) {
            p.model.setRowCount(0); // a reset repaints every section
            p.model.setRowCount(3);
            same("after a reset");
        }
        if (kept)
            QCOMPARE(p.header->paintedLooks(), drawn);
        both([](QTableView *t) { t->resizeColumnsToContents(); });
        same("fitted");
        // Titles at the start of their sections (as makeTable's): a section moved sideways by
        // a wider column before it keeps its look.
        both([](QTableView *t) {
            t->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        });
        same("left-aligned");
        const int aligned = p.header->paintedLooks();
        both([](QTableView *t) { t->setColumnWidth(0, t->columnWidth(0) + 30); });
        same("shifted");
        if (kept)
            QCOMPARE(p.header->paintedLooks(), aligned + 1); // only the wider section is new
        both([](QTableView *t) {
            t->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter | Qt::AlignVCenter);
        });
        same("centred again");
        // A centred title lands on a fraction of a pixel: moved, it is drawn anew.
        for (int step = 0; step < 12; ++step) {
            both([](QTableView *t) { t->setColumnWidth(0, t->columnWidth(0) + 1); });
            same("centred, shifted");
        }
        p.model.setHeaderData(0, Qt::Horizontal, QStringLiteral("订单号（渠道交易）"));
        same("a new title");
        both([](QTableView *t) {
            t->horizontalHeader()->setSortIndicatorShown(true);
            t->horizontalHeader()->setSortIndicator(1, Qt::DescendingOrder);
        });
        same("a sort indicator");
        both([](QTableView *t) { t->selectRow(1); }); // every section highlighted
        same("selected");
        both([](QTableView *t) {
            QPalette palette = t->horizontalHeader()->palette();
            palette.setColor(QPalette::Button, QColor(0xd0, 0xe8, 0xff));
            palette.setColor(QPalette::ButtonText, QColor(0x80, 0x10, 0x10));
            t->horizontalHeader()->setPalette(palette);
        });
        same("another palette");
        WideHeaderStyle wide;
        both([&wide](QTableView *t) { t->horizontalHeader()->setStyle(&wide); });
        same("another style");
        QFont bold = p.plain->horizontalHeader()->font();
        bold.setBold(true);
        p.model.setHeaderData(2, Qt::Horizontal, bold, Qt::FontRole);
        same("a section's own font");
        both([](QTableView *t) { t->horizontalHeader()->setStyle(nullptr); });
        same("the style back");
    }

    // A stretched section takes a new width at every step of a resize: drawn each time, never
    // kept, so that widening a window does not fill the header's memory with looks.
    void aStretchedSectionIsNotKept()
    {
        Pair p;
        p.plain->setFocusPolicy(Qt::NoFocus);
        p.measured->setFocusPolicy(Qt::NoFocus);
        for (QTableView *t : {p.plain, p.measured}) {
            t->horizontalHeader()->setStretchLastSection(true);
            t->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
            // as makeTable's: a section moved sideways keeps its look
            t->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        }
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        (void)p.measured->horizontalHeader()->grab();
        const int drawn = p.header->paintedLooks();
        for (int width = 560; width <= 600; width += 8) {
            p.plain->resize(width, 200);
            p.measured->resize(width, 200);
            QCOMPARE(p.measured->horizontalHeader()->grab().toImage(),
                     p.plain->horizontalHeader()->grab().toImage());
        }
        QCOMPARE(p.header->paintedLooks(), drawn); // the two fixed sections kept, neither other
    }

    // Painters a kept look would not reproduce — faded (as a dragged section's copy is drawn),
    // shifted by a fraction of a pixel (a widget rendered into another painter) — get sections
    // drawn as QHeaderView draws them.
    void fadedOrShiftedPaintersDrawAsQHeaderView()
    {
        Pair p;
        p.plain->setFocusPolicy(Qt::NoFocus);
        p.measured->setFocusPolicy(Qt::NoFocus);
        p.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p.window));
        (void)p.measured->horizontalHeader()->grab(); // its looks kept
        auto render = [](QHeaderView *header, qreal opacity, QPointF shift) {
            QImage image(header->size() + QSize(2, 2), QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            QPainter painter(&image);
            painter.setOpacity(opacity);
            painter.translate(shift);
            header->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
            return image;
        };
        for (const auto &[opacity, shift] :
             {std::pair{0.75, QPointF(0, 0)}, std::pair{1.0, QPointF(0.5, 0.3)}}) {
            QCOMPARE(render(p.measured->horizontalHeader(), opacity, shift),
                     render(p.plain->horizontalHeader(), opacity, shift));
        }
    }

    void consoleTablesUseIt()
    {
        QWidget parent;
        QStandardItemModel model(1, 2);
        QTableView *t = makeTable(&parent, &model, QStringLiteral("any"));
        auto *header = dynamic_cast<MeasuredHeader *>(t->horizontalHeader());
        QVERIFY(header);
        // As QTableView's own header and makeTable's settings.
        QVERIFY(header->sectionsClickable());
        QVERIFY(header->highlightSections());
        QVERIFY(header->stretchLastSection());
        QCOMPARE(header->model(), &model);
    }
};

QTEST_MAIN(TstMeasuredHeader)
#include "tst_measured_header.moc"
