// Console benchmark (issue 8) on a simulated database of N orders (default 1,000,000), SQLite:
// time to first window, search by each kind of identifier, opening an order page, and
// loading the stuck list and scrolling it to its end — each measured through the real
// widgets (offscreen), side by side with the raw indexed SQL the operation needs, run on a
// warm connection in the same process, each side starting after the same 30 ms of quiet (the
// raw statements run once more at once: "raw hot"). Medians of --runs; ratio = program ÷ raw
// (goal ≤ 2). A page "painted" is until its last layout or paint (BenchApplication). A 1 ms QTimer
// heartbeat on the GUI thread records the longest gap during each operation (goal: never more than
// 50 ms). The "service" column is the service call alone (OrderSearch, OrderPictureQuery) on the
// bench's warm connection, on this thread: program − service is the thread hop and the widgets'
// work, service − raw the service's own.
//   oncepay_bench_console [--n 1000000] [--runs 5] [--dir DIR]

#include "consolebenchdata.h"
#include "consolebenchhop.h"
#include "consolebenchstatements.h"
#include "consolebenchtools.h"

#include "auth/staffaccount.h"
#include "common/backgroundquery.h"
#include "config/appconfig.h"
#include "dashboard/dashboardpage.h"
#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "investigation/stuckmodel.h"
#include "orders/orderpage.h"
#include "orders/orderrepository.h"
#include "orders/searchlookahead.h"
#include "shell/mainwindow.h"
#include "stuck/stuckpage.h"

#include <QApplication>
#include <QClipboard>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

using namespace OncePay;
using namespace OncePay::Bench;

namespace {

struct Row {
    QString name;
    QString raw;
    std::vector<double> program, baseline, gaps;
    std::vector<double> hot;     // the raw statements again at once, the CPU and caches awake
    std::vector<double> service; // the service call alone, on this thread's warm connection
};

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    BenchApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    // The dashboard over 30 days up to the database's latest activity (index 4; the page's
    // default, the last 30 days, would find a generated database's month partly or wholly
    // before it), as every session since the eleventh measured it.
    QSettings().setValue(QStringLiteral("dashboard/range"), 4);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption nOption("n", "Orders.", "N", "1000000");
    const QCommandLineOption runsOption("runs", "Runs per measurement.", "R", "5");
    const QCommandLineOption dirOption("dir", "Where the generated database is kept.", "DIR",
                                       QDir::temp().filePath("oncepay-bench-console"));
    const QCommandLineOption onlyOption(
        "only",
        "Measure only these steps (comma-separated: window, hop, search, order, stuck; all by"
        " default) — a profiling aid, the published figures use all.",
        "STEPS");
    parser.addOptions({nOption, runsOption, dirOption, onlyOption});
    parser.process(app);
    const QStringList only = parser.value(onlyOption).split(',', Qt::SkipEmptyParts);
    auto step = [&only](const char *name) { return only.isEmpty() || only.contains(name); };
    const qint64 n = parser.value(nOption).toLongLong();
    const int runs = std::max(1, parser.value(runsOption).toInt());

    auto prepared = prepareConsoleBenchData(parser.value(dirOption), n);
    if (!prepared)
        die(prepared.error().message);
    const ConsoleBenchData data = *prepared;

    AppConfig config = AppConfig::defaults(parser.value(dirOption));
    config.orders.path = data.ordersPath;
    config.audit.path = QDir(parser.value(dirOption)).filePath("audit.db");
    {
        auto a = openMigrated(config.audit, "bench-audit");
        if (!a)
            die(a.error().message);
    }
    auto warm = Connection::open(config.orders, QStringLiteral("bench-raw"));
    if (!warm)
        die(warm.error().message);
    const QSqlDatabase db = warm->db();
    auto touch = Connection::open(config.orders, QStringLiteral("bench-touch"));
    if (!touch)
        die(touch.error().message);
    // The generated rows read back through the engine's own repository.
    {
        OrderRepository repo(*warm);
        auto o = repo.find(data.orderId);
        auto tr = repo.transitions(data.orderId);
        if (!o || !o->has_value() || !tr || tr->size() != 3 || (**o).version != 4)
            die(QStringLiteral("generated order %1 does not read back as a paid order")
                    .arg(data.orderId));
    }

