// The order page offscreen over data made by the real engine: the timeline of an order with
// duplicates, a rollback and a stale callback, the state diagram, the dossier, the table cells
// it draws (issue 8), an order read again, and a database file moved away. Its search is in
// tst_order_page_search.cpp.

#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/labels.h"
#include "common/tableviews.h"
#include "common/taskpool.h"
#include "consolefixture.h"
#include "investigation/dossier.h"
#include "investigation/ordermodels.h"
#include "orders/orderpage.h"
#include "orders/statediagram.h"
#include "orders/statepathlabel.h"
#include "orders/textcelldelegate.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

class TstOrderPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpConsoleTest(m_dbs, m_fixture)); }

    void timelineOfDuplicatesRollbackAndStaleCallback()
    {
        OrderPage page(m_fixture->config.orders, account("auditor", StaffRole::Auditor).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        TimelineModel *t = page.timelineModel();
        QStringList events;
        int refused = 0;
        for (int r = 0; r < t->rowCount(); ++r) {
            events << t->index(r, TimelineModel::Event).data().toString();
            refused += t->index(r, 0).data(RefusedRole).toBool() ? 1 : 0;
        }
        QVERIFY(events.contains(u"payment failed → pending payment")); // the rollback
        QVERIFY(events.contains(u"Worker: skipped"));                  // the stale callback
        // the stale attempt's success, refused by the state machine
        QVERIFY2(events.contains(u"Refused: pending payment → paid, unconfirmed"),
                 qPrintable(events.join(u'|')));
        QCOMPARE(refused, 3);
        QVERIFY(page.auditModel()->rowCount() > 0);
        // An auditor reads the audit rows on the timeline too, among the rest.
        QCOMPARE(events.count(u"Audit: order rolled back"), 1);
        QCOMPARE(int(std::count_if(events.begin(), events.end(),
                                   [](const QString &e) { return e.startsWith(u"Audit: "); })),
                 page.auditModel()->rowCount());
        QCOMPARE(page.messageModel()->rowCount(), 3);
        QCOMPARE(page.ledgerModel()->rowCount(), 1);

        // ord-paid: the channel's retry was absorbed at the door; the re-report is skipped.
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QCOMPARE(page.messageModel()->rowCount(), 2);
        QVERIFY(page.messageModel()->index(1, 5).data(RefusedRole).toBool());
        QCOMPARE(page.paymentModel()->rowCount(), 1);
    }

    void dossierExportsAPdfAndAuditsIt()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy exported(&page, &OrderPage::dossierExported);
        QSignalSpy failed(&page, &OrderPage::failed);
        QVERIFY(!page.exportButton()->isEnabled()); // nothing to export yet
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QVERIFY(page.exportButton()->isEnabled());

        // The document says what the page says, with the exact amount.
        const QString html = Dossier::html(page.picture(), "agent", 0);
        QVERIFY(html.contains(u"ord-rb"));
        QVERIFY2(html.contains(u"50.00 EUR"), qPrintable(html.left(2000)));
        QVERIFY(html.contains(u"5000 EUR")); // minor units, as recorded
        QVERIFY(html.contains(u"evt_rb_late"));
        QVERIFY(!html.contains(u"Audit rows")); // agents do not read the audit trail

        const auto auditRows = [&] {
            return m_fixture->count(
                "SELECT COUNT(*) FROM audit_outbox WHERE action = 'export.dossier'");
        };
        const qint64 before = auditRows();
        const QString path = QDir(m_dbs.value()->tempPath()).filePath("dossier-ord-rb.pdf");
        page.exportDossier(path);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 30000);
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdf.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 5000);
        // The order id is in the PDF's own metadata (title, UTF-16 as Qt writes it).
        QByteArray title("\xfe\xff");
        for (QChar c : QStringLiteral("ord-rb"))
            title += '\0' + QByteArray(1, char(c.unicode()));
        QVERIFY(bytes.contains(title));
        const QString sha = QString::fromLatin1(
            QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        QCOMPARE(exported.first().at(1).toString(), sha);
        // Audited with the file's digest.
        QCOMPARE(auditRows(), before + 1);
        auto json = Sql::scalar(m_fixture->orders->db(),
                                "SELECT after_json FROM audit_outbox WHERE action ="
                                " 'export.dossier' ORDER BY id DESC LIMIT 1");
        QVERIFY(json.ok());
        const QJsonObject after = QJsonDocument::fromJson(json->toString().toUtf8()).object();
        QCOMPARE(after.value("sha256").toString(), sha);
        QCOMPARE(after.value("order_version").toInt(), 7);

        // Bad input: a place that cannot be written. A clear message, no file, no audit row.
        const QString nowhere = path + "/not-a-folder/dossier.pdf";
        page.exportDossier(nowhere);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY2(page.statusText().contains(u"not exported"), qPrintable(page.statusText()));
        QVERIFY(!QFile::exists(nowhere));
        QCOMPARE(auditRows(), before + 1);
    }

    // A dossier export that ends while a search is still waiting says its outcome but leaves
    // the search's busy bar up: the bar is down only when neither is in flight.
    void anExportEndingLeavesASearchWaiting()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy exported(&page, &OrderPage::dossierExported);
        QSignalSpy searched(&page, &OrderPage::searched);
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        auto *busy = page.findChild<BusyIndicator *>();
        QVERIFY(busy && !busy->isBusy());

        // Every pool thread held; then the export, one more holder and the search queue up
        // behind them in that order. Releasing one thread runs the export only (the thread
        // then takes the extra holder), so the search is still waiting when the export ends.
        auto hold = std::make_shared<QSemaphore>();
        QObject holders;
        auto holdOne = [&] {
            runBackgroundQuery<int>(
                &holders, m_fixture->config.orders, QStringLiteral("hold"),
                [hold](const Connection &) -> Result<int> {
                    hold->tryAcquire(1, 20000); // a hung test shows as a failure, not a hang
                    return 0;
                },
                [](const Result<int> &) {});
        };
        for (int i = 0; i < kConsoleTaskThreads; ++i)
            holdOne();
        const QString path = QDir(m_dbs.value()->tempPath()).filePath("dossier-busy.pdf");
        page.exportDossier(path);
        holdOne();
        page.search("ord-paid");
        QVERIFY(busy->isBusy());
        QVERIFY(!page.exportButton()->isEnabled()); // one export at a time
        hold->release(1);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 30000);
        QVERIFY2(page.statusText().contains(u"Dossier saved"), qPrintable(page.statusText()));
        QCOMPARE(searched.count(), 0);
        QVERIFY(busy->isBusy()); // the search is still waiting
        hold->release(kConsoleTaskThreads);
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QVERIFY(!busy->isBusy());
        QVERIFY(page.exportButton()->isEnabled());
    }

    // The order page's tables draw their text cells with TextCellDelegate: the same pixels
    // and the same column widths as the style's own delegate, selected, focused, bold,
    // coloured, right-aligned, elided and empty cells included.
    void textCellsLookAsTheStyleDrawsThem()
    {
        QStandardItemModel model(0, 4);
        model.setHorizontalHeaderLabels({"Time", "Event", "Amount", "Detail"});
        const QList<QStringList> rows{
            {"2026-11-18 08:09:36", "pending payment → paying", "80.19 USD", ""},
            {"2026-11-18 08:09:37", "Callback received", "5000 EUR", "payment_intent.succeeded"},
            {"2026-11-18 08:09:38", "支付成功 → 已支付", "1.00 CNY",
             "a detail far too long to fit in its column, so the style elides it at the edge"},
            {"", "Refused: paying → paid", "0", "worker:bench/1"}};
        for (const QStringList &cells : rows) {
            QList<QStandardItem *> items;
            for (const QString &c : cells)
                items << new QStandardItem(c);
            items[2]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            model.appendRow(items);
        }
        QFont bold;
        bold.setBold(true);
        model.item(0, 1)->setFont(bold);
        model.item(3, 1)->setBackground(QColor(0xff, 0xe0, 0xe0));
        model.item(3, 3)->setForeground(QColor(0xb3, 0x1b, 0x1b));
        auto shoot = [&](QAbstractItemDelegate *delegate) {
            QWidget holder;
            QTableView &view = *makeTable(&holder, &model, QStringLiteral("cells")); // as the page
            view.setItemDelegate(delegate);
            view.resize(640, 200);
            view.show();
            view.resizeColumnsToContents();
            QList<int> widths;
            for (int c = 0; c < model.columnCount(); ++c)
                widths << view.columnWidth(c);
            view.setColumnWidth(3, 160); // the long detail is elided
            view.setCurrentIndex(model.index(1, 1));
            view.setFocus();
            return std::make_pair(view.grab().toImage(), widths);
        };
        QStyledItemDelegate styled;
        TextCellDelegate cells;
        const auto [expected, styledWidths] = shoot(&styled);
        const auto [actual, cellWidths] = shoot(&cells);
        QCOMPARE(cellWidths, styledWidths);
        QCOMPARE(actual.size(), expected.size());
        int differing = 0;
        for (int y = 0; y < expected.height(); ++y)
            for (int x = 0; x < expected.width(); ++x)
                differing += expected.pixel(x, y) != actual.pixel(x, y);
        QVERIFY2(differing == 0, qPrintable(QStringLiteral("%1 pixels differ").arg(differing)));
    }

    void stateDiagramHighlightsThePathTaken()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        StateDiagram *d = page.stateDiagram();
        QCOMPARE(d->timesTaken("payment_failed", "pending_payment"), 1); // the rollback
        QCOMPARE(d->timesTaken("pending_payment", "paying"), 2);         // two attempts
        QCOMPARE(d->timesTaken("paid", "refunded"), 0);
        QVERIFY(!d->grab().isNull()); // paints

        // The path in words: the rollback's state on amber with "↺", the current state in
        // bold, the refused attempts on their colour after it.
        auto *path = page.findChild<StatePathLabel *>(QStringLiteral("statePath"));
        QVERIFY(path);
        const QString refusals =
            OrderPage::tr("%n refused attempt(s)", nullptr, int(page.picture().rejections.size()));
        QVERIFY(!page.picture().rejections.isEmpty());
        QCOMPARE(path->text(), QStringLiteral("Path: pending payment → paying → payment failed →"
                                              " pending payment ↺ → paying → paid, unconfirmed →"
                                              " paid ") +
                                   refusals);
        const QList<StatePathLabel::Part> parts = path->parts();
        const QList<QRect> rects = path->partRects();
        QCOMPARE(rects.size(), parts.size());
        QStringList rolledBack, bold, refused;
        const QImage pixels = path->grab().toImage();
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const StatePathLabel::Part &p = parts[i];
            if (p.bold)
                bold << p.text;
            if (p.background == QColor(Labels::rollbackColour()))
                rolledBack << p.text;
            if (p.background == QColor(Labels::refusedColour()))
                refused << p.text;
            if (p.background.isValid()) // painted behind the part's text
                QCOMPARE(pixels.pixelColor(rects[i].topLeft() * pixels.devicePixelRatio()),
                         p.background);
        }
        QCOMPARE(rolledBack, QStringList{"pending payment ↺"});
        QCOMPARE(bold, QStringList{"paid"});
        QCOMPARE(refused, QStringList{refusals});
    }

    // An order whose header takes another height (its facts on more lines) is laid out in one
    // pass: the diagram is never painted squeezed into the previous header's height first.
    void anOrderWithATallerHeaderIsLaidOutInOnePass()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.resize(900, 760);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QTest::qWait(50);
        auto *facts = page.findChild<QLabel *>(QStringLiteral("orderFacts"));
        QVERIFY(facts);
        // Wide enough for ord-paid's facts on one line; ord-rb's are longer (a refund owed).
        const int oneLine = facts->fontMetrics().horizontalAdvance(facts->text()) + 4;
        page.resize(page.width() + oneLine - facts->width(), page.height());
        QTRY_VERIFY(facts->width() >= oneLine);
        QTest::qWait(50);
        const int factsBefore = facts->height();
        struct Painted : QObject {
            QList<int> heights;
            int resized = 0;
            bool eventFilter(QObject *o, QEvent *e) override
            {
                if (e->type() == QEvent::Paint)
                    heights << static_cast<QWidget *>(o)->height();
                resized += e->type() == QEvent::Resize;
                return false;
            }
        } painted;
        page.stateDiagram()->installEventFilter(&painted);
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QTest::qWait(50);
        QVERIFY2(facts->height() > factsBefore, "the test needs facts on more lines");
        QVERIFY(!painted.heights.isEmpty());
        for (int h : std::as_const(painted.heights))
            QCOMPARE(h, page.stateDiagram()->height());
        QCOMPARE(painted.resized, 0); // not even laid out squeezed, unpainted
    }

    // The order on the page read again keeps the reader's place when nothing changed (no
    // table reset: the selected callback, its raw body and the timeline's row stay), and shows
    // what did change once the engine has written it (last: it adds a callback to ord-paid).
    void anOrderReadAgainKeepsTheReadersPlace()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        auto *messages = page.findChild<QTableView *>(QStringLiteral("messages"));
        auto *timeline = page.findChild<QTableView *>(QStringLiteral("timeline"));
        auto *raw = page.findChild<QPlainTextEdit *>(QStringLiteral("rawCallback"));
        QVERIFY(messages && timeline && raw);
        QCOMPARE(page.messageModel()->rowCount(), 2);
        messages->setCurrentIndex(page.messageModel()->index(1, 0));
        timeline->setCurrentIndex(page.timelineModel()->index(2, 0));
        const QString body = raw->toPlainText();
        QVERIFY(body.contains(u"evt_paid_again"));
        // How it was verified, in the channel's own terms: Stripe's header and construction.
        QVERIFY2(body.contains(u"from stripe") &&
                     body.contains(u"stripe-signature: t=<unix seconds>,v1=<hex HMAC-SHA256"),
                 qPrintable(body));
        // Its headers one per line, as on the wire (stored as a JSON list of pairs).
        QVERIFY2(body.contains(u"\ncontent-type: application/json; charset=utf-8\n") &&
                     body.contains(u"\nstripe-signature: t="),
                 qPrintable(body));
        QSignalSpy timelineReset(page.timelineModel(), &QAbstractItemModel::modelReset);
        QSignalSpy messagesReset(page.messageModel(), &QAbstractItemModel::modelReset);
        QSignalSpy ledgerReset(page.ledgerModel(), &QAbstractItemModel::modelReset);
        QTest::qWait(50); // the first order's layout done
        // Nothing on the page is laid out again for an unchanged order.
        struct Layouts : QObject {
            int requests = 0;
            bool eventFilter(QObject *, QEvent *e) override
            {
                requests += e->type() == QEvent::LayoutRequest;
                return false;
            }
        } layouts;
        for (QWidget *w : page.findChildren<QWidget *>())
            w->installEventFilter(&layouts);
        page.installEventFilter(&layouts);

        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QTest::qWait(50);
        QCOMPARE(layouts.requests, 0);
        QCOMPARE(timelineReset.count(), 0);
        QCOMPARE(messagesReset.count(), 0);
        QCOMPARE(messages->currentIndex().row(), 1);
        QCOMPARE(timeline->currentIndex().row(), 2);
        QCOMPARE(raw->toPlainText(), body);

        // The channel reports the payment once more: the callbacks and the timeline change,
        // the ledger does not (the worker skips the re-report).
        m_fixture->deliver(StripeEvents::paymentIntentSucceeded(
            m_fixture->params("ord-paid", "req-paid-1", 2112, "USD", "evt_paid_third", "pi_paid")));
        m_fixture->drain();
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 3, 10000);
        QCOMPARE(messagesReset.count(), 1);
        QCOMPARE(page.messageModel()->rowCount(), 3);
        QCOMPARE(timelineReset.count(), 1);
        QCOMPARE(ledgerReset.count(), 0);
        QCOMPARE(page.ledgerModel()->rowCount(), 1);
        QVERIFY(raw->toPlainText().isEmpty()); // the list was reset: no callback selected
    }

    // An open SQLite handle keeps reading its file after the file is moved away: the pool
    // threads' kept connections must not go on showing a database that is no longer at the
    // profile's path. Every read after the move says the database is missing; after the move
    // back the page reads again without a restart.
    void aDatabaseFileMovedAwayIsNotReadThroughAKeptConnection()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy failed(&page, &OrderPage::failed);
        // Every pool thread reads once first, so each keeps a connection.
        for (int i = 0; i < 2 * kConsoleTaskThreads; ++i)
            page.openOrder("ord-paid");
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() >= 1, 10000);
        QTest::qWait(200);
        const QString path = m_fixture->config.orders.path;
        const QString moved = path + QStringLiteral(".moved");
        QVERIFY(QFile::rename(path, moved));
        const int before = int(loaded.count());
        for (int i = 0; i < 2 * kConsoleTaskThreads; ++i) {
            page.openOrder("ord-paid");
            QTRY_COMPARE_WITH_TIMEOUT(failed.count(), i + 1, 10000);
        }
        QCOMPARE(loaded.count(), before);
        QVERIFY2(page.statusText().contains(path), qPrintable(page.statusText()));
        QVERIFY(QFile::rename(moved, path));
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), before + 1, 10000);
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstOrderPage)
#include "tst_order_page.moc"
