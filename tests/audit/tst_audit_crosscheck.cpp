// The seed-002 cross-check between the message table and the audit log, and its own audit
// trail, on every engine.

#include "audit/auditcrosscheck.h"
#include "audit/auditoutbox.h"
#include "audit/auditshipper.h"
#include "audittestutil.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const qint64 kStart = 1'700'000'000'000;

void addMessage(const Connection &orders, const QString &callbackId, const QString &status)
{
    auto r =
        Sql::exec(orders.db(),
                  QStringLiteral("INSERT INTO callback_messages (callback_id, channel, event_kind,"
                                 " raw_body, headers, status, next_attempt_at, received_at,"
                                 " updated_at) VALUES (?, 'stripe', 'payment_succeeded', '{}',"
                                 " '{}', ?, 0, 0, 0)"),
                  {callbackId, status});
    if (!r)
        qFatal("message: %s", qPrintable(r.error().message));
}

void audited(const Connection &orders, const QString &callbackId, const Clock &clock)
{
    AuditEvent e;
    e.actor = QStringLiteral("worker:1");
    e.actorRole = QStringLiteral("system");
    e.action = QStringLiteral("order.transition");
    e.entityKind = QStringLiteral("callback");
    e.entityId = callbackId;
    e.callbackId = callbackId;
    if (!AuditOutbox::record(orders.db(), e, clock))
        qFatal("outbox");
}

QJsonObject recordedRun(const Connection &orders, const QString &eventId)
{
    auto q =
        Sql::exec(orders.db(),
                  QStringLiteral("SELECT action, after_json FROM audit_outbox WHERE event_id = ?"),
                  {eventId});
    if (!q || !q->next())
        return {};
    if (q->value(0).toString() != u"audit.crosscheck")
        return {};
    return QJsonDocument::fromJson(q->value(1).toString().toUtf8()).object();
}

} // namespace

class TstAuditCrossCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mismatchesBecomeAlerts_data() { addEngineRows(); }
    void mismatchesBecomeAlerts()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());

        for (int i = 1; i <= 7; ++i) {
            const QString id = QStringLiteral("stripe:evt_%1").arg(i);
            addMessage(orders, id, QStringLiteral("completed"));
            if (i != 4) // evt_4 completed without any audit row
                audited(orders, id, clock);
        }
        addMessage(orders, QStringLiteral("stripe:evt_pending"), QStringLiteral("pending"));
        audited(orders, QStringLiteral("stripe:evt_ghost"), clock); // no such message
        QVERIFY(AuditShipper(orders, audit, clock).shipAll().ok());
        // Completed, with its audit row still in the outbox: not an alert.
        addMessage(orders, QStringLiteral("stripe:evt_8"), QStringLiteral("completed"));
        audited(orders, QStringLiteral("stripe:evt_8"), clock);

        AuditCrossCheck check(orders, orders, audit, clock);
        check.setBatchSize(3); // exercise the keyset paging on both sides
        auto r = check.run(QStringLiteral("auditor-1"), QStringLiteral("auditor"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QVERIFY(!r->passed());
        QCOMPARE(r->completedMessages, 8);
        QCOMPARE(r->awaitingShipment, 1);
        QCOMPARE(r->auditedCallbacks, 7);
        QCOMPARE(r->alertCount, 2);
        QCOMPARE(r->alerts.size(), 2);
        QCOMPARE(r->alerts[0].kind, CrossCheckAlert::Kind::CompletedWithoutAudit);
        QCOMPARE(r->alerts[0].callbackId, QStringLiteral("stripe:evt_4"));
        QVERIFY(r->alerts[0].message.contains(QStringLiteral("stripe:evt_4")));
        QCOMPARE(r->alerts[1].kind, CrossCheckAlert::Kind::AuditWithoutMessage);
        QCOMPARE(r->alerts[1].callbackId, QStringLiteral("stripe:evt_ghost"));

        // The run is itself audited, failing or not.
        const QJsonObject run = recordedRun(orders, r->eventId);
        QCOMPARE(run.value(QStringLiteral("passed")).toBool(true), false);
        QCOMPARE(run.value(QStringLiteral("alerts")).toInt(), 2);
    }

    void passingRunIsAuditedToo_data() { addEngineRows(); }
    void passingRunIsAuditedToo()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        addMessage(orders, QStringLiteral("kakaopay:T1"), QStringLiteral("completed"));
        audited(orders, QStringLiteral("kakaopay:T1"), clock);
        addMessage(orders, QStringLiteral("stripe:evt_skip"), QStringLiteral("skipped"));
        QVERIFY(AuditShipper(orders, audit, clock).shipAll().ok());

        auto r = AuditCrossCheck(orders, orders, audit, clock)
                     .run(QStringLiteral("auditor-1"), QStringLiteral("auditor"));
        QVERIFY(r.ok());
        QVERIFY2(r->passed(), qPrintable(r->summary()));
        QVERIFY(r->summary().startsWith(QStringLiteral("cross-check passed")));
        QCOMPARE(recordedRun(orders, r->eventId).value(QStringLiteral("passed")).toBool(), true);

        // The record is an ordinary outbox event: it ships into the chain like any other.
        auto shipped = AuditShipper(orders, audit, clock).shipAll();
        QCOMPARE(shipped->shipped, 1);
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action ="
                                                 " 'audit.crosscheck'")),
                 1);
    }

    void unreadableAuditIsRecordedAsFailedRun_data() { addEngineRows(); }
    void unreadableAuditIsRecordedAsFailedRun()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        audit.db().close();
        auto r = AuditCrossCheck(orders, orders, audit, clock)
                     .run(QStringLiteral("auditor-1"), QStringLiteral("auditor"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                                                  " 'audit.crosscheck'")),
                 1);
    }
};

QTEST_GUILESS_MAIN(TstAuditCrossCheck)
#include "tst_audit_crosscheck.moc"