    StaffAccount agent;
    agent.username = QStringLiteral("bench");
    agent.role = StaffRole::Agent;
    const Actor actor = agent.actor();
    Heartbeat heartbeat;
    BareHandOffThread bare; // idle between its hand-offs, as the pool's threads are
    QList<Row> rows;
    auto record = [&](const QString &name, const QString &raw, double program, double baseline,
                      double gap, double service, double hot) {
        auto it =
            std::find_if(rows.begin(), rows.end(), [&](const Row &r) { return r.name == name; });
        if (it == rows.end()) {
            rows.append(Row{name, raw, {}, {}, {}, {}, {}});
            it = rows.end() - 1;
        }
        it->program.push_back(program);
        it->baseline.push_back(baseline);
        it->gaps.push_back(gap);
        if (service >= 0)
            it->service.push_back(service);
        if (hot >= 0)
            it->hot.push_back(hot);
    };

    // The order page, built once on first use and kept for every run, as the console keeps one
    // for as long as it runs: its caches (measured titles, shaped texts) live as long as it.
    std::unique_ptr<OrderPage> keptPage;
    auto orderPage = [&]() -> OrderPage & {
        if (!keptPage) {
            keptPage = std::make_unique<OrderPage>(config.orders, actor);
            keptPage->resize(1200, 800);
            keptPage->show();
            (void)QTest::qWaitForWindowExposed(keptPage.get());
        }
        return *keptPage;
    };
    // Every search is of identifiers not searched before in this process (slot: the three ways
    // the box is used, then the read with no page): texts the page has not shown, as an agent's
    // next ticket brings. Orders of the same shape (ConsoleBenchData::shifted), none of them
    // one the order rows below open (the searched order + 100 × (run + 1)).
    const qint64 firstSearchStep = (runs + 1) / 3 + 1;
    if (const qint64 needed = firstSearchStep + 4 * (runs + 1); needed > data.places())
        die(QStringLiteral("--n %1 holds %2 orders of the searched shape; --runs %3 searches %4:"
                           " raise --n or lower --runs")
                .arg(QString::number(n), QString::number(data.places()), QString::number(runs),
                     QString::number(needed)));
    auto searchesOf = [&](int run, int slot) {
        return searchStatements(data.shifted(firstSearchStep + 4 * run + slot));
    };

