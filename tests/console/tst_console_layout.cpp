// What the console shows at its default size (1280 × 800), offscreen, over data made by the real
// engine, in English and 简体中文: the order timeline's Detail column on screen and taking what the
// other columns leave, every column a reviewer decides on in the approvals queue without
// scrolling, every column of the audit trail, and the dashboard's open discrepancies all seen
// with a total line per currency.
// (The words around a reason and the engine's sentences: tst_console_wording.)

#include "approvals/approvalspage.h"
#include "audit/auditshipper.h"
#include "audit/audittrailmodel.h"
#include "audit/audittrailpage.h"
#include "channels/channelregistry.h"
#include "common/enginetext.h"
#include "common/labels.h"
#include "common/language.h"
#include "common/reasontext.h"
#include "consolefixture.h"
#include "core/money.h"
#include "dashboard/dashboardpage.h"
#include "enginesentencewords.h"
#include "fixes/fixlabels.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "investigation/discrepancymodel.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "longproposalsupport.h"
#include "orders/orderpage.h"
#include "shell/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// Every section of `table`'s header lies within its viewport: nothing to scroll to.
QString sectionsOffScreen(const QTableView *table, const QList<int> &columns)
{
    const QHeaderView *h = table->horizontalHeader();
    const int width = table->viewport()->width();
    QStringList off;
    for (int c : columns) {
        const int left = h->sectionViewportPosition(c);
        if (h->isSectionHidden(c) || left < 0 || left + h->sectionSize(c) > width)
            off << QStringLiteral("%1 [%2, %3] of %4")
                       .arg(table->model()->headerData(c, Qt::Horizontal).toString())
                       .arg(left)
                       .arg(left + h->sectionSize(c))
                       .arg(width);
    }
    return off.join(QStringLiteral("; "));
}

// A test's rows: the console in English and in 简体中文.
void languages()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("English") << QStringLiteral("en");
    QTest::newRow("简体中文") << QStringLiteral("zh_CN");
}

QList<int> allColumns(const QTableView *table)
{
    QList<int> out;
    for (int c = 0; c < table->model()->columnCount(); ++c)
        out << c;
    return out;
}

} // namespace

class TstConsoleLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
        EngineFixture &f = *m_fixture;
        // ord-rb's timeline gets an open exception (a long Event) on top of its rollback.
        const QString insert = QStringLiteral(
            "INSERT INTO discrepancies (discrepancy_key, kind, channel, channel_txn_id, order_id,"
            " expected_minor, actual_minor, currency, status, first_run_id, last_run_id,"
            " opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', 1, 1, ?)");
        QVERIFY(Sql::exec(f.orders->db(), insert,
                          {"fee_mismatch:stripe:pi_rb2", "fee_mismatch", "stripe", "pi_rb2",
                           "ord-rb", 175000, 190000, "EUR", f.clock.nowMs()})
                    .ok());
        // Thirteen open lines on the dashboard: four channels, four currencies (the pairs the
        // dashboard groups by), with known amounts at issue.
        const QStringList channels{"stripe", "paypal", "kakaopay", "fedapay"};
        const QStringList currencies{"USD", "EUR", "JPY", "KRW"};
        int n = 0;
        for (const QString &channel : channels)
            for (const QString &currency : currencies) {
                if (n == 13)
                    break;
                ++n;
                const qint64 issue = 100 * n + 7; // |expected − actual|
                QVERIFY(Sql::exec(f.orders->db(), insert,
                                  {QStringLiteral("amount_mismatch:%1:%2").arg(channel).arg(n),
                                   "amount_mismatch", channel, QStringLiteral("t-%1").arg(n),
                                   QVariant(), 10000, 10000 - issue, currency, f.clock.nowMs()})
                            .ok());
                m_expectedTotals[currency] += issue;
                m_expectedCounts[currency] += 1;
            }
        m_expectedTotals[QStringLiteral("EUR")] += 15000; // ord-rb's fee mismatch
        m_expectedCounts[QStringLiteral("EUR")] += 1;
        // Proposals waiting for a finance reviewer, with long targets and reasons.
        const QString notProposed = proposeLongRequeues(f);
        QVERIFY2(notProposed.isEmpty(), qPrintable(notProposed));
        // What the audit trail shows: the outbox shipped into the audit database.
        auto shipped = AuditShipper::ship(f.config.orders, f.config.audit, Clock::system(), {});
        QVERIFY2(shipped.ok(), qPrintable(shipped.ok() ? QString() : shipped.error().message));
        // Two proposals decided since (not in the trail above): one rejected, one approved.
        FixService fixes(*f.orders, f.clock);
        const Actor finance = account("finance", StaffRole::Finance).actor();
        for (const char *event : {"evt_sim_rejected", "evt_sim_approved"}) {
            f.makeDeadLetter(QStringLiteral("ghost-ord-") + event, event);
            FixProposal proposal;
            proposal.kind = FixKind::RequeueMessage;
            proposal.targetId = QStringLiteral("stripe:") + event;
            proposal.reasonCode = QStringLiteral("channel_outage");
            proposal.comment = QStringLiteral("replay it");
            proposal.origin = QStringLiteral("console@test");
            auto fix = fixes.propose(proposal, {QStringLiteral("agent"), QStringLiteral("agent")});
            QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
            m_decided << *fix;
        }
        QVERIFY(
            fixes.reject(m_decided[0].id, "wrong_target", kRejectComment, "console@test", finance));
        QVERIFY(fixes.approve(m_decided[1].id, m_decided[1].changeSha256, kApproveComment,
                              "console@test", finance));
    }

    void cleanup() { Language::apply(QStringLiteral("en")); }

    // The timeline's Detail header is on screen at the page's default size, takes what the
    // other columns leave (a good share of it), and nothing is left to scroll to sideways;
    // a cut Event or Detail reads whole in its tooltip.
    void timelineDetailIsOnScreen_data() { languages(); }
    void timelineDetailIsOnScreen()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        MainWindow window(m_fixture->config, account("finance", StaffRole::Finance));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(window.orderPage(), &OrderPage::orderLoaded);
        window.openOrder(QStringLiteral("ord-rb"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        auto *table = window.orderPage()->findChild<QTableView *>(QStringLiteral("timeline"));
        QVERIFY(table);
        QTRY_VERIFY(table->isVisible());
        QCoreApplication::processEvents();
        const QString off = sectionsOffScreen(table, allColumns(table));
        QVERIFY2(off.isEmpty(), qPrintable(off));
        const int detail = table->horizontalHeader()->sectionSize(TimelineModel::Detail);
        QVERIFY2(
            detail >= table->viewport()->width() / 3,
            qPrintable(
                QStringLiteral("Detail %1 of %2").arg(detail).arg(table->viewport()->width())));
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        // A cut Event or Detail reads whole in its tooltip.
        TimelineModel *t = window.orderPage()->timelineModel();
        // The platform's rollback reason is its own words on both of its rows (the transition
        // and its audit row): the page tells the timeline whose words an audit row's are.
        int shop = 0;
        for (int r = 0; r < t->rowCount(); ++r)
            shop += t->index(r, TimelineModel::Detail).data().toString() ==
                    Labels::givenReason("new attempt", Labels::ReasonAuthor::Shop);
        QCOMPARE(shop, 2);
        for (int r = 0; r < t->rowCount(); ++r) {
            const QString event = t->index(r, TimelineModel::Event).data().toString();
            QCOMPARE(t->index(r, TimelineModel::Event).data(Qt::ToolTipRole).toString(), event);
            const QString shown = t->index(r, TimelineModel::Detail).data().toString();
            if (!shown.isEmpty())
                QVERIFY2(t->index(r, TimelineModel::Detail)
                             .data(Qt::ToolTipRole)
                             .toString()
                             .contains(shown.toHtmlEscaped()),
                         qPrintable(shown));
        }
    }

    // Every column of the approvals queue is on screen at the default size, in both languages,
    // even with long targets and reasons: the reviewer sees what they decide on without
    // scrolling sideways. A cut target reads whole in its tooltip.
    void approvalsColumnsAreOnScreen_data() { languages(); }
    void approvalsColumnsAreOnScreen()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        MainWindow window(m_fixture->config, account("finance", StaffRole::Finance));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ApprovalsPage *page = window.approvalsPage();
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        window.showView(QStringLiteral("approvals"));
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        QCOMPARE(loaded.last().first().toInt(), 2);
        QTableView *table = page->table();
        QTRY_VERIFY(table->isVisible());
        QCoreApplication::processEvents();
        const QString off = sectionsOffScreen(table, allColumns(table));
        QVERIFY2(off.isEmpty(), qPrintable(off));
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        // The reason shows more than a word or two.
        QVERIFY(table->horizontalHeader()->sectionSize(FixModel::Reason) >=
                10 * table->fontMetrics().averageCharWidth());
        const QModelIndex target = table->model()->index(0, FixModel::Target);
        QVERIFY(target.data(Qt::ToolTipRole).toString().startsWith(u"stripe:evt_sim"));
        // The reason as the audit trail shows the proposal's: the code as its word, the code
        // kept, and the proposer's own words quoted as written (never translated).
        const QString word = Labels::fixReason("channel_outage");
        const QString comment = QStringLiteral("the order reached checkout late; replay the "
                                               "callback once the shop has created it, as the "
                                               "channel asked us to");
        const QString reason = table->model()->index(0, FixModel::Reason).data().toString();
        QVERIFY2(word != u"channel_outage" && reason.startsWith(word) &&
                     reason.contains(u"channel_outage") && reason.endsWith(Labels::quoted(comment)),
                 qPrintable(reason));
        QCOMPARE(reason,
                 Labels::auditReason("fix.proposed", "agent", "channel_outage: " + comment));
        // The detail pane says it by the same rule: the code's word, the code, the words quoted.
        const QString header = page->findChild<QLabel *>(QStringLiteral("header"))->text();
        QVERIFY2(header.contains(word) && header.contains(u"channel_outage") &&
                     header.contains(Labels::quoted(comment).toHtmlEscaped()),
                 qPrintable(header));
        // A decision's comment is the reviewer's own words, quoted as written (never translated,
        // although both are word for word engine sentences); a rejection's code as its word.
        QSignalSpy reloaded(page, &ApprovalsPage::loaded);
        page->findChild<QComboBox *>(QStringLiteral("status"))->setCurrentIndex(1); // Decided
        QTRY_VERIFY_WITH_TIMEOUT(!reloaded.isEmpty(), 10000);
        const auto *decisions = page->findChild<QLabel *>(QStringLiteral("decisions"));
        QVERIFY(page->select(m_decided[0].id));
        const QString rejected = decisions->text();
        const QString because = Labels::rejectionReason("wrong_target");
        QVERIFY2(because != u"wrong_target" && rejected.contains(because) &&
                     rejected.contains(u"wrong_target") &&
                     rejected.endsWith(Labels::quoted(kRejectComment)),
                 qPrintable(rejected));
        QVERIFY(page->select(m_decided[1].id));
        const QString approved = decisions->text();
        QVERIFY2(approved.endsWith(QStringLiteral(" — ") + Labels::quoted(kApproveComment)),
                 qPrintable(approved));
        const QString both = rejected + u'\n' + approved;
        for (const QString &c : {kRejectComment, kApproveComment})
            QVERIFY2(lang == u"en" || !both.contains(Labels::engineText(c)), qPrintable(both));
    }

    // Every column of the audit trail is on screen at the default size, the reason last and
    // taking what the others leave; long entities and callbacks are cut in the middle.
    void auditTrailColumnsAreOnScreen_data() { languages(); }
    void auditTrailColumnsAreOnScreen()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        MainWindow window(m_fixture->config, account("finance", StaffRole::Finance));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        AuditTrailPage *page = window.auditTrailPage();
        QSignalSpy loaded(page, &AuditTrailPage::loaded);
        window.showView(QStringLiteral("audit"));
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().first().toInt() > 0, 10000);
        auto *table = page->findChild<QTableView *>(QStringLiteral("auditTrail"));
        QVERIFY(table);
        QTRY_VERIFY(table->isVisible());
        QCoreApplication::processEvents();
        const QString off = sectionsOffScreen(table, allColumns(table));
        QVERIFY2(off.isEmpty(), qPrintable(off));
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        QVERIFY(table->horizontalHeader()->sectionSize(AuditTrailModel::Reason) >=
                10 * table->fontMetrics().averageCharWidth());
        // A proposal's row: its reason code as a word, the code kept, in the table and in the
        // detail pane (with the reason as stored).
        AuditTrailModel *model = page->model();
        int proposal = -1;
        for (int guard = 0; proposal < 0 && guard < 100; ++guard) {
            for (int r = 0; r < model->rowCount() && proposal < 0; ++r)
                if (model->rowAt(r).action == u"fix.proposed")
                    proposal = r;
            if (proposal < 0 && !model->atEnd()) {
                const int before = model->rowCount();
                model->fetchMore({});
                QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > before || model->atEnd(), 10000);
            } else if (proposal < 0) {
                break;
            }
        }
        QVERIFY(proposal >= 0);
        const QString word = Labels::fixReason("channel_outage");
        const QString shown = model->index(proposal, AuditTrailModel::Reason).data().toString();
        QVERIFY2(word != u"channel_outage" && shown.startsWith(word) &&
                     shown.contains(u"channel_outage") &&
                     shown.endsWith(Labels::quoted(
                         model->rowAt(proposal).reason->section(QStringLiteral(": "), 1))),
                 qPrintable(shown));
        table->setCurrentIndex(model->index(proposal, 0));
        const QString detail = page->findChild<QPlainTextEdit *>("detail")->toPlainText();
        QVERIFY2(detail.contains(shown), qPrintable(detail));
        QVERIFY2(detail.contains(u"channel_outage: the order reached checkout late"),
                 qPrintable(detail));
    }

    // All thirteen lines of open discrepancies and their total lines are on screen at the
    // default size (no scrolling), and each currency's total is its own lines' sum, formatted
    // as the currency is, never summed across currencies.
    void dashboardShowsEveryDiscrepancyLineAndTotals_data() { languages(); }
    void dashboardShowsEveryDiscrepancyLineAndTotals()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        MainWindow window(m_fixture->config, account("finance", StaffRole::Finance));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        DashboardPage *page = window.dashboardPage();
        QSignalSpy loaded(page, &DashboardPage::loaded);
        window.showView(QStringLiteral("dashboard"));
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        QCoreApplication::processEvents();
        QTableView *table = page->discrepancyTable();
        QAbstractItemModel *lines = table->model();
        // 13 lines (ord-rb's fee mismatch is counted in stripe's EUR line).
        QCOMPARE(page->discrepancyModel()->rowCount(), 13);
        QCOMPARE(lines->rowCount(), 13 + int(m_expectedTotals.size()));
        QVERIFY(!table->verticalScrollBar()->isVisible());
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        for (int r = 0; r < lines->rowCount(); ++r) {
            const QRect cell = table->visualRect(lines->index(r, 0));
            QVERIFY2(table->viewport()->rect().contains(cell),
                     qPrintable(QStringLiteral("line %1 at %2..%3 of %4")
                                    .arg(r)
                                    .arg(cell.top())
                                    .arg(cell.bottom())
                                    .arg(table->viewport()->height())));
        }
        const QString off = sectionsOffScreen(table, allColumns(table));
        QVERIFY2(off.isEmpty(), qPrintable(off));
        // The totals: one line per currency after the channels' lines.
        const QString total =
            QCoreApplication::translate("OncePay::DiscrepancyCurrencyTotalModel", "Total");
        QMap<QString, QString> shown;
        QMap<QString, qint64> counted;
        for (int r = 13; r < lines->rowCount(); ++r) {
            QCOMPARE(lines->index(r, 0).data().toString(), total);
            const QString amount = lines->index(r, 2).data().toString();
            shown.insert(amount.section(u' ', -1), amount);
            counted.insert(amount.section(u' ', -1), lines->index(r, 1).data().toLongLong());
        }
        QCOMPARE(shown.size(), m_expectedTotals.size());
        // The total lines are the service's totals, shown as given (the model sums nothing).
        const QList<DiscrepancyCurrencyTotal> &given = page->data().openDiscrepancyTotals;
        QCOMPARE(page->discrepancyTotals()->rowCount(), int(given.size()));
        for (int r = 0; r < int(given.size()); ++r)
            QVERIFY(page->discrepancyTotals()->rowAt(r) == given.at(r));
        for (auto it = m_expectedTotals.cbegin(); it != m_expectedTotals.cend(); ++it) {
            QCOMPARE(shown.value(it.key()), Currency::format(it.value(), it.key()));
            QCOMPARE(counted.value(it.key()), m_expectedCounts.value(it.key()));
        }
        // Two by hand: USD lines 1, 5, 9, 13 (107 + 507 + 907 + 1307 minor units), EUR lines
        // 2, 6, 10 and the fee mismatch (207 + 607 + 1007 + 15000).
        QCOMPARE(shown.value("USD"), Currency::format(2828, "USD"));
        QCOMPARE(shown.value("EUR"), Currency::format(16821, "EUR"));
    }

    // The totals as the service gives them (DashboardQuery::currencyTotals: per currency,
    // exact, an overflow as no amount) and the totals model showing them as given.
    void currencyTotalsAreExactPerCurrency()
    {
        const QList<DiscrepancyTotal> rows{{"stripe", "USD", 2, 150},
                                           {"paypal", "EUR", 1, 99},
                                           {"paypal", "USD", 3, 50},
                                           {"kakaopay", "", 1, 7},
                                           {"fedapay", "XOF", 1, 9'000'000'000'000'000'000},
                                           {"stripe", "XOF", 1, 9'000'000'000'000'000'000}};
        const QList<DiscrepancyCurrencyTotal> totals = DashboardQuery::currencyTotals(rows);
        const QList<DiscrepancyCurrencyTotal> expected{
            {"", 1, 7}, {"EUR", 1, 99}, {"USD", 5, 200}, {"XOF", 2, std::nullopt}};
        QVERIFY(totals == expected);
        DiscrepancyCurrencyTotalModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(totals);
        QCOMPARE(model.index(2, 2).data().toString(), Currency::format(200, "USD"));
        QVERIFY(!model.index(3, 2).data().toString().contains(u"XOF"));
        QVERIFY(model.index(2, 0).data(Qt::FontRole).value<QFont>().bold());
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
    QMap<QString, qint64> m_expectedTotals;
    QMap<QString, qint64> m_expectedCounts;
    QList<FixRequest> m_decided; // rejected, approved
};

QTEST_MAIN(TstConsoleLayout)
#include "tst_console_layout.moc"
