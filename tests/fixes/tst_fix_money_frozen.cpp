// A decided fix's money is frozen by the database too (migration 0014), on SQLite, PostgreSQL
// and MariaDB: once a fix has left 'open' — applied or rejected by the engine, approved or
// failed as the schema allows — a person with database access can change neither its amount nor
// its currency, nor reopen it to change them; the engine's own path (propose, approve and
// apply; reject) still works; an open proposal whose columns were changed by hand is not
// approved; and no fix is inserted decided or needing no approval (migration 0015).

#include "../reconciliation/reconcilescenario.h"
#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QJsonObject>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;
using namespace OncePay::Test::Reconcile;

namespace {

QString why(const Result<FixRequest> &r)
{
    return r.ok() ? QStringLiteral("(accepted)") : r.error().message;
}

// Each change a person might try on a decided fix's money; every one must be refused by the
// database with its rule's words, and leave the row as it was.
void moneyRefused(EngineFixture &f, qint64 fixId, qint64 amount, const QString &currency)
{
    const QList<QPair<const char *, QVariantList>> tries{
        {"UPDATE fix_requests SET amount_minor = ? WHERE id = ?", {amount + 1, fixId}},
        {"UPDATE fix_requests SET amount_minor = NULL WHERE id = ?", {fixId}},
        {"UPDATE fix_requests SET currency = ? WHERE id = ?",
         {currency == u"EUR" ? QStringLiteral("USD") : QStringLiteral("EUR"), fixId}},
        {"UPDATE fix_requests SET currency = NULL WHERE id = ?", {fixId}},
        // Reopened first, to change the money while 'open', then decided again.
        {"UPDATE fix_requests SET status = 'open' WHERE id = ?", {fixId}},
    };
    for (const auto &[sql, binds] : tries) {
        auto r = Sql::exec(f.orders->db(), QString::fromLatin1(sql), binds);
        QVERIFY2(!r.ok(), sql);
        QCOMPARE(r.error().code, ErrorCode::Forbidden);
        QVERIFY2(r.error().message.contains(u"amount and currency are frozen"),
                 qPrintable(r.error().message));
    }
    QCOMPARE(f.count("SELECT amount_minor FROM fix_requests WHERE id = ?", {fixId}), amount);
    QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND currency = ?",
                     {fixId, currency}),
             1);
    QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND status = 'open'", {fixId}),
             0);
}

} // namespace