    for (int run = 0; run <= runs; ++run) { // run 0 warms caches and is not counted
        const bool counted = run > 0;
        auto keep = [&](const QString &name, const QString &raw, double p, double b, double g,
                        double service = -1, double hot = -1) {
            if (counted)
                record(name, raw, p, b, g, service, hot);
        };
        auto settle = [&app] { app.settle(); };
        // The raw statements from the same start as the program's operation: after the same
        // quiet time (the CPUs idle, as when a person acts), then once more at once (`hot`,
        // printed beside it: what they take with the CPU and caches awake, which is how the
        // raw side was measured until the twelfth session — straight after the program).
        auto rawQuiet = [&](const Statements &statements, double *hot) {
            settle();
            const double quiet = rawMs(db, statements);
            *hot = rawMs(db, statements);
            return quiet;
        };
        auto serviceMs = [](const std::function<bool()> &call) {
            QElapsedTimer t;
            t.start();
            if (!call())
                die("service call failed");
            return t.nsecsElapsed() / 1e6;
        };

        // 0. Calibration: the heartbeat while the GUI thread only waits (should be ~1 ms).
        if (step("window")) {
            heartbeat.reset();
            QElapsedTimer t;
            t.start();
            const double idle = waitFor([&] { return t.elapsed() >= 200; }, t);
            keep("calibration: event loop idle for 200 ms", "—", idle, 200, heartbeat.maxGapMs());
        }

        // 1. First window: the main window built, shown and painted (its first view, the
        //    dashboard, then loads in the background) against what it needs from the
        //    database to start: a connection and the schema version. Then that first
        //    dashboard load itself, from the window's construction until its charts are
        //    filled, against the dashboard's statements over the same range; the heartbeat
        //    covers the whole time, window start included.
        if (step("window")) {
            heartbeat.reset();
            QElapsedTimer t;
            t.start();
            auto *window = new MainWindow(config, agent);
            QSignalSpy loaded(window->dashboardPage(), &DashboardPage::loaded);
            window->show();
            if (!QTest::qWaitForWindowExposed(window))
                die("window not exposed");
            QCoreApplication::processEvents();
            const double program = t.nsecsElapsed() / 1e6;
            const double gap = heartbeat.maxGapMs();
            const double dash = waitFor([&] { return loaded.count() > 0; }, t);
            QCoreApplication::processEvents(); // the charts painted
            const double dashGap = heartbeat.maxGapMs();
            window->close();
            delete window;
            settle();
            QElapsedTimer r;
            r.start();
            {
                auto c = Connection::open(config.orders, QStringLiteral("bench-first"));
                if (!c || !Migrator::currentVersion(*c))
                    die("raw open failed");
            }
            const double rawOpen = r.nsecsElapsed() / 1e6;
            keep("first window (built, shown, painted)", "open + schema version", program, rawOpen,
                 gap);
            double hot = 0;
            const double rawDash = rawQuiet(orDie(dashboardStatements(db)), &hot);
            keep("first window's dashboard loaded and painted",
                 "open + schema version + its 15 statements", dash, rawOpen + rawDash, dashGap, -1,
                 rawOpen + hot);
        }

        // 1b. The dashboard page on its own (no main window around it), same load.
        if (step("window")) {
            DashboardPage dashboard(config.orders, actor);
            dashboard.resize(1200, 800);
            dashboard.show();
            (void)QTest::qWaitForWindowExposed(&dashboard);
            QSignalSpy loaded(&dashboard, &DashboardPage::loaded);
            heartbeat.reset();
            QElapsedTimer d;
            d.start();
            dashboard.refresh();
            const double alone = waitFor([&] { return loaded.count() > 0; }, d);
            const double gap = heartbeat.maxGapMs();
            double hot = 0;
            const double raw = rawQuiet(orDie(dashboardStatements(db)), &hot);
            keep("dashboard page alone, loaded", "its 15 statements", alone, raw, gap, -1, hot);
        }

        // 1c. The floor of any background read: an empty task through runBackgroundQuery (a
        //     pool thread, its cached connection, the queued answer on the GUI thread) — after
        //     the same quiet as every measured operation, and once more at once behind it, while
        //     the pool thread and the CPU are still awake; then the same hand-off taken apart,
        //     each after the same quiet: the pool with a queued answer and nothing else, and a
        //     bare thread on a condition variable (consolebenchhop.h).
        if (step("hop")) {
            auto emptyRead = [&] {
                QObject context;
                bool done = false;
                QElapsedTimer t;
                t.start();
                runBackgroundQuery<int>(
                    &context, config.orders, QStringLiteral("bench-empty"),
                    [](const Connection &) -> Result<int> { return 0; },
                    [&done](const Result<int> &) { done = true; });
                return waitFor([&] { return done; }, t);
            };
            settle();
            heartbeat.reset();
            keep(QStringLiteral("empty background task (pool hop, queued answer)"), "—",
                 emptyRead(), 0, heartbeat.maxGapMs());
            keep(QStringLiteral("empty background task again at once"), "—", emptyRead(), 0,
                 heartbeat.maxGapMs());
            // The search's own read through the same hand-off, no page around it, beside its
            // raw statements: what Return costs at least (the hop, the read on a pool thread
            // that was idle) before any key event or widget.
            for (const ConsoleBenchSearch &search : searchesOf(run, 3)) {
                if (search.kind != QStringLiteral("order id") &&
                    search.kind != QStringLiteral("customer"))
                    continue;
                QObject context;
                bool done = false;
                (void)rawMs(touch->db(), search.statements); // its pages in the file cache
                settle();
                heartbeat.reset();
                QElapsedTimer t;
                t.start();
                runBackgroundQuery<QList<OrderHit>>(
                    &context, config.orders, QStringLiteral("bench-search"),
                    [term = search.term, actor](const Connection &c) {
                        return OrderSearch(c).search(term, actor);
                    },
                    [&done](const Result<QList<OrderHit>> &) { done = true; });
                const double program = waitFor([&] { return done; }, t);
                const double gap = heartbeat.maxGapMs();
                double hot = 0;
                const double raw = rawQuiet(search.statements, &hot);
                keep(QStringLiteral("— the search's read on the pool, no page: ") + search.kind,
                     search.rawLabel, program, raw, gap, -1, hot);
            }
            settle();
            heartbeat.reset();
            keep(QStringLiteral("— the pool's hand-off and queued answer alone"), "—",
                 handOffMs([](std::function<void()> answer) {
                     consoleTaskPool()->start(std::move(answer));
                 }),
                 0, heartbeat.maxGapMs());
            settle();
            heartbeat.reset();
            keep(QStringLiteral("— a bare thread's hand-off and queued answer"), "—",
                 handOffMs([&bare](std::function<void()> answer) { bare.run(std::move(answer)); }),
                 0, heartbeat.maxGapMs());
        }

        // 2. Search by each kind of identifier, through the page's search box: the measured
        //    time runs from Return (with the paste, when both come at once) to the hits
        //    (`searched`). Each search is of identifiers not searched before (searchesOf), their
        //    rows' pages brought into the OS's file cache first through a connection of their
        //    own, as for the order rows below: both sides start with them in memory and none in
        //    their own SQLite cache.
        OrderPage &page = orderPage();
        // Three ways the search box is used:
        // - Read: the term is in the box but was never looked up (put there by the program, as
        //   another view hands an order over, or looked up too long ago), then Return. The
        //   search reads after Return: this is the search measured against its raw statements
        //   — Return, the read on a pool thread, the hits on the page.
        // - Looked up: the term is pasted (clipboard and Ctrl+V, as agents bring an id from a
        //   ticket), then Return once the page has looked the paste up, which a person's reach
        //   for Return leaves time for. The read happened before Return: this is what an agent
        //   waits for, not a read against a read.
        // - At once: the paste and Return in the same turn, the lookup still on its way: the
        //   paste's own handling (the line edit inserting the clipboard's text) and the read.
        enum class Mode { Read, LookedUp, AtOnce };
        for (const Mode mode : {Mode::Read, Mode::LookedUp, Mode::AtOnce}) {
            for (const auto &[kind, term, rawLabel, statements] : searchesOf(run, int(mode))) {
                if (!step("search"))
                    break;
                QLineEdit *box = page.searchBox();
                box->clear();
                if (mode == Mode::Read)
                    box->setText(term); // text set by the program is not looked up
                (void)rawMs(touch->db(), statements);
                settle();
                QSignalSpy ahead(page.lookAhead(), &SearchLookAhead::lookedUp);
                QSignalSpy searched(&page, &OrderPage::searched);
                QSignalSpy opened(&page, &OrderPage::orderLoaded);
                QGuiApplication::clipboard()->setText(term);
                QElapsedTimer t;
                const char *how = mode == Mode::Read ? "search, read at Return: "
                                  : mode == Mode::LookedUp
                                      ? "search, Return after the paste was looked up: "
                                      : "search, Return at once after pasting: ";
                if (mode == Mode::LookedUp) {
                    QTest::keySequence(box, QKeySequence::Paste);
                    QElapsedTimer lookup;
                    lookup.start();
                    (void)waitFor(
                        [&] { return !ahead.isEmpty() && ahead.last().first().toString() == term; },
                        lookup, 10000);
                    settle(); // painted as pasted
                    heartbeat.reset();
                    if (counted)
                        app.arm(how + kind);
                    t.start();
                } else {
                    heartbeat.reset();
                    if (counted)
                        app.arm(how + kind);
                    t.start();
                    if (mode == Mode::AtOnce)
                        QTest::keySequence(box, QKeySequence::Paste);
                }
                // Timed when the hits are on the page (`searched`), not when the key press
                // has been handled to its end: a single hit's order is asked for after that.
                double program = -1;
                QMetaObject::Connection stamp =
                    QObject::connect(&page, &OrderPage::searched, &page, [&program, &t] {
                        if (program < 0)
                            program = t.nsecsElapsed() / 1e6;
                    });
                QTest::keyClick(box, Qt::Key_Return);
                (void)waitFor([&] { return searched.count() > 0; }, t);
                QObject::disconnect(stamp);
                app.disarm();
                const double gap = heartbeat.maxGapMs();
                if (box->text() != term)
                    die("the search box holds " + box->text() + ", not " + term);
                if (mode == Mode::Read && !ahead.isEmpty())
                    die("a search meant to read at Return was looked up before it");
                if (searched.first().first().toInt() < 1)
                    die("search found nothing for " + term);
                QElapsedTimer opening;
                opening.start();
                if (searched.first().first().toInt() == 1)
                    waitFor([&] { return opened.count() > 0; }, opening);
                double hot = 0;
                const double raw = rawQuiet(statements, &hot);
                const QString searchTerm = term;
                keep(how + kind, rawLabel, program, raw, gap,
                     serviceMs([&] { return OrderSearch(*warm).search(searchTerm, actor).ok(); }),
                     hot);
            }
        }

        // 3. Opening an order page: everything the page shows, against the same statements —
        //    the order on the page (the last search's, or the previous run's) read again
        //    (unchanged: the page sets no table anew); a paid order of the same shape not shown
        //    before (other ids, times and amounts: no text the same), another in each run; then
        //    one on another path (paid_unconfirmed, 97 places on: three states and a reason
        //    where the paid one had four), and the paid one again, unmeasured, for the next run.
        // Its statements (consolebenchstatements.h), its transactions read by `touch`.
        auto orderStatements = [&touch](const QString &orderId) {
            auto txns = orderTransactions(touch->db(), orderId);
            if (!txns)
                die(txns.error().message);
            return orderPageStatements(orderId, *txns);
        };
        auto orderNo = [&](qint64 i) { return QStringLiteral("ord-%1").arg(i, 8, 10, QChar('0')); };
        const QString otherId = orderNo(data.orderId.mid(4).toLongLong() + 100 * (run + 1));
        const QString otherPathId = orderNo(otherId.mid(4).toLongLong() + 97);
        const QString onPage =
            page.picture().order.orderId.isEmpty() ? data.orderId : page.picture().order.orderId;
        for (const auto &[name, orderId] :
             {std::pair{QStringLiteral("order on the page read again (unchanged)"), onPage},
              std::pair{QStringLiteral("open another order page, not shown before"), otherId},
              std::pair{QStringLiteral("open an order on another path, not shown before"),
                        otherPathId},
              std::pair{QString(), otherId}}) {
            if (!step("order"))
                break;
            // Its pages in the OS's file cache first (a connection of their own), none in SQLite's.
            const Statements statements = orderStatements(orderId);
            (void)rawMs(touch->db(), statements);
            settle();
            QSignalSpy opened(&page, &OrderPage::orderLoaded);
            heartbeat.reset();
            QElapsedTimer t;
            t.start();
            const qint64 start = app.nowNs();
            if (counted)
                app.arm(name);
            page.openOrder(orderId);
            waitFor([&] { return opened.count() > 0; }, t);
            const qint64 loaded = app.nowNs(); // then laid out and painted (20 ms without any)
            waitFor([&] { return app.nowNs() - std::max(loaded, app.drawnNs()) > 20'000'000; }, t);
            app.disarm();
            const double program = std::max(app.drawnSinceMs(start), (loaded - start) / 1e6);
            const double gap = heartbeat.maxGapMs();
            const OrderPicture &shown = page.picture();
            if (shown.order.orderId != orderId || shown.timeline.isEmpty() ||
                (orderId == otherPathId) != (shown.order.state == OrderState::PaidUnconfirmed))
                die("order " + orderId + " did not load, or not on the path expected");
            if (name.isEmpty())
                continue;
            double hot = 0;
            const double raw = rawQuiet(statements, &hot);
            const QString loadId = orderId;
            keep(name, "its 13 SELECTs", program, raw, gap,
                 serviceMs([&] { return OrderPictureQuery(*warm).load(loadId, actor).ok(); }), hot);
        }
        // 3b. The floor under a new order's page: what showing one repaints (timeline, its
        //     header, title, facts) painted again as it is after the same quiet — no read, no
        //     layout, every text shaped — beside a new order's statements: painting alone.
        if (step("order")) {
            auto *timeline = page.findChild<QTableView *>(QStringLiteral("timeline"));
            auto *title = page.findChild<QLabel *>(QStringLiteral("orderTitle"));
            auto *facts = page.findChild<QLabel *>(QStringLiteral("orderFacts"));
            if (!timeline || !title || !facts || !timeline->isVisible())
                die("the order page's timeline or header is not on screen");
            const Statements statements = orderStatements(otherId);
            settle();
            heartbeat.reset();
            QElapsedTimer t;
            t.start();
            timeline->viewport()->repaint();
            timeline->horizontalHeader()->viewport()->repaint();
            title->repaint();
            facts->repaint();
            const double program = t.nsecsElapsed() / 1e6;
            const double gap = heartbeat.maxGapMs();
            double hot = 0;
            const double raw = rawQuiet(statements, &hot);
            keep(QStringLiteral("what a new order repaints, painted again (painting alone)"),
                 "its 13 SELECTs", program, raw, gap, -1, hot);
        }

        // 3c. Below that floor, the machine's own: one window-sized background (1200 x 800, the
        //     pages' size here) filled after the same quiet, as every repaint of a page begins,
        //     and once more at once — memory the CPU has to bring back after idling.
        if (step("order")) {
            QImage window(1200, 800, QImage::Format_RGB32);
            window.fill(Qt::white);
            settle();
            heartbeat.reset();
            QElapsedTimer t;
            t.start();
            {
                QPainter p(&window);
                p.fillRect(window.rect(), QColor(239, 239, 239));
            }
            const double quiet = t.nsecsElapsed() / 1e6;
            t.restart();
            {
                QPainter p(&window);
                p.fillRect(window.rect(), QColor(240, 240, 240));
            }
            const double again = t.nsecsElapsed() / 1e6;
            keep(QStringLiteral("a window's background filled (1200 x 800)"), "—", quiet, 0,
                 heartbeat.maxGapMs());
            keep(QStringLiteral("the same filled again at once"), "—", again, 0,
                 heartbeat.maxGapMs());
        }

        // 4. The stuck list: load it and scroll to its last row, painted. The page reads a
        //    page of records at a time (oldest first); scrolling to the end reads the next, so
        //    the list is scrolled to its end again until nothing is left to read.
        if (step("stuck")) {
            StuckPage stuck(config.orders, actor);
            stuck.resize(1200, 800);
            stuck.show();
            (void)QTest::qWaitForWindowExposed(&stuck);
            QSignalSpy loaded(&stuck, &StuckPage::loaded);
            QSignalSpy more(&stuck, &StuckPage::moreLoaded);
            heartbeat.reset();
            QElapsedTimer t;
            t.start();
            if (counted)
                app.arm(QStringLiteral("stuck list"));
            stuck.refresh();
            waitFor([&] { return loaded.count() > 0; }, t);
            int pages = 1;
            while (stuck.hasMore()) {
                const int before = int(more.count());
                stuck.table()->scrollToBottom();
                waitFor([&] { return more.count() > before; }, t);
                ++pages;
            }
            stuck.table()->scrollToBottom();
            QCoreApplication::processEvents();
            app.disarm();
            const double program = t.nsecsElapsed() / 1e6;
            const double gap = heartbeat.maxGapMs();
            if (stuck.table()->verticalScrollBar()->value() !=
                stuck.table()->verticalScrollBar()->maximum())
                die("the stuck list did not reach its end");
            const auto statements = stuckStatements(QDateTime::currentMSecsSinceEpoch(), true);
            double hot = 0;
            const double raw = rawQuiet(statements, &hot);
            keep(QStringLiteral("stuck list scrolled to its end (%1 rows, %2 pages)")
                     .arg(stuck.model()->rowCount())
                     .arg(pages),
                 "its 16 SELECTs (settings, the fix allowance, count + every row per kind)",
                 program, raw, gap, -1, hot);
        }
    }

