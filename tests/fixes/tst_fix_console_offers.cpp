// What the console offers to propose and what it says after (offscreen): the stuck page and the
// order page offer each fix the service's rule fits for a message under a worker's lease, the
// clock-skew allowance included, and their sentences read in the interface language; the
// summary after a batch says what was not sent.

#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/language.h"
#include "enginefixture.h"
#include "fixconsolesupport.h"
#include "fixes/fixactions.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
#include "fixes/fixsettings.h"
#include "fixtestsupport.h"
#include "investigation/ordermodels.h"
#include "investigation/stuckmodel.h"
#include "orders/orderpage.h"
#include "stuck/stuckpage.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTranslator>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

class TstFixConsoleOffers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The English console, with its plural forms (resources/translations/oncepay_en.ts).
    void initTestCase() { Language::apply(QStringLiteral("en")); }

    // The stuck page offers what the service's rule (fixKindsOffered) answers for the rows its
    // background query read, lease end included: nothing for a message a worker holds under a
    // live lease (propose would be refused), requeue and resolve once the lease ran out, and
    // the proposal made from there is taken.
    void stuckPageOffersNoFixUnderALiveLease()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        for (const char *event : {"evt_live", "evt_gone"})
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params(QStringLiteral("o-") + event, "a1", 2100, "USD", event,
                         QStringLiteral("pi_") + event)));
        // The page reads with the wall clock: one worker still holds its lease for an hour, the
        // other's ran out a minute ago; both claimed the message an hour ago.
        QVERIFY(claimedAnHourAgo(f, "stripe:evt_live", 3600 * 1000));
        QVERIFY(claimedAnHourAgo(f, "stripe:evt_gone", -60 * 1000));

        StuckPage stuck(dbs->orders(), amy);
        QSignalSpy stuckLoaded(&stuck, &StuckPage::loaded);
        stuck.refresh();
        QVERIFY(stuckLoaded.wait(20000));
        QModelIndex live, gone;
        for (int r = 0; r < stuck.model()->rowCount(); ++r) {
            const StuckRecord &rec = stuck.model()->rowAt(r);
            const QModelIndex i = stuck.proxy()->mapFromSource(stuck.model()->index(r, 0));
            if (rec.callbackId == u"stripe:evt_live" && rec.kind == StuckKind::ProcessingMessage)
                live = i;
            if (rec.callbackId == u"stripe:evt_gone" && rec.kind == StuckKind::ExpiredLease)
                gone = i;
        }
        QVERIFY(live.isValid());
        QVERIFY(gone.isValid());
        auto *selection = stuck.table()->selectionModel();
        const auto pick = QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows;
        selection->setCurrentIndex(live, pick);
        QVERIFY(!stuck.proposeButton()->isEnabled());
        selection->select(gone, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(selection->selectedRows().size(), 2);
        QVERIFY(!stuck.proposeButton()->isEnabled());
        selection->setCurrentIndex(gone, pick);
        QVERIFY(stuck.proposeButton()->isEnabled());

        answerProposeDialog("poison_message", "its worker died");
        QSignalSpy proposed(&stuck, &StuckPage::fixesProposed);
        stuck.proposeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(proposed.count(), 1, 20000);
        QCOMPARE(proposed.first().first().toInt(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open' AND kind ="
                         " 'requeue_message' AND target_id = 'stripe:evt_gone'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);

        // A lease that runs out while its row stays selected is offered then (past the
        // clock-skew allowance, here one second), with no click and no reload.
        QVERIFY(setSetting(f, "fixes.lease_skew_ms", "1000"));
        QVERIFY(Sql::update(f.orders->db(),
                            "UPDATE callback_messages SET lease_until = ? WHERE callback_id = ?",
                            {QDateTime::currentMSecsSinceEpoch() + 1500, "stripe:evt_live"})
                    .ok());
        stuckLoaded.clear();
        stuck.refresh();
        QVERIFY(stuckLoaded.wait(20000));
        QModelIndex ending;
        for (int r = 0; r < stuck.model()->rowCount(); ++r)
            if (stuck.model()->rowAt(r).callbackId == u"stripe:evt_live")
                ending = stuck.proxy()->mapFromSource(stuck.model()->index(r, 0));
        QVERIFY(ending.isValid());
        stuck.table()->selectionModel()->setCurrentIndex(ending, pick);
        QVERIFY(!stuck.proposeButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(stuck.proposeButton()->isEnabled(), 5000);
    }

    // The sentence after proposing several targets when the database went away part-way:
    // the ones proposed before are committed, so it says how many and that the rest were not
    // sent, why as errorText says it (not the raw English error); with none proposed, "Nothing
    // was proposed". When the person stopped the batch, that the rest were not sent. Without
    // either, the usual summary.
    void proposeSummarySaysWhatWasNotSent()
    {
        const Error away = makeError(ErrorCode::Unavailable,
                                     QStringLiteral("database file not found: /gone/orders.db"),
                                     QStringLiteral("database_missing"));
        const QString partway =
            proposeSummary({.proposed = {1, 2}, .stoppedBy = away, .notSent = 3});
        QVERIFY2(partway.startsWith(QStringLiteral("2 proposed; the rest were not sent: ")),
                 qPrintable(partway));
        QVERIFY2(partway.contains(errorText(away)), qPrintable(partway));
        QVERIFY2(!partway.contains(QStringLiteral("Nothing was proposed")), qPrintable(partway));
        QVERIFY(!partway.contains(away.message.left(24)));
        const QString withRefusal =
            proposeSummary({.proposed = {7},
                            .refused = {QStringLiteral("stripe:evt_x: no message")},
                            .stoppedBy = away,
                            .notSent = 1});
        QVERIFY2(withRefusal.startsWith(QStringLiteral("1 proposed; the rest were not sent: ")),
                 qPrintable(withRefusal));
        QVERIFY(withRefusal.contains(QStringLiteral("Refused:\nstripe:evt_x: no message")));
        QCOMPARE(proposeSummary({.stoppedBy = away, .notSent = 2}),
                 QStringLiteral("Nothing was proposed: %1").arg(errorText(away)));
        QCOMPARE(proposeSummary({.proposed = {1, 2, 3}}),
                 QStringLiteral("3 fixes proposed and waiting for approval."));
        const QString stopped =
            proposeSummary({.proposed = {4},
                            .refused = {QStringLiteral("stripe:evt_y: no message")},
                            .cancelled = true,
                            .notSent = 5});
        QVERIFY2(stopped.startsWith(
                     QStringLiteral("1 proposed; you stopped before the rest were sent.")),
                 qPrintable(stopped));
        QVERIFY(stopped.contains(QStringLiteral("Refused:\nstripe:evt_y: no message")));
        QVERIFY(!stopped.contains(QStringLiteral("waiting for approval")));
    }

    // The stuck page judges leases with the clock-skew allowance (fixes.lease_skew_ms), as the
    // service does: a lease that ended within it is not offered, and the page's timer offers it
    // the moment it is past it; a setting that is no valid number is said in the summary, and
    // then no expired lease is offered (a dead letter still is).
    void stuckPageWaitsForTheSkewAllowance()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-skew", "a1", 2100, "USD", "evt_skew", "pi_skew")));
        // Its lease ended two seconds ago by this clock; the allowance is twelve: the page has
        // ten seconds to load before the fix is offered (generous on a loaded machine).
        QVERIFY(claimedAnHourAgo(f, "stripe:evt_skew", -2 * 1000));
        QVERIFY(setSetting(f, "fixes.lease_skew_ms", "12000"));

        StuckPage stuck(dbs->orders(), amy);
        QSignalSpy stuckLoaded(&stuck, &StuckPage::loaded);
        stuck.refresh();
        QVERIFY(stuckLoaded.wait(20000));
        const auto pick = QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows;
        const auto select = [&](const char *callbackId) {
            for (int r = 0; r < stuck.model()->rowCount(); ++r)
                if (stuck.model()->rowAt(r).callbackId == QLatin1String(callbackId)) {
                    stuck.table()->selectionModel()->setCurrentIndex(
                        stuck.proxy()->mapFromSource(stuck.model()->index(r, 0)), pick);
                    return true;
                }
            return false;
        };
        QVERIFY(select("stripe:evt_skew"));
        // When the fix is offered: the row's lease end plus the allowance plus 1 ms, by the
        // wall clock the page judges with.
        const std::optional<qint64> leaseUntil =
            stuck.model()
                ->rowAt(stuck.proxy()
                            ->mapToSource(stuck.table()->selectionModel()->currentIndex())
                            .row())
                .leaseUntilMs;
        QVERIFY(leaseUntil);
        const qint64 offeredAt = *leaseUntil + 12000 + 1;
        // Nothing runs the page's timer between this reading of the clock and the checks below
        // (no events are processed), so before `offeredAt` the button must be off.
        const qint64 checkedAt = QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(checkedAt < offeredAt,
                 qPrintable(QStringLiteral("the page took until %1 ms past the allowance to load")
                                .arg(checkedAt - offeredAt)));
        QVERIFY(!stuck.proposeButton()->isEnabled());
        // The button says why it waits, and until when (lease end + allowance + 1 ms).
        QVERIFY2(stuck.proposeButton()->toolTip().contains(
                     "clock-skew allowance (fixes.lease_skew_ms) is not past yet"),
                 qPrintable(stuck.proposeButton()->toolTip()));
        QVERIFY2(stuck.proposeButton()->toolTip().contains(Labels::time(offeredAt)),
                 qPrintable(stuck.proposeButton()->toolTip()));
        // It turns on by itself, not before `offeredAt` (however long anything took).
        QTRY_VERIFY_WITH_TIMEOUT(stuck.proposeButton()->isEnabled(),
                                 int(offeredAt - checkedAt) + 30000);
        const qint64 enabledBy = QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(enabledBy >= offeredAt,
                 qPrintable(QStringLiteral("offered %1 ms before the allowance was past")
                                .arg(offeredAt - enabledBy)));
        QVERIFY(!stuck.proposeButton()->toolTip().contains("not past yet"));

        // A setting nobody meant: said, and no expired lease offered.
        QVERIFY(setSetting(f, "fixes.lease_skew_ms", "soon"));
        stuckLoaded.clear();
        stuck.refresh();
        QVERIFY(stuckLoaded.wait(20000));
        QVERIFY(select("stripe:evt_skew"));
        QVERIFY(!stuck.proposeButton()->isEnabled());
        auto *summary = stuck.findChild<QLabel *>(QStringLiteral("summary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(
                     "Expired leases are offered no fix until this is corrected: ops setting "
                     "fixes.lease_skew_ms is not a whole number from 0 to 3600000: 'soon'"),
                 qPrintable(summary->text()));
    }

    // The order page's "requeue or resolve its messages" proposes for the order's messages the
    // service's rule takes now: one whose worker's lease ran out, not one a worker still holds.
    void orderPageProposesForMessagesWhoseLeaseRanOut()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        const Order o = f.createOrder(QStringLiteral("o-lease"), 2100);
        f.pay(o.orderId, o.version, QStringLiteral("a1"));
        for (const char *event : {"evt_held", "evt_lost"})
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params(o.orderId, "a1", 2100, "USD", event, QStringLiteral("pi_lease"))));
        QVERIFY(claimedAnHourAgo(f, "stripe:evt_held", 3600 * 1000));
        QVERIFY(claimedAnHourAgo(f, "stripe:evt_lost", -60 * 1000));

        OrderPage page(dbs->orders(), amy);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder(o.orderId);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.messageModel()->rowCount(), 2);
        answerProposeDialog("poison_message", "its worker died");
        QSignalSpy proposed(&page, &OrderPage::fixesProposed);
        page.proposeMessageFix();
        QTRY_COMPARE_WITH_TIMEOUT(proposed.count(), 1, 20000);
        QCOMPARE(proposed.first().first().toInt(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open' AND target_id ="
                         " 'stripe:evt_lost'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);
    }

    // An order with one pending and one dead message: the order page offers requeue for the
    // dead one and resolve for both (each kind for the messages it fits), and a proposal covers
    // only the messages its kind fits. The service still decides: a second proposal for a
    // message that has one open is refused, the other is taken.
    void orderPageOffersEachKindForTheMessagesItFits()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        // A callback for an order checkout had not created yet: retried until it is dead.
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-mixed", "a1", 2100, "USD", "evt_dead", "pi_mixed")));
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        Order o = f.createOrder("o-mixed", 2100);
        f.pay("o-mixed", o.version, "a1");
        // A second callback, not processed yet.
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-mixed", "a1", 2100, "USD", "evt_wait", "pi_mixed")));
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_dead' AND status = 'dead'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_wait' AND status = 'pending'"),
                 1);

        OrderPage page(dbs->orders(), amy);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("o-mixed");
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.messageModel()->rowCount(), 2);

        auto offered = std::make_shared<Offered>();
        answerProposeDialog("poison_message", "arrived before its order", FixKind::RequeueMessage,
                            offered);
        QSignalSpy proposed(&page, &OrderPage::fixesProposed);
        page.proposeMessageFix();
        QTRY_COMPARE_WITH_TIMEOUT(proposed.count(), 1, 20000);
        QCOMPARE(offered->size(), 2);
        QCOMPARE(offered->at(0).kind, FixKind::RequeueMessage);
        QCOMPARE(offered->at(0).targets, QStringList{"stripe:evt_dead"});
        QCOMPARE(offered->at(0).label, QStringLiteral("Targets (1 of 2):"));
        QCOMPARE(offered->at(1).kind, FixKind::ResolveMessage);
        QStringList both = offered->at(1).targets;
        both.sort();
        QCOMPARE(both, (QStringList{"stripe:evt_dead", "stripe:evt_wait"}));
        QCOMPARE(offered->at(1).label, QStringLiteral("Targets (2):"));
        QCOMPARE(proposed.first().first().toInt(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open' AND kind ="
                         " 'requeue_message' AND target_id = 'stripe:evt_dead'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);

        // Resolve covers both; the dead one already has an open proposal, so the service takes
        // the pending one only.
        // The page reads the order again after proposing.
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        answerProposeDialog("duplicate_handled", "handled by hand", FixKind::ResolveMessage);
        page.proposeMessageFix();
        QTRY_COMPARE_WITH_TIMEOUT(proposed.count(), 2, 20000);
        QCOMPARE(proposed.at(1).first().toInt(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open' AND kind ="
                         " 'resolve_message' AND target_id = 'stripe:evt_wait'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND"
                         " reason LIKE '%already has an open proposal%'"),
                 1);
    }

    // The fix rule's new sentences (a lease within the clock-skew allowance, a lease judged
    // without one, a bad fixes.lease_skew_ms) are engine templates the console recognises, so
    // they read in the interface language once translated: with a translator that marks what it
    // translates, each comes back marked, its numbers and ids put back.
    void theLeaseSkewSentencesAreEngineTemplates()
    {
        struct Marking : QTranslator {
            QString translate(const char *, const char *source, const char *, int) const override
            {
                return QStringLiteral("[zh] ") + QString::fromUtf8(source);
            }
            bool isEmpty() const override { return false; }
        } marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        const qint64 now = 1767225600000;
        const FixTargetState held{.targetKind = QStringLiteral("message"),
                                  .targetId = QStringLiteral("stripe:evt_x"),
                                  .status = QStringLiteral("processing"),
                                  .leaseUntilMs = now - 12000};
        const QString within =
            fixFits(FixKind::RequeueMessage, held, {.nowMs = now, .leaseSkewMs = 30000})
                .error()
                .message;
        const QString unjudged =
            fixFits(FixKind::ResolveMessage, held, {.nowMs = now}).error().message;
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        QVERIFY(setSetting(f, "fixes.lease_skew_ms", "soon"));
        const QString bad = FixSettings::leaseSkewMs(*f.orders).error().message;
        const QString shownWithin = Labels::engineText(within);
        const QString shownUnjudged = Labels::engineText(unjudged);
        const QString shownBad = Labels::engineText(bad);
        QCoreApplication::removeTranslator(&marking);
        QVERIFY2(shownWithin.startsWith("[zh] message stripe:evt_x is processing under a lease "
                                        "that ended 12000 ms ago, within the clock-skew "
                                        "allowance of 30000 ms"),
                 qPrintable(shownWithin));
        QVERIFY2(shownUnjudged.startsWith("[zh] message stripe:evt_x is processing under a lease "
                                          "that ended; without a valid clock-skew allowance"),
                 qPrintable(shownUnjudged));
        QCOMPARE(shownBad, QStringLiteral("[zh] ops setting fixes.lease_skew_ms is not a whole "
                                          "number from 0 to 3600000: 'soon'"));
    }
};

QTEST_MAIN(TstFixConsoleOffers)
#include "tst_fix_console_offers.moc"
