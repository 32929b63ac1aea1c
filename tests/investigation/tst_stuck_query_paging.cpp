// The stuck list's reads on every engine: read a page at a time (keyset per kind), it reaches
// every record, none twice, oldest first across the pages, ties included; a stuck threshold
// in ops_settings that is no whole number within the settings service's range refuses the
// list, its counts and the dashboard ("bad_setting"), never replaced by a default; a
// requeued message that fails its first retry is dated from its requeue (migration 0019); a
// page of a kind spanning several statuses is read in order from indexes (migrations 0021,
// 0022).

#include "auth/staffservice.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "investigation/dashboardquery.h"
#include "investigation/stuckquery.h"

#include <QFile>
#include <QSet>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};

// A message stored as the ingest stores one, in `status`, received and last changed at `at`.
bool insertMessage(const EngineFixture &f, const QString &callbackId, const QString &status,
                   qint64 at, const QVariant &orderRef = QStringLiteral("o-none"))
{
    auto r = Sql::exec(f.orders->db(),
                       "INSERT INTO callback_messages (callback_id, channel, event_kind,"
                       " order_ref, raw_body, headers, status, attempts, next_attempt_at,"
                       " received_at, updated_at) VALUES (?, 'stripe', 'payment_succeeded', ?,"
                       " '{}', '{}', ?, 1, ?, ?, ?)",
                       {callbackId, orderRef, status, at, at, at});
    if (!r)
        qWarning("insert: %s", qPrintable(r.error().message));
    return r.ok();
}

bool setSetting(const EngineFixture &f, const QString &key, const QString &value)
{
    return Sql::update(f.orders->db(),
                       "UPDATE ops_settings SET setting_value = ? WHERE setting_key = ?",
                       {value, key})
        .ok();
}

// The whole list read `pageSize` rows at a time as the stuck page reads it: the first page
// with the counts, each next one after every kind's last row, the kinds that ended left out.
QList<StuckRecord> readAll(const StuckQuery &q, int pageSize, QMap<StuckKind, qint64> *counts,
                           int *pages)
{
    StuckFilter filter;
    filter.pageSize = pageSize;
    QList<StuckRecord> all;
    QList<StuckKind> ended;
    *pages = 0;
    for (;;) {
        auto page = q.load(filter, amy);
        if (!page) {
            qWarning("load: %s", qPrintable(page.error().message));
            return {};
        }
        if (++*pages > 1000)
            return {}; // never ends
        if (filter.withCounts)
            *counts = page->counts;
        if (page->records.size() > pageSize)
            return {};
        all += page->records;
        // The page's cursors are each kind's last record in it.
        QMap<StuckKind, StuckCursor> last;
        for (const StuckRecord &r : page->records)
            last.insert(r.kind, StuckCursor{r.sinceMs, r.reference});
        if (page->cursors != last) {
            qWarning("page %d: its cursors are not its kinds' last records", *pages);
            return {};
        }
        filter.after.insert(page->cursors);
        ended += page->ended;
        filter.atMs = page->now;
        filter.withCounts = false;
        filter.kinds.clear();
        for (auto it = counts->cbegin(); it != counts->cend(); ++it)
            if (!ended.contains(it.key()))
                filter.kinds << it.key();
        if (filter.kinds.isEmpty())
            return all;
    }
}

} // namespace

