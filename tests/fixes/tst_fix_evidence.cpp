// What a reviewer reads before approving a fix, on SQLite, PostgreSQL and MariaDB: money in the
// currency's own decimals ("294.88 USD", "35000 JPY"), an order fix's captured money and its
// shortfall against the order's amount with the order's state reason (in the evidence and in
// the change the digest binds), and a change that says what the fix sets — a requeue's
// updated_at "when applied" — apart from the facts that are only context (fixchange.h; the
// console's table of it: tst_fix_change_model).

#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixchange.h"
#include "fixes/fixservice.h"
#include "fixes/fixtargets.h"
#include "fixtestsupport.h"

#include <QJsonDocument>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

namespace {

QString evidenceOf(EngineFixture &f, const FixRequest &fix)
{
    auto e = FixTargets(*f.orders, f.clock).evidence(fix, fin);
    if (!e)
        qFatal("evidence: %s", qPrintable(e.error().message));
    return e->join(u'\n');
}

} // namespace

class TstFixEvidence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void confirmingAnUnderpaidOrderShowsWhatWasCaptured_data() { addEngineRows(); }
    void confirmingAnUnderpaidOrderShowsWhatWasCaptured()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        const Order o = makeUnconfirmed(f, "o-usd", 29488, 26540, "USD");
        QCOMPARE(o.state, OrderState::PaidUnconfirmed);
        auto fix =
            desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-usd", "customer says"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));

        const QString e = evidenceOf(f, *fix);
        QVERIFY2(
            e.contains(QStringLiteral("order o-usd: paid_unconfirmed at version %1, 294.88 USD")
                           .arg(o.version)),
            qPrintable(e));
        QVERIFY2(!e.contains("29488"), qPrintable(e)); // no bare minor units
        QVERIFY2(e.contains("  payment stripe pi_o-usd: 265.40 USD, captured, captured "),
                 qPrintable(e));
        QVERIFY2(e.contains("  captured 265.40 USD in total: 29.48 USD less than the order's "
                            "294.88 USD"),
                 qPrintable(e));
        QVERIFY2(e.contains("  state reason: confirmation refused: "), qPrintable(e));

        // The change the reviewer approves (its digest) carries the same facts as context.
        const QJsonObject context = fix->change.value("context").toObject();
        QCOMPARE(context.value("captured").toString(), QStringLiteral("265.40 USD"));
        QCOMPARE(context.value("shortfall").toString(), QStringLiteral("29.48 USD"));
        QVERIFY(context.value("state_reason").toString().startsWith("confirmation refused: "));
        QCOMPARE(desk.fixes.get(fix->id)->change, fix->change);
        // Context is not a change: approving still confirms, bound to the digest.
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "checked", kOrigin, fin).ok());
        QCOMPARE(f.order("o-usd").state, OrderState::Paid);
    }

    void zeroDecimalCurrencyShowsWholeUnits_data() { addEngineRows(); }
    void zeroDecimalCurrencyShowsWholeUnits()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        makeUnconfirmed(f, "o-jpy", 35000, 36000, "JPY");
        auto fix = desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-jpy"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        const QString e = evidenceOf(f, *fix);
        QVERIFY2(e.contains(", 35000 JPY\n"), qPrintable(e));
        QVERIFY2(e.contains("  captured 36000 JPY in total: 1000 JPY more than the order's "
                            "35000 JPY"),
                 qPrintable(e));
        QVERIFY2(!e.contains("350.00"), qPrintable(e));
        QCOMPARE(fix->change.value("context").toObject().value("excess").toString(),
                 QStringLiteral("1000 JPY"));
    }

    // A requeue sets updated_at to the time it is applied; its channel and amount are context.
    void aRequeueChangeSaysWhatItSets()
    {
        const QJsonObject stored = QJsonDocument::fromJson(R"({
            "after": {"attempts": "0", "status": "pending"},
            "amount_minor": "48036", "currency": "USD",
            "before": {"attempts": "12", "status": "dead", "updated_at": "1793507750186"},
            "detail": {"channel": "stripe"}, "kind": "requeue_message",
            "target": "message:stripe:evt_1"})")
                                       .object(); // as stored before the fix said so itself
        QHash<QString, FixChangeLine> lines;
        for (const FixChangeLine &l : fixChangeLines(stored))
            lines.insert(l.field, l);
        QCOMPARE(lines.value("updated_at").after, FixChange::WhenApplied);
        QCOMPARE(lines.value("updated_at").kind, FixChangeLine::Kind::Change);
        QCOMPARE(lines.value("channel").kind, FixChangeLine::Kind::Context);
        QCOMPARE(lines.value("channel").before, QStringLiteral("stripe"));
        QCOMPARE(lines.value("amount").kind, FixChangeLine::Kind::Context);
        QCOMPARE(lines.value("amount").after, QStringLiteral("480.36 USD"));
        QCOMPARE(lines.value("status").after, QStringLiteral("pending"));
    }

    // A new requeue proposal records updated_at "when applied" itself.
    void aRequeueProposalRecordsWhenApplied_data() { addEngineRows(); }
    void aRequeueProposalRecordsWhenApplied()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-late", "evt_late");
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_late"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        QCOMPARE(fix->change.value("after").toObject().value("updated_at").toString(),
                 FixChange::WhenApplied);
        const QString e = evidenceOf(f, *fix);
        QVERIFY2(e.contains("message stripe:evt_late"), qPrintable(e));
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "go", kOrigin, fin).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'pending'"), 1);
    }
};

QTEST_GUILESS_MAIN(TstFixEvidence)
#include "tst_fix_evidence.moc"