    std::printf("\nConsole benchmark: %lld orders, SQLite, medians of %d runs (ms)\n", n, runs);
    std::printf("%-58s %10s %10s %10s %7s %10s %12s  %s\n", "operation", "program", "service",
                "raw", "ratio", "raw hot", "GUI max gap", "raw query");
    bool allGood = true;
    for (const Row &r : rows) {
        const double p = median(r.program), b = median(r.baseline);
        const double gap = *std::max_element(r.gaps.begin(), r.gaps.end());
        const double ratio = p / std::max(b, 0.001);
        const QString service =
            r.service.empty() ? QStringLiteral("—") : QString::number(median(r.service), 'f', 2);
        const QString hot =
            r.hot.empty() ? QStringLiteral("—") : QString::number(median(r.hot), 'f', 2);
        std::printf("%-58s %10.2f %10s %10.2f %6.2fx %10s %9.1f ms  %s\n", qPrintable(r.name), p,
                    qPrintable(service), b, ratio, qPrintable(hot), gap, qPrintable(r.raw));
        allGood &= gap <= 50;
    }
    std::printf("goals: ratio <= 2x; GUI thread never blocked more than 50 ms (max gap over all"
                " runs) — %s\n",
                allGood ? "gap goal met" : "gap goal MISSED");
    app.printProbe();
    return 0;
}
