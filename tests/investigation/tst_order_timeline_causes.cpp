// An order's timeline at the instant a fix is applied reads in the order things happened: the
// approval, the state change it caused, the money that transaction booked, then "applied"
// (review rev-orderpage, finding 3: the state change came before the approval that caused it).
// A refund owed because of a rollback after the capture names the rollback's own cause — the
// request or the fix that rolled the order back — never a callback that does not exist (finding
// 4), on the page and in the dossier. Money a fix booked (keyed fix:N) names the fix.
// On every engine where the engine runs; the pure cases need no database.

#include "../fixes/fixtestsupport.h"
#include "investigation/dossier.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

namespace {

const Actor kReader{QStringLiteral("amy"), QStringLiteral("agent")};

// The entries at one instant, each as "kind:what": fix:approved, transition:v4, ledger:credit...
QStringList atInstant(const QList<TimelineEntry> &t, qint64 at)
{
    QStringList out;
    for (const TimelineEntry &e : t) {
        if (e.at != at)
            continue;
        switch (e.kind) {
        case TimelineKind::Fix:
            out << QStringLiteral("fix:") +
                       e.detail.section(QLatin1Char(' '), 1, 1).remove(QLatin1Char(':'));
            break;
        case TimelineKind::Transition:
            out << QStringLiteral("transition:v%1").arg(e.version);
            break;
        case TimelineKind::Ledger: out << QStringLiteral("ledger:") + e.detail; break;
        case TimelineKind::RefundDue: out << QStringLiteral("refund due"); break;
        case TimelineKind::Audit: out << QStringLiteral("audit"); break;
        default: out << QStringLiteral("other:%1").arg(int(e.kind)); break;
        }
    }
    return out;
}

const TimelineEntry *firstOf(const QList<TimelineEntry> &t, TimelineKind kind)
{
    for (const TimelineEntry &e : t)
        if (e.kind == kind)
            return &e;
    return nullptr;
}

qsizetype versionAt(const QList<TimelineEntry> &t, qint64 version)
{
    for (qsizetype i = 0; i < t.size(); ++i)
        if (t[i].kind == TimelineKind::Transition && t[i].version == version)
            return i;
    return -1;
}

// The console's Cause column for row `row`, as the page shows it.
QString causeShown(const QList<TimelineEntry> &t, qsizetype row)
{
    TimelineModel model;
    model.setRows(t);
    return model.index(int(row), TimelineModel::Cause).data().toString();
}

qsizetype rowOf(const QList<TimelineEntry> &t, TimelineKind kind)
{
    const TimelineEntry *e = firstOf(t, kind);
    return e ? e - t.constData() : -1;
}

// An order captured short of its amount: paid_unconfirmed at v3, waiting for a person.
void captureShort(EngineFixture &f, const QString &id, qint64 amount, qint64 captured,
                  const QString &currency)
{
    f.createOrder(id, amount, currency);
    f.pay(id, 1, QStringLiteral("att-") + id);
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params(id, QStringLiteral("att-") + id, captured, currency, QStringLiteral("evt_") + id,
                 QStringLiteral("pi_") + id)));
    QCOMPARE(f.drain().completed, 1);
    QCOMPARE(f.order(id).state, OrderState::PaidUnconfirmed);
}

} // namespace

