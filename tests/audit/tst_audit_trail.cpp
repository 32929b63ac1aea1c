// The audit trail read side (DESIGN.md §5, §6) on every engine: filtered keyset paging,
// rights refused and audited, verification naming the first bad row with seal coverage, the
// count of events still waiting in the outbox.
// The exports are in tst_audit_export.

#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditsealer.h"
#include "audit/audittrailquery.h"
#include "audittestutil.h"
#include "audittrailfixture.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QList<qint64> seqs(const QList<AuditLogRow> &rows)
{
    QList<qint64> out;
    for (const AuditLogRow &r : rows)
        out << r.seq;
    return out;
}

QList<qint64> allPages(const AuditTrailQuery &q, const AuditFilter &f, int limit)
{
    QList<qint64> out;
    qint64 after = 0;
    for (int guard = 0; guard < 100; ++guard) {
        auto page = q.page(f, after, limit, kAuditor);
        if (!page)
            qFatal("page: %s", qPrintable(page.error().message));
        out += seqs(page->rows);
        after = page->lastSeq;
        if (page->atEnd)
            break;
    }
    return out;
}

} // namespace

class TstAuditTrail : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void filtersPageInSeqOrder_data() { addEngineRows(); }
    void filtersPageInSeqOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);

        QCOMPARE(allPages(q, {}, 7), allPages(q, {}, 1000));
        QCOMPARE(allPages(q, {}, 7).size(), 30);
        QCOMPARE(allPages(q, {}, 7).first(), 1);
        QCOMPARE(allPages(q, {}, 7).last(), 30);

        AuditFilter byActor;
        byActor.actor = QStringLiteral("fin");
        QCOMPARE(allPages(q, byActor, 3), (QList<qint64>{1, 4, 7, 10, 13, 16, 19, 22, 25, 28}));
        QCOMPARE(*q.count(byActor, kAuditor), 10);

        AuditFilter byPrefix;
        byPrefix.action = QStringLiteral("ledger.*");
        QCOMPARE(allPages(q, byPrefix, 4).size(), 15);
        byPrefix.action = QStringLiteral("order.transition");
        QCOMPARE(allPages(q, byPrefix, 4).first(), 1);
        byPrefix.action = QStringLiteral("order");
        QVERIFY(allPages(q, byPrefix, 4).isEmpty()); // exact, not a prefix

        AuditFilter byOrderAndCallback;
        byOrderAndCallback.orderId = QStringLiteral("o-0");
        QCOMPARE(allPages(q, byOrderAndCallback, 2), (QList<qint64>{5, 10, 15, 20, 25, 30}));
        byOrderAndCallback.callbackId = QStringLiteral("cb-15");
        QCOMPARE(allPages(q, byOrderAndCallback, 2), QList<qint64>{15});

        // Time: row i occurred at kStart + i s; [from, to) is half open.
        AuditFilter byTime;
        byTime.fromMs = kStart + 10'000;
        byTime.toMs = kStart + 13'000;
        QCOMPARE(allPages(q, byTime, 2), (QList<qint64>{10, 11, 12}));

        AuditFilter byEntity;
        byEntity.entityKind = QStringLiteral("order");
        byEntity.entityId = QStringLiteral("@SUM(A1:A9)");
        QCOMPARE(allPages(q, byEntity, 2), QList<qint64>{7});

        AuditFilter bad;
        bad.fromMs = kStart + 5;
        bad.toMs = kStart;
        auto refused = q.page(bad, 0, 10, kAuditor);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Invalid);
        bad = {};
        bad.action = QStringLiteral("or*der");
        QVERIFY(!q.page(bad, 0, 10, kAuditor).ok());

        auto head = q.head(kFinance);
        QVERIFY(head.ok());
        QCOMPARE(head->seq, 30);
        QVERIFY(!head->seal);
    }

    void rightsAreRefusedAndAudited_data() { addEngineRows(); }
    void rightsAreRefusedAndAudited()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);
        AuditExporter exporter(audit, orders, clock);
        const QString out = QDir(dbs->tempPath()).filePath(QStringLiteral("refused.csv"));
        const qint64 before =
            scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox"));

        for (const Actor &who : {kAgent, kAdmin}) {
            auto page = q.page({}, 0, 10, who);
            QVERIFY(!page.ok());
            QCOMPARE(page.error().code, ErrorCode::Forbidden);
            AuditCsvWriter csv;
            auto exported = exporter.run({}, out, csv, who);
            QVERIFY(!exported.ok());
            QCOMPARE(exported.error().code, ErrorCode::Forbidden);
            QVERIFY(!QFile::exists(out));
            auto verified = q.verify(nullptr, {}, who);
            QVERIFY(!verified.ok());
            QCOMPARE(verified.error().code, ErrorCode::Forbidden);
        }
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox")),
                 before + 6);
        QCOMPARE(
            scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                             " 'audit.access_refused' AND actor = 'bob' AND"
                                             " actor_role = 'agent' AND entity_id = 'export'")),
            1);
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                                  " 'audit.access_refused' AND actor = 'root'")),
                 3);
        // Finance and auditor read.
        QVERIFY(q.page({}, 0, 10, kFinance).ok());
        QVERIFY(q.page({}, 0, 10, kAuditor).ok());
    }

    // Review finding 3: rights are those of the account as it is now, not of the role it
    // signed in with. An auditor disabled, or demoted, while signed in is refused the next
    // read, export, verification and export check, each refusal audited with its cause.
    void rightsFollowTheAccountAsItIsNow_data() { addEngineRows(); }
    void rightsFollowTheAccountAsItIsNow()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);
        AuditExporter exporter(audit, orders, clock);
        const QString out = QDir(dbs->tempPath()).filePath(QStringLiteral("alice.csv"));
        AuditCsvWriter csv;
        auto made = exporter.run({}, out, csv, kAuditor);
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
        QVERIFY(q.count({}, kAuditor).ok());
        auto refusals = [&](const char *because) {
            return scalarInt(orders,
                             QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                            " 'audit.access_refused' AND actor = 'alice' AND"
                                            " after_json LIKE '%\"refused_because\":\"%1\"%'")
                                 .arg(QString::fromLatin1(because)));
        };

        for (const auto &[change, because] :
             {std::pair{"UPDATE staff SET disabled = 1 WHERE username = 'alice'", "staff_disabled"},
              std::pair{"UPDATE staff SET disabled = 0, role = 'agent' WHERE username = 'alice'",
                        "role_changed"}}) {
            QVERIFY(Sql::exec(orders.db(), QString::fromLatin1(change)).ok());
            auto counted = q.count({}, kAuditor);
            QVERIFY(!counted.ok());
            QCOMPARE(counted.error().code, ErrorCode::Forbidden);
            QCOMPARE(counted.error().reason, QString::fromLatin1(because));
            QCOMPARE(q.page({}, 0, 10, kAuditor).error().code, ErrorCode::Forbidden);
            QCOMPARE(q.verify(nullptr, {}, kAuditor).error().code, ErrorCode::Forbidden);
            const QString again = QDir(dbs->tempPath()).filePath(QStringLiteral("again.csv"));
            auto exported = exporter.run({}, again, csv, kAuditor);
            QVERIFY(!exported.ok());
            QCOMPARE(exported.error().code, ErrorCode::Forbidden);
            QVERIFY(!QFile::exists(again));
            auto checked = exporter.verify(made->manifestPath, kAuditor);
            QVERIFY(!checked.ok());
            QCOMPARE(checked.error().code, ErrorCode::Forbidden);
            QCOMPARE(refusals(because), 5);
        }
        // Restored, the account reads again.
        QVERIFY(Sql::exec(orders.db(), "UPDATE staff SET role = 'auditor' WHERE username = 'alice'")
                    .ok());
        QVERIFY(q.count({}, kAuditor).ok());
    }

    // Events written to the outbox but not shipped are not in the trail: the service counts
    // them (and the oldest one's time) for finance and auditors, verify names them, and the
    // count is 0 once they are shipped.
    void unshippedEventsAreCounted_data() { addEngineRows(); }
    void unshippedEventsAreCounted()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);
        auto none = q.unshipped(kAuditor);
        QVERIFY2(none.ok(), qPrintable(none.ok() ? QString() : none.error().message));
        QCOMPARE(none->count, 0);
        QCOMPARE(none->oldestOccurredAt, 0);
        auto verifiedEmpty = q.verify(nullptr, {}, kAuditor);
        QVERIFY(verifiedEmpty.ok());
        QVERIFY2(!verifiedEmpty->summary().contains(QStringLiteral("not yet shipped")),
                 qPrintable(verifiedEmpty->summary()));

        const qint64 firstAt = clock.nowMs() + 1000; // record() advances first
        for (int i = 0; i < 3; ++i) {
            AuditEvent e;
            e.actor = QStringLiteral("fin");
            e.actorRole = QStringLiteral("finance");
            e.action = QStringLiteral("fix.proposed");
            e.entityKind = QStringLiteral("fix_request");
            e.entityId = QString::number(i + 1);
            record(orders, clock, e);
        }
        for (const Actor &who : {kAuditor, kFinance}) {
            auto waiting = q.unshipped(who);
            QVERIFY(waiting.ok());
            QCOMPARE(waiting->count, 3);
            QCOMPARE(waiting->oldestOccurredAt, firstAt);
        }
        // The trail itself still has only the shipped rows.
        QCOMPARE(*q.count({}, kAuditor), 30);
        auto verified = q.verify(nullptr, {}, kAuditor);
        QVERIFY(verified.ok() && verified->ok());
        QCOMPARE(verified->unshipped.count, 3);
        QVERIFY2(verified->summary().endsWith(
                     QStringLiteral("; 3 audited event(s) not yet shipped to the audit database"
                                    " (oldest %1): run `oncepay audit ship`")
                         .arg(AuditFilter::formatTime(firstAt))),
                 qPrintable(verified->summary()));

        // Only finance and auditors may ask; a refusal is itself an outbox row.
        auto refused = q.unshipped(kAgent);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Forbidden);
        QCOMPARE(q.unshipped(kAuditor)->count, 4);

        auto shipped = AuditShipper(orders, audit, clock).shipAll();
        QVERIFY(shipped.ok());
        QCOMPARE(shipped->shipped, 4);
        auto after = q.unshipped(kAuditor);
        QVERIFY(after.ok());
        QCOMPARE(after->count, 0);
        QCOMPARE(after->oldestOccurredAt, 0);
        QCOMPARE(*q.count({}, kAuditor), 34);
    }

    void verifyNamesTheFirstBadRow_data() { addEngineRows(); }
    void verifyNamesTheFirstBadRow()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);
        const SealKey key = SealKey::generate();
        const SealPublicKey pub = key.publicKey();

        auto clean = q.verify(&pub, {}, kAuditor, 4);
        QVERIFY(clean.ok());
        QVERIFY2(clean->ok(), qPrintable(clean->summary()));
        QCOMPARE(clean->headSeq, 30);
        QCOMPARE(clean->sealedSeq, 0);
        QCOMPARE(clean->rowsAfterSeal(), 30);

        // Seal coverage: sealed at 30, then 5 more rows.
        QVERIFY(AuditSealer(audit, key, clock).seal(QStringLiteral("alice")).ok());
        AuditEvent extra;
        extra.actor = QStringLiteral("gateway");
        extra.actorRole = QStringLiteral("system");
        extra.action = QStringLiteral("callback.ingested");
        extra.entityKind = QStringLiteral("callback");
        extra.entityId = QStringLiteral("cb-x");
        for (int i = 0; i < 5; ++i)
            record(orders, clock, extra);
        QVERIFY(AuditShipper(orders, audit, clock).shipAll().ok());
        auto covered = q.verify(&pub, {}, kAuditor, 4);
        QVERIFY(covered.ok() && covered->ok());
        QCOMPARE(covered->sealedSeq, 30);
        QCOMPARE(covered->rowsAfterSeal(), 5);
        QVERIFY2(covered->summary().contains(QStringLiteral("sealed up to seq 30, 5 row(s) after")),
                 qPrintable(covered->summary()));

        // Progress reaches the total; returning false cancels.
        QList<qint64> progress;
        auto watched = q.verify(
            &pub,
            [&](qint64 done, qint64 total) {
                progress << done;
                return total == 35;
            },
            kAuditor, 10);
        QVERIFY(watched.ok() && watched->ok());
        QCOMPARE(progress.last(), 35);
        auto cancelled = q.verify(
            &pub, [](qint64, qint64) { return false; }, kAuditor, 10);
        QVERIFY(cancelled.ok());
        QVERIFY(cancelled->cancelled);
        QVERIFY(!cancelled->ok());
        QCOMPARE(cancelled->rowsChecked, 10);

        // Altered: the first bad row is named even when a later one is bad too.
        QVERIFY(tamper(audit, {QStringLiteral("UPDATE audit_log SET reason = 'edited' WHERE seq"
                                              " IN (12, 20)")})
                    .ok());
        auto altered = q.verify(&pub, {}, kAuditor, 4);
        QVERIFY(altered.ok());
        QVERIFY(altered->problem);
        QCOMPARE(altered->problem->kind, AuditProblem::Kind::Altered);
        QCOMPARE(altered->problem->seq, 12);
        QVERIFY(altered->problem->message.contains(QStringLiteral("seq 12")));
    }

    void verifyFindsRemovedAndReordered_data() { addEngineRows(); }
    void verifyFindsRemovedAndReordered()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        AuditTrailQuery q(audit, orders, clock);

        QVERIFY(swapRows(audit, 8, 9).ok());
        auto reordered = q.verify(nullptr, {}, kFinance, 4);
        QVERIFY(reordered.ok() && reordered->problem);
        QCOMPARE(reordered->problem->kind, AuditProblem::Kind::Relinked);
        QCOMPARE(reordered->problem->seq, 8);
        QVERIFY(swapRows(audit, 8, 9).ok());
        QVERIFY(q.verify(nullptr, {}, kFinance, 4)->ok());

        QVERIFY(tamper(audit, {QStringLiteral("DELETE FROM audit_log WHERE seq = 17")}).ok());
        auto removed = q.verify(nullptr, {}, kFinance, 4);
        QVERIFY(removed.ok() && removed->problem);
        QCOMPARE(removed->problem->kind, AuditProblem::Kind::Missing);
        QCOMPARE(removed->problem->seq, 17);
        QCOMPARE(removed->problem->foundSeq, 18);
    }
};

QTEST_GUILESS_MAIN(TstAuditTrail)
#include "tst_audit_trail.moc"