class TstStuckQueryPaging : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pagesReachEveryRecordOnce_data() { addEngineRows(); }
    void pagesReachEveryRecordOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        // Orders in flight: five paid at one instant (a tie their order ids break), two later.
        for (int i = 0; i < 7; ++i) {
            if (i == 5)
                f.clock.advance(60 * 1000);
            const Order o = f.createOrder(QStringLiteral("o-fl-%1").arg(i), 1000 + i);
            f.pay(o.orderId, o.version, QStringLiteral("att-%1").arg(i));
        }
        // Two of the tied ones, and one later, wait in paid_unconfirmed (the kind's other
        // state: on MariaDB a part of its own, read beside the paying ones).
        QVERIFY(Sql::update(f.orders->db(),
                            "UPDATE orders SET state = 'paid_unconfirmed' WHERE order_id IN"
                            " ('o-fl-1', 'o-fl-3', 'o-fl-6')")
                    .ok());
        // 23 waiting messages, in threes at one instant, interleaved with the orders' times:
        // pending ones and failed ones, of which some were requeued ten minutes after they
        // arrived (dated from the requeue, in a tie with the next three).
        const qint64 t0 = f.clock.nowMs() - 30 * 60 * 1000;
        QMap<QString, qint64> waitingSince;
        for (int i = 0; i < 23; ++i) {
            const QString id = QStringLiteral("stripe:evt_w%1").arg(i, 2, 10, QChar('0'));
            const qint64 at = t0 + (i / 3) * 10 * 60 * 1000;
            QVERIFY(insertMessage(
                f, id, i % 2 ? QStringLiteral("pending") : QStringLiteral("failed"), at));
            waitingSince.insert(id, at);
            if (i % 4 == 2) {
                QVERIFY(Sql::update(f.orders->db(),
                                    "UPDATE callback_messages SET requeued_at = ? WHERE"
                                    " callback_id = ?",
                                    {at + 10 * 60 * 1000, id})
                            .ok());
                waitingSince.insert(id, at + 10 * 60 * 1000);
            }
        }
        f.clock.advance(3600 * 1000);
        StuckQuery q(*f.orders, f.clock);

        for (int pageSize : {1, 4, 30, 2000}) {
            QMap<StuckKind, qint64> counts;
            int pages = 0;
            const QList<StuckRecord> all = readAll(q, pageSize, &counts, &pages);
            QCOMPARE(counts.value(StuckKind::PendingMessage), 23);
            QCOMPARE(counts.value(StuckKind::OrderInFlight), 7);
            QCOMPARE(all.size(), 30); // every record, beyond the first page
            QSet<QString> seen;
            for (int i = 0; i < all.size(); ++i) {
                QVERIFY2(!seen.contains(stuckKindName(all[i].kind) + all[i].reference),
                         qPrintable(all[i].reference)); // none twice
                seen << stuckKindName(all[i].kind) + all[i].reference;
                if (i > 0)
                    QVERIFY(all[i - 1].sinceMs <= all[i].sinceMs); // oldest first throughout
                // Within a kind, a tie in reference order (across statuses too).
                if (i > 0 && all[i - 1].kind == all[i].kind &&
                    all[i - 1].sinceMs == all[i].sinceMs) {
                    if (all[i].kind == StuckKind::PendingMessage)
                        QVERIFY(all[i - 1].reference.toLongLong() < all[i].reference.toLongLong());
                    else
                        QVERIFY2(all[i - 1].reference < all[i].reference,
                                 qPrintable(all[i].reference));
                }
                if (all[i].kind == StuckKind::PendingMessage)
                    QCOMPARE(all[i].sinceMs, waitingSince.value(all[i].callbackId));
            }
            QVERIFY(pages >= (30 + pageSize - 1) / pageSize);
        }

        // One page: the oldest rows of all kinds, no more than asked.
        StuckFilter first;
        first.pageSize = 4;
        auto page = q.load(first, amy);
        QVERIFY(page.ok());
        QCOMPARE(page->records.size(), 4);
        QCOMPARE(page->records.first().callbackId, QStringLiteral("stripe:evt_w00"));
        QVERIFY(!page->ended.contains(StuckKind::PendingMessage));
        QVERIFY(!page->ended.contains(StuckKind::OrderInFlight));
        QVERIFY(page->ended.contains(StuckKind::DeadLetter)); // none at all
        // Asked for one kind after its last row: what follows, in its own order.
        StuckFilter next;
        next.kinds = {StuckKind::OrderInFlight};
        next.pageSize = 3;
        next.after.insert(
            StuckKind::OrderInFlight,
            StuckCursor{f.order(QStringLiteral("o-fl-1")).updatedAt, QStringLiteral("o-fl-1")});
        auto more = q.load(next, amy);
        QVERIFY(more.ok());
        QStringList ids;
        for (const StuckRecord &r : more->records)
            ids << r.orderId;
        QCOMPARE(ids, (QStringList{"o-fl-2", "o-fl-3", "o-fl-4"}));
    }

    // A page of orders in flight or of waiting messages — the two kinds that span several
    // statuses — reads its rows in the list's order from indexes, the first page and a page
    // after a cursor alike, the latter entering the index at the cursor: nothing sorts or
    // skips what is not on the page, so scrolling a backlog to its end costs what its rows
    // cost. SQLite and PostgreSQL read the kind's partial index (migration 0021; on PostgreSQL
    // the plan with sequential scans and sorts priced out); MariaDB reads each part of the
    // kind from its own index and sorts only the parts' pages (migration 0022).
    void aPageReadsItsKindInTheListsOrder_data() { addEngineRows(); }
    void aPageReadsItsKindInTheListsOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        if (dbs->dialect() == Dialect::MySql) {
            // Statistics of a table in use (most messages done, a few waiting, some failed
            // ones requeued), under which MariaDB's own choice for the failed messages never
            // requeued is a lookup of all of them rather than a range from the cursor: the
            // page names each part's index.
            QVERIFY(Sql::exec(f.orders->db(),
                              "INSERT INTO callback_messages (callback_id, channel, event_kind,"
                              " raw_body, headers, status, attempts, next_attempt_at, received_at,"
                              " updated_at, requeued_at) SELECT CONCAT('stripe:evt_', seq),"
                              " 'stripe', 'payment_succeeded', '{}', '{}', ELT(1 + seq % 10,"
                              " 'pending', 'failed', 'completed', 'completed', 'completed',"
                              " 'completed', 'completed', 'completed', 'processing', 'failed'), 1,"
                              " seq, seq * 1000, seq * 1000 + 5, IF(seq % 20 = 1, seq * 1000 + 7,"
                              " NULL) FROM seq_1_to_5000")
                        .ok());
            QVERIFY(Sql::exec(f.orders->db(), "ANALYZE TABLE callback_messages").ok());
        }
        const struct {
            StuckKind kind;
            QString index;            // SQLite, PostgreSQL
            QStringList mysqlIndexes; // MariaDB, one per part
            QStringList binds;        // the cut-offs, then the cursor's since (3×) and reference
        } pages[] = {
            {StuckKind::OrderInFlight,
             QStringLiteral("orders_in_flight"),
             {"orders_state_updated", "orders_state_updated"},
             {"1700000000000", "1600000000000", "1600000000000", "1600000000000", "'o-1'"}},
            {StuckKind::PendingMessage,
             QStringLiteral("callback_messages_waiting"),
             {"callback_messages_pending_since", "callback_messages_failed_since",
              "callback_messages_failed_requeued"},
             {"1700000000000", "1700000000000", "1600000000000", "1600000000000", "1600000000000",
              "7"}},
        };
        for (const auto &page : pages) {
            for (bool continued : {false, true}) {
                const StuckQuery::PageStatement statement =
                    StuckQuery::pageStatement(page.kind, dbs->dialect(), continued, 2000);
                QString sql = statement.sql;
                const qsizetype wanted = page.binds.size() - (continued ? 0 : 4);
                QCOMPARE(sql.count(u'?'), wanted * statement.bindRounds);
                for (qsizetype i = 0; i < wanted * statement.bindRounds; ++i)
                    sql.replace(sql.indexOf(u'?'), 1, page.binds.at(i % wanted));
                QString plan;
                if (dbs->dialect() == Dialect::MySql) {
                    QCOMPARE(statement.bindRounds, page.mysqlIndexes.size());
                    auto q = Sql::exec(f.orders->db(), QStringLiteral("EXPLAIN ") + sql);
                    QVERIFY(q.ok());
                    QStringList indexes;
                    while (q->next()) {
                        const QString line =
                            QStringLiteral("%1 %2 %3 %4")
                                .arg(q->value("select_type").toString(),
                                     q->value("type").toString(), q->value("key").toString(),
                                     q->value("Extra").toString());
                        plan += line + u'\n';
                        if (q->value("select_type").toString() == QStringLiteral("UNION RESULT"))
                            continue; // what the parts' pages merge into: at most 2000 each
                        indexes << q->value("key").toString();
                        // Each part a range of its index, in order: no sort of its own.
                        QVERIFY2(q->value("type").toString() == QStringLiteral("range") &&
                                     !line.contains(QStringLiteral("filesort")),
                                 qPrintable(sql + u'\n' + plan));
                    }
                    QCOMPARE(indexes, page.mysqlIndexes);
                    continue;
                }
                QCOMPARE(statement.bindRounds, 1);
                if (dbs->dialect() == Dialect::Sqlite) {
                    auto q = Sql::exec(f.orders->db(), QStringLiteral("EXPLAIN QUERY PLAN ") + sql);
                    QVERIFY(q.ok());
                    while (q->next())
                        plan += q->value(3).toString() + u'\n';
                    QVERIFY2(!plan.contains(QStringLiteral("TEMP B-TREE")), qPrintable(plan));
                    // After a cursor the index is entered at it ("updated_at>?"), not read from
                    // its start with the rows before the cursor filtered out.
                    if (continued)
                        QVERIFY2(plan.contains(QStringLiteral(">?")), qPrintable(plan));
                } else {
                    for (const char *set : {"SET enable_seqscan = off", "SET enable_sort = off"})
                        QVERIFY(Sql::exec(f.orders->db(), QString::fromLatin1(set)).ok());
                    auto q = Sql::exec(f.orders->db(), QStringLiteral("EXPLAIN ") + sql);
                    QVERIFY(q.ok());
                    while (q->next())
                        plan += q->value(0).toString() + u'\n';
                    for (const char *reset : {"RESET enable_seqscan", "RESET enable_sort"})
                        QVERIFY(Sql::exec(f.orders->db(), QString::fromLatin1(reset)).ok());
                    // Priced out, a sort still happens where no index gives the order.
                    QVERIFY2(!plan.contains(QStringLiteral("Sort")), qPrintable(plan));
                    if (continued) {
                        bool entered = false;
                        for (const QString &line : plan.split(u'\n'))
                            entered = entered || (line.contains(QStringLiteral("Index Cond:")) &&
                                                  line.contains(QStringLiteral(">=")));
                        QVERIFY2(entered, qPrintable(plan));
                    }
                }
                QVERIFY2(plan.contains(page.index), qPrintable(sql + u'\n' + plan));
            }
        }
    }

    // The worker's rule for its own settings, for the stuck thresholds: the value stored
    // around the settings service is refused with the sentence that names it, on the list,
    // its counts and the dashboard (which counts with it); the range's ends are taken.
    void badThresholdsAreRefused_data() { addEngineRows(); }
    void badThresholdsAreRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const Order o = f.createOrder(QStringLiteral("o-1"), 2500);
        f.pay(o.orderId, o.version, QStringLiteral("att-1"));
        f.clock.advance(3600 * 1000);
        StuckQuery q(*f.orders, f.clock);
        const DashboardQuery dashboard(*f.orders, f.clock);
        const auto range = DashboardQuery::rangeEndingAt(f.clock.nowMs(), 86400 * 1000);
        for (const char *key : {"stuck.pending_seconds", "stuck.idempotency_pending_seconds"}) {
            for (const char *bad :
                 {"abc", "-60", "0", "5", "9", "604801", "3000000", "10000000000000000", ""}) {
                QVERIFY(setSetting(f, QLatin1String(key), QLatin1String(bad)));
                const QString expected =
                    QStringLiteral("ops setting %1 is not a whole number from 10 to 604800: '%2'")
                        .arg(QLatin1String(key), QLatin1String(bad));
                auto list = q.load({}, amy);
                QVERIFY2(!list.ok(), bad);
                QCOMPARE(list.error().code, ErrorCode::Invalid);
                QCOMPARE(list.error().reason, QStringLiteral("bad_setting"));
                QCOMPARE(list.error().message, expected);
                auto counts = q.counts();
                QVERIFY2(!counts.ok(), bad);
                QCOMPARE(counts.error().message, expected);
                // The dashboard counts with the same query: the refusal, or no counts at all
                // (never counts on a substitute threshold).
                auto d = dashboard.load(range, amy);
                QVERIFY2(d.ok() ? d->stuckByKind.isEmpty()
                                : d.error().reason == QStringLiteral("bad_setting"),
                         bad);
            }
            for (const char *good : {"10", " 10 ", "604800"}) {
                QVERIFY(setSetting(f, QLatin1String(key), QLatin1String(good)));
                auto list = q.load({}, amy);
                QVERIFY2(list.ok(), good);
                auto d = dashboard.load(range, amy);
                QVERIFY(d.ok() && d->stuckByKind.size() == allStuckKinds().size());
            }
            QVERIFY(setSetting(f, QLatin1String(key), QStringLiteral("300")));
        }
        QVERIFY(setSetting(f, QStringLiteral("stuck.pending_seconds"), QStringLiteral("10")));
        auto r = q.load({}, amy);
        QVERIFY(r.ok());
        QCOMPARE(r->pendingThresholdMs, 10 * 1000);
        QCOMPARE(r->counts.value(StuckKind::OrderInFlight), 1);
        // Absent: the documented default.
        QVERIFY(Sql::update(f.orders->db(),
                            "DELETE FROM ops_settings WHERE setting_key = 'stuck.pending_seconds'")
                    .ok());
        QCOMPARE(q.load({}, amy)->pendingThresholdMs, 300 * 1000);
    }

    // A dead letter requeued a month after it arrived fails its first retry: it waits as a
    // failed message, dated from the requeue — not listed until the threshold has passed
    // since then, and then as young as that.
    void aRequeuedMessageFailingAgainIsDatedFromItsRequeue_data() { addEngineRows(); }
    void aRequeuedMessageFailingAgainIsDatedFromItsRequeue()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        for (const auto &[name, role] : QList<QPair<QString, StaffRole>>{
                 {"amy", StaffRole::Agent}, {"fin", StaffRole::Finance}})
            QVERIFY(
                staff.add({name, name, role}, "correct horse battery", Actor::system("test")).ok());
        f.makeDeadLetter("o-gone", "evt_gone");
        const QString cb = QStringLiteral("stripe:evt_gone");
        f.clock.advance(30LL * 86400 * 1000);

        FixService fixes(*f.orders, f.clock);
        FixProposal p;
        p.kind = FixKind::RequeueMessage;
        p.targetId = cb;
        p.reasonCode = QStringLiteral("poison_message");
        p.comment = QStringLiteral("the order exists now");
        p.origin = QStringLiteral("test@localhost");
        auto fix = fixes.propose(p, amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        auto done = fixes.approve(fix->id, fix->changeSha256, "ok", p.origin, fin);
        QVERIFY(done.ok() && done->status == FixStatus::Applied);
        const qint64 requeuedAt = f.clock.nowMs();
        QCOMPARE(f.count("SELECT requeued_at FROM callback_messages WHERE callback_id = ?", {cb}),
                 requeuedAt);

        f.clock.advance(1000);
        f.drain(); // its first retry fails again: the order still does not exist
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id = ? AND"
                         " status = 'failed'",
                         {cb}),
                 1);
        StuckQuery q(*f.orders, f.clock);
        auto pendingOf = [&](const StuckReport &r) {
            QList<StuckRecord> out;
            for (const StuckRecord &s : r.records)
                if (s.kind == StuckKind::PendingMessage && s.callbackId == cb)
                    out << s;
            return out;
        };
        auto young = q.load({}, amy);
        QVERIFY(young.ok());
        QCOMPARE(pendingOf(*young).size(), 0); // a second after its requeue: not stuck yet
        f.clock.advance(301 * 1000);
        auto later = q.load({}, amy);
        QVERIFY(later.ok());
        QCOMPARE(pendingOf(*later).size(), 1);
        QCOMPARE(pendingOf(*later).first().sinceMs, requeuedAt);
        QCOMPARE(pendingOf(*later).first().ageMs, f.clock.nowMs() - requeuedAt);
    }

    // Migration 0019's second step dates the messages requeued before it from their latest
    // applied requeue fix, and only those; run again it changes nothing.
    void migrationBackfillsFromAppliedRequeues_data() { addEngineRows(); }
    void migrationBackfillsFromAppliedRequeues()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        for (const auto &[name, role] : QList<QPair<QString, StaffRole>>{
                 {"amy", StaffRole::Agent}, {"fin", StaffRole::Finance}})
            QVERIFY(
                staff.add({name, name, role}, "correct horse battery", Actor::system("test")).ok());
        f.makeDeadLetter("o-a", "evt_a");
        f.makeDeadLetter("o-b", "evt_b");
        FixService fixes(*f.orders, f.clock);
        FixProposal p;
        p.kind = FixKind::RequeueMessage;
        p.targetId = QStringLiteral("stripe:evt_a");
        p.reasonCode = QStringLiteral("poison_message");
        p.comment = QStringLiteral("retry");
        p.origin = QStringLiteral("test@localhost");
        auto fix = fixes.propose(p, amy);
        QVERIFY(fix.ok());
        QVERIFY(fixes.approve(fix->id, fix->changeSha256, "ok", p.origin, fin).ok());
        const qint64 applied = f.clock.nowMs();
        // As a database upgraded to 0019 finds it: the column there, nothing in it.
        QVERIFY(
            Sql::update(f.orders->db(), "UPDATE callback_messages SET requeued_at = NULL").ok());

        QString path;
        for (const Migration &m : Migrator::available(QStringLiteral("orders"), dbs->dialect()))
            if (m.version == 19)
                path = m.resourcePath;
        QVERIFY(path.endsWith(u"0019_message_requeued_at.sql"));
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QStringList steps = Migrator::splitStatements(QString::fromUtf8(file.readAll()));
        QCOMPARE(steps.size(), 2);
        for (int run = 0; run < 2; ++run) {
            QVERIFY(Sql::exec(f.orders->db(), steps.at(1)).ok());
            QCOMPARE(f.count("SELECT requeued_at FROM callback_messages WHERE callback_id ="
                             " 'stripe:evt_a'"),
                     applied);
            QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE requeued_at IS NULL"
                             " AND callback_id = 'stripe:evt_b'"),
                     1);
        }
    }
};

QTEST_MAIN(TstStuckQueryPaging)
#include "tst_stuck_query_paging.moc"