class TstOrderTimelineCauses : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The reviewer's case: XOF, amount mismatch, confirm_payment proposed by an agent and
    // approved by finance; the approval, v4, the credit and "applied" share one millisecond.
    void aConfirmationReadsApprovedThenPaidThenMoneyThenApplied_data() { addEngineRows(); }
    void aConfirmationReadsApprovedThenPaidThenMoneyThenApplied()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        captureShort(f, QStringLiteral("o-xof"), 5000, 4900, QStringLiteral("XOF"));
        f.clock.advance(60 * 1000);
        auto fix = desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-xof", "verified"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        f.clock.advance(60 * 1000);
        const qint64 decided = f.clock.nowMs();
        auto applied = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin);
        QVERIFY2(applied.ok(), qPrintable(applied.ok() ? QString() : applied.error().message));
        QCOMPARE(applied->status, FixStatus::Applied);

        auto picture = OrderPictureQuery(*f.orders).load("o-xof", kReader);
        QVERIFY2(picture.ok(), qPrintable(picture.ok() ? QString() : picture.error().message));
        const QList<TimelineEntry> &t = picture->timeline;
        QCOMPARE(atInstant(t, decided), (QStringList{"fix:approved", "transition:v4",
                                                     "ledger:payment_credit", "fix:applied"}));
        // The state change is the fix's; the credit is the capture's money.
        QCOMPARE(t[versionAt(t, 4)].causeId, QStringLiteral("fix:%1").arg(fix->id));
        QCOMPARE(firstOf(t, TimelineKind::Ledger)->causeId, QStringLiteral("stripe:evt_o-xof"));

        // An auditor's timeline adds the audit rows, each after all the fix did.
        auto audited = OrderPictureQuery(*f.orders).load("o-xof", aud);
        QVERIFY(audited.ok());
        const QStringList withAudit = atInstant(audited->timeline, decided);
        QVERIFY2(withAudit.mid(0, 4) == atInstant(t, decided), qPrintable(withAudit.join(", ")));
        QVERIFY2(withAudit.mid(4).count(QStringLiteral("audit")) == withAudit.size() - 4,
                 qPrintable(withAudit.join(", ")));

        // The dossier reads the same timeline: approved, then the credit, then applied.
        const QString dossier = Dossier::html(*picture, kReader.id, f.clock.nowMs());
        const qsizetype approvedAt = dossier.indexOf(QStringLiteral("Confirm payment approved"));
        const qsizetype creditAt = dossier.indexOf(QStringLiteral("Ledger: payment credit"));
        const qsizetype appliedAt = dossier.indexOf(QStringLiteral("Confirm payment applied"));
        QVERIFY2(
            approvedAt >= 0 && approvedAt < creditAt && creditAt < appliedAt,
            qPrintable(QStringLiteral("%1 %2 %3").arg(approvedAt).arg(creditAt).arg(appliedAt)));
    }

    // The checkout rolls an underpaid order back: the refund owed names the request that rolled
    // it back (as the v4 row does) and follows that row, on the page and in the dossier.
    void aRollbackRefundNamesTheRequestThatRolledBack_data() { addEngineRows(); }
    void aRollbackRefundNamesTheRequestThatRolledBack()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        captureShort(f, QStringLiteral("o-rb"), 1999, 1899, QStringLiteral("USD"));
        f.clock.advance(60 * 1000);
        const qint64 rolledBack = f.clock.nowMs();
        QVERIFY(f.service->rollback("o-rb", 3, CauseKind::Request, "rb-7", Actor::platform(),
                                    "amount mismatch; new attempt"));

        auto picture = OrderPictureQuery(*f.orders).load("o-rb", kReader);
        QVERIFY(picture.ok());
        QCOMPARE(picture->refunds.size(), 1);
        QCOMPARE(picture->refunds[0].callbackId, QStringLiteral("rollback:o-rb:v4"));
        const QList<TimelineEntry> &t = picture->timeline;
        const TimelineEntry *due = firstOf(t, TimelineKind::RefundDue);
        QVERIFY(due);
        QCOMPARE(due->causeKind, QStringLiteral("request"));
        QCOMPARE(due->causeId, QStringLiteral("rb-7"));
        QCOMPARE(atInstant(t, rolledBack), (QStringList{"transition:v4", "refund due"}));
        QCOMPARE(causeShown(t, rowOf(t, TimelineKind::RefundDue)), QStringLiteral("request rb-7"));
        QCOMPARE(causeShown(t, versionAt(t, 4)), QStringLiteral("request rb-7")); // as the rollback

        const QString dossier = Dossier::html(*picture, kReader.id, f.clock.nowMs());
        QVERIFY(dossier.contains(QStringLiteral("Refund due")));
        QVERIFY2(!dossier.contains(QStringLiteral("callback rollback:")), "no such callback");
    }

    // A rollback_payment fix: approved, v4 (back to pending payment), the refund it owes — by
    // the fix — then applied.
    void aRollbackByAFixNamesTheFix_data() { addEngineRows(); }
    void aRollbackByAFixNamesTheFix()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        captureShort(f, QStringLiteral("o-rf"), 2500, 2400, QStringLiteral("EUR"));
        f.clock.advance(60 * 1000);
        auto fix = desk.fixes.propose(proposal(FixKind::RollbackPayment, "o-rf", "refund it"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        f.clock.advance(60 * 1000);
        const qint64 decided = f.clock.nowMs();
        auto applied = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin);
        QVERIFY2(applied.ok(), qPrintable(applied.ok() ? QString() : applied.error().message));

        auto picture = OrderPictureQuery(*f.orders).load("o-rf", kReader);
        QVERIFY(picture.ok());
        const QList<TimelineEntry> &t = picture->timeline;
        QCOMPARE(atInstant(t, decided),
                 (QStringList{"fix:approved", "transition:v4", "refund due", "fix:applied"}));
        const QString byFix = QStringLiteral("fix:%1").arg(fix->id);
        QCOMPARE(firstOf(t, TimelineKind::RefundDue)->causeKind, QStringLiteral("fix"));
        QCOMPARE(firstOf(t, TimelineKind::RefundDue)->causeId, byFix);
        QCOMPARE(causeShown(t, rowOf(t, TimelineKind::RefundDue)), QStringLiteral("fix ") + byFix);
    }

    // Money keyed fix:N without a callback (a discrepancy's fix) names the fix and sits between
    // its approval and "applied"; reconciliation's fee adjustment names no callback.
    void moneyWithoutACallbackNamesNoCallback()
    {
        OrderPicture p;
        p.order.orderId = QStringLiteral("o-w");
        FixRequest fix;
        fix.id = 7;
        fix.kind = FixKind::ConfirmPayment; // any kind: the steps are what is ordered
        fix.proposedAt = 100;
        fix.status = FixStatus::Applied;
        fix.appliedAt = 500;
        FixDecision d;
        d.decision = QStringLiteral("approve");
        d.decidedAt = 500;
        fix.decisions << d;
        p.fixes << fix;
        LedgerRow writeOff;
        writeOff.id = 3;
        writeOff.entryKey = QStringLiteral("fix:7");
        writeOff.kind = QStringLiteral("write_off");
        writeOff.createdAt = 500;
        LedgerRow fee;
        fee.id = 4;
        fee.entryKey = QStringLiteral("fee:stripe:pi_w");
        fee.kind = QStringLiteral("fee_adjustment");
        fee.createdAt = 900;
        p.ledger << fee << writeOff;
        const QList<TimelineEntry> t = buildTimeline(p);
        QCOMPARE(atInstant(t, 500),
                 (QStringList{"fix:approved", "ledger:write_off", "fix:applied"}));
        for (const TimelineEntry &e : t) {
            if (e.kind != TimelineKind::Ledger)
                continue;
            QVERIFY(e.causeKind != u"callback");
            QCOMPARE(e.causeId, e.rowId == 3 ? QStringLiteral("fix:7") : QString());
        }
    }
};

QTEST_MAIN(TstOrderTimelineCauses)
#include "tst_order_timeline_causes.moc"