class TstFixMoneyFrozen : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Two fee mismatches of 1.30 USD found by a real reconciliation run: one fix applied, one
    // rejected, through the engine; then the database refuses changes of their money.
    void anAppliedOrRejectedFixsMoneyIsFrozen_data() { addEngineRows(); }
    void anAppliedOrRejectedFixsMoneyIsFrozen()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Scenario s(f);
        s.importFees();
        s.paid("o-fee1", 10000, "pi_fee1"); // 2.9 % + 0.30: a fee of 3.20 USD
        s.paid("o-fee2", 10000, "pi_fee2");
        s.importStatement(
            {line("pi_fee1", 10000, 450, kT0 + kDay), line("pi_fee2", 10000, 450, kT0 + kDay)},
            "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        QList<qint64> fees;
        auto q = Sql::exec(f.orders->db(), "SELECT id FROM discrepancies"
                                           " WHERE kind = 'fee_mismatch' ORDER BY id");
        QVERIFY(q.ok());
        while (q->next())
            fees << q->value(0).toLongLong();
        QCOMPARE(fees.size(), 2);

        FixProposal p = proposal(FixKind::AdjustFee, QString::number(fees[0]), "per statement");
        p.reasonCode = QStringLiteral("settlement_correction");
        auto applied = desk.fixes.propose(p, fay);
        QVERIFY2(applied.ok(), qPrintable(why(applied)));
        QCOMPARE(*applied->amountMinor, -130);
        auto done = desk.fixes.approve(applied->id, applied->changeSha256, "", kOrigin, fin);
        QVERIFY2(done.ok(), qPrintable(why(done)));
        QCOMPARE(done->status, FixStatus::Applied);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries"
                         " WHERE kind = 'fee_adjustment'"),
                 -130);

        p.targetId = QString::number(fees[1]);
        auto rejected = desk.fixes.propose(p, fay);
        QVERIFY2(rejected.ok(), qPrintable(why(rejected)));
        auto no = desk.fixes.reject(rejected->id, "wrong_amount", "not this one", kOrigin, fin);
        QVERIFY2(no.ok(), qPrintable(why(no)));
        QCOMPARE(no->status, FixStatus::Rejected);

        moneyRefused(f, applied->id, -130, "USD");
        moneyRefused(f, rejected->id, -130, "USD");
        // What was booked and what the fix says still agree.
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries"
                         " WHERE kind = 'fee_adjustment'"),
                 -130);
        QCOMPARE(desk.fixes.get(applied->id)->status, FixStatus::Applied);
        QCOMPARE(*desk.fixes.get(applied->id)->amountMinor, -130);
        // The rest of a decided row is not frozen by this rule: a comment may still be mended.
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE fix_requests SET comment = 'mended' WHERE id = ?",
                          {rejected->id})
                    .ok());
    }

    // An approved fix (all its approvals given, not applied yet) and a failed one, as the
    // schema allows them, are frozen alike; an open proposal's columns are not this rule's
    // (what is booked is what its digest covers).
    void anApprovedOrFailedFixsMoneyIsFrozen_data() { addEngineRows(); }
    void anApprovedOrFailedFixsMoneyIsFrozen()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        qint64 n = 0;
        const auto insert = [&](const QString &status) -> qint64 {
            const QJsonObject change{{"amount_minor", "-2500"}, {"currency", "EUR"}};
            auto r = Sql::exec(
                f.orders->db(),
                "INSERT INTO fix_requests (kind, target_kind, target_id, change_json,"
                " change_sha256, amount_minor, currency, reason_code, comment, proposed_by,"
                " proposer_role, proposed_from, proposed_at, approvals_needed, status)"
                " VALUES ('write_off', 'discrepancy', ?, ?, ?, -2500, 'EUR',"
                " 'settlement_correction', 'test', 'fay', 'finance', 'test', ?, 1, ?)",
                {QString::number(++n), AuditOutbox::toJson(change), FixService::digest(change),
                 f.clock.nowMs(), status});
            if (!r)
                qFatal("insert: %s", qPrintable(r.error().message));
            return f.count("SELECT MAX(id) FROM fix_requests");
        };
        const qint64 approved = insert("open");
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO fix_decisions (fix_id, decided_by, decision, comment,"
                          " decided_at) VALUES (?, 'fin', 'approve', 'ok', ?)",
                          {approved, f.clock.nowMs()})
                    .ok());
        // Its approvals given, the database lets it be marked approved (and not before).
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE fix_requests SET status = 'approved' WHERE id = ?", {approved})
                    .ok());
        moneyRefused(f, approved, -2500, "EUR");
        // Failed as the engine fails one: proposed open, then marked failed (migration 0015:
        // no fix is inserted decided).
        const qint64 failed = insert("open");
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE fix_requests SET status = 'failed' WHERE id = ?",
                          {failed})
                    .ok());
        moneyRefused(f, failed, -2500, "EUR");

        const qint64 open = insert("open");
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE fix_requests SET amount_minor = -1 WHERE id = ?",
                          {open})
                    .ok());
        QCOMPARE(f.count("SELECT amount_minor FROM fix_requests WHERE id = ?", {open}), -1);
        // ... but an approval of it is refused: the columns no longer say what its digest
        // covers, and an applied write-off's columns are what reconciliation reads.
        auto refused = desk.fixes.approve(
            open, FixService::digest(QJsonObject{{"amount_minor", "-2500"}, {"currency", "EUR"}}),
            "", kOrigin, fin);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().reason, QStringLiteral("digest_mismatch"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ?", {open}), 0);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND status = 'open'", {open}),
            1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'write_off'"), 0);
    }
    // Migration 0015: a fix is born open. A row inserted around the engine as already applied
    // (reconciliation reads an applied write-off's amount), decided otherwise, or needing no
    // approval is refused by the database, and nothing is stored.
    void aFixIsBornOpen_data() { addEngineRows(); }
    void aFixIsBornOpen()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const QJsonObject change{{"amount_minor", "-2500"}, {"currency", "EUR"}};
        auto insert = [&](const QString &status, int approvals, const QVariant &appliedAt) {
            return Sql::exec(
                f.orders->db(),
                "INSERT INTO fix_requests (kind, target_kind, target_id, change_json,"
                " change_sha256, amount_minor, currency, reason_code, comment, proposed_by,"
                " proposer_role, proposed_from, proposed_at, approvals_needed, status, applied_at)"
                " VALUES ('write_off', 'discrepancy', '1', ?, ?, -2500, 'EUR',"
                " 'settlement_correction', 'test', 'fay', 'finance', 'test', ?, ?, ?, ?)",
                {AuditOutbox::toJson(change), FixService::digest(change), f.clock.nowMs(),
                 approvals, status, appliedAt});
        };
        for (const QString &status : {QStringLiteral("applied"), QStringLiteral("approved"),
                                      QStringLiteral("rejected"), QStringLiteral("failed")}) {
            auto r =
                insert(status, 1, status == u"applied" ? QVariant(f.clock.nowMs()) : QVariant());
            QVERIFY2(!r.ok(), qPrintable(status));
            QCOMPARE(r.error().code, ErrorCode::Forbidden);
            QVERIFY2(r.error().message.contains(u"a fix is proposed open"),
                     qPrintable(r.error().message));
        }
        QVERIFY(!insert("open", 0, {}).ok());
        QVERIFY(!insert("open", 1, f.clock.nowMs()).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 0);
        QVERIFY(insert("open", 1, {}).ok()); // as the engine proposes
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);
    }
};

QTEST_GUILESS_MAIN(TstFixMoneyFrozen)
#include "tst_fix_money_frozen.moc"
