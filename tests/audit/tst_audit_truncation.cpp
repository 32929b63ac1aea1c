// Rows cut off the end of the chain (review finding 1), on every engine: the verifier, the
// console's path (AuditTrailQuery::verify) and the cross-check hold the chain against the
// orders database — its outbox events marked shipped and the seal recorded there — and a
// seal's signature covers who sealed and when (seal format 2), while format-1 seals still
// verify. The CLI's exit codes: tst_cli_audit.

#include "audit/auditchain.h"
#include "audit/auditcrosscheck.h"
#include "audit/auditsealer.h"
#include "audit/auditsealrecord.h"
#include "audit/auditshipper.h"
#include "audit/audittrailquery.h"
#include "audit/auditverifier.h"
#include "audit/sealkey.h"
#include "audittestutil.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const qint64 kStart = 1'700'000'000'000;
const Actor kAlice{QStringLiteral("alice"), QStringLiteral("auditor")};

void ship(const Connection &orders, const Connection &audit, const Clock &clock, int n)
{
    seedOutbox(orders, n, clock);
    auto r = AuditShipper(orders, audit, clock).shipAll();
    if (!r || r->shipped < n)
        qFatal("ship failed");
}

AuditVerifyReport verified(const Connection &audit, const Connection *orders, const SealKey &key)
{
    AuditVerifier v(audit);
    v.setPublicKey(key.publicKey());
    v.setBatchSize(4);
    if (orders)
        v.setOrders(*orders);
    auto r = v.verify();
    if (!r)
        qFatal("verify: %s", qPrintable(r.error().message));
    return *r;
}

} // namespace

class TstAuditTruncation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // truncate.sh as a unit: the end cut with the checkpoint that sealed it. The audit
    // database alone still looks whole; against the orders database the seal recorded there
    // is beyond the end, and so is every shipped event that was cut.
    void endCutWithItsSealIsFound_data() { addEngineRows(); }
    void endCutWithItsSealIsFound()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        AuditSealer sealer(audit, key, clock);
        sealer.setOrders(orders);
        ship(orders, audit, clock, 10);
        QVERIFY(sealer.seal(QStringLiteral("auditor-1")).ok()); // checkpoint 1 at seq 10
        ship(orders, audit, clock, 5);                          // its record at seq 11, then 12..16
        auto second = sealer.seal(QStringLiteral("auditor-1"));
        QVERIFY(second.ok());
        QCOMPARE(second->checkpoint.seq, 16);
        auto recorded = AuditSealRecord::latest(orders);
        QVERIFY(recorded.ok() && recorded->has_value());
        QCOMPARE((*recorded)->seq, 16);
        QCOMPARE((*recorded)->signature, second->checkpoint.signature);
        QVERIFY(verified(audit, &orders, key).ok());

        QVERIFY(cutChainAfter(audit, 12).ok());
        // What the audit database alone can say: nothing is wrong (the finding).
        QVERIFY(verified(audit, nullptr, key).ok());

        AuditVerifyReport r = verified(audit, &orders, key);
        QVERIFY(r.problem);
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Truncated);
        QCOMPARE(r.problem->seq, 16);
        QCOMPARE(r.problem->foundSeq, 12);
        QCOMPARE(r.problem->message,
                 QStringLiteral("chain truncated: the seal recorded in the orders database seals"
                                " seq 16 but the chain ends at seq 12 (rows 13..16 are missing)"));

        // The console's Verify chain goes through the trail query: the same finding.
        QVERIFY(Sql::update(orders.db(),
                            "INSERT INTO staff (username, display_name, role, disabled,"
                            " failed_attempts, password_hash, created_at, updated_at) VALUES"
                            " ('alice', '', 'auditor', 0, 0, 'x', 0, 0)")
                    .ok());
        const SealPublicKey pub = key.publicKey();
        auto viaQuery = AuditTrailQuery(audit, orders, clock).verify(&pub, {}, kAlice);
        QVERIFY2(viaQuery.ok(), qPrintable(viaQuery.ok() ? QString() : viaQuery.error().message));
        QVERIFY(viaQuery->problem);
        QCOMPARE(viaQuery->problem->message, r.problem->message);

        // Sealing refuses such a chain.
        auto again = sealer.seal(QStringLiteral("auditor-1"));
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, ErrorCode::Corrupt);
    }

    // No seal recorded (the chain was sealed before seals were recorded, or never): every
    // outbox event marked shipped must still be in the chain; the first missing is named.
    void shippedEventsMissingFromTheChainAreFound_data() { addEngineRows(); }
    void shippedEventsMissingFromTheChainAreFound()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        ship(orders, audit, clock, 12);
        const QString ninth =
            Sql::scalar(audit.db(), "SELECT event_id FROM audit_log WHERE seq = 9")->toString();
        const QString action =
            Sql::scalar(audit.db(), "SELECT action FROM audit_log WHERE seq = 9")->toString();
        QVERIFY(verified(audit, &orders, key).ok());
        QCOMPARE(verified(audit, &orders, key).shippedEventsChecked, 12);

        QVERIFY(cutChainAfter(audit, 8).ok());
        QVERIFY(verified(audit, nullptr, key).ok());
        AuditVerifyReport r = verified(audit, &orders, key);
        QVERIFY(r.problem);
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Truncated);
        QCOMPARE(r.problem->seq, 9);
        QCOMPARE(r.problem->foundSeq, 8);
        QCOMPARE(r.problem->message,
                 QStringLiteral("chain truncated: 4 event(s) shipped to the audit database are not"
                                " in the chain, which ends at seq 8 (the first: event %1, %2)")
                     .arg(ninth, action));

        AuditCrossCheck check(orders, orders, audit, clock);
        check.setBatchSize(3);
        auto cross = check.run(QStringLiteral("auditor-1"), QStringLiteral("auditor"));
        QVERIFY2(cross.ok(), qPrintable(cross.ok() ? QString() : cross.error().message));
        QVERIFY(!cross->passed());
        QCOMPARE(cross->alertCount, 1);
        QCOMPARE(cross->alerts[0].kind, CrossCheckAlert::Kind::ChainCutShort);
        QCOMPARE(cross->alerts[0].message,
                 QStringLiteral("4 audited event(s) shipped to the audit database are not in the"
                                " audit log (the first: event %1, %2): rows were cut off the"
                                " chain")
                     .arg(ninth, action));
    }

    // Seal format 2 signs sealed_by and sealed_at: editing either breaks the signature. A
    // format-1 checkpoint (seq and head hash signed) still verifies.
    void sealedByAndSealedAtAreSigned_data() { addEngineRows(); }
    void sealedByAndSealedAtAreSigned()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        ship(orders, audit, clock, 5);
        const QString head5 =
            Sql::scalar(audit.db(), "SELECT hash FROM audit_log WHERE seq = 5")->toString();
        // A checkpoint as seals of format 1 were made.
        QVERIFY(Sql::exec(audit.db(),
                          "INSERT INTO audit_checkpoints (seq, head_hash, key_id, signature,"
                          " sealed_by, sealed_at) VALUES (5, ?, ?, ?, 'old-seal', 1)",
                          {head5, key.keyId(), key.sign(AuditChain::sealMessage(5, head5))})
                    .ok());
        ship(orders, audit, clock, 3);
        AuditSealer sealer(audit, key, clock);
        auto sealed = sealer.seal(QStringLiteral("auditor-1"));
        QVERIFY(sealed.ok());
        QVERIFY(key.publicKey().verify(AuditChain::sealMessageV2(8, sealed->checkpoint.headHash,
                                                                 QStringLiteral("auditor-1"),
                                                                 sealed->checkpoint.sealedAt),
                                       sealed->checkpoint.signature));
        AuditVerifyReport ok = verified(audit, nullptr, key);
        QVERIFY(ok.ok());
        QCOMPARE(ok.checkpointsChecked, 2);

        for (const char *edit : {"UPDATE audit_checkpoints SET sealed_by = 'mallory' WHERE seq = 8",
                                 "UPDATE audit_checkpoints SET sealed_at = sealed_at + 1 WHERE seq"
                                 " = 8"}) {
            QStringList sql;
            if (audit.dialect() == Dialect::Postgres)
                sql << QStringLiteral("ALTER TABLE audit_checkpoints DISABLE TRIGGER USER");
            else
                sql << QStringLiteral("DROP TRIGGER IF EXISTS audit_checkpoints_no_update");
            sql << QString::fromLatin1(edit);
            QVERIFY(tamper(audit, sql).ok());
            AuditVerifyReport r = verified(audit, nullptr, key);
            QVERIFY2(r.problem, edit);
            QCOMPARE(r.problem->kind, AuditProblem::Kind::BadSignature);
            QCOMPARE(r.problem->seq, 8);
            QVERIFY(Sql::exec(audit.db(),
                              "UPDATE audit_checkpoints SET sealed_by = 'auditor-1', sealed_at = ?"
                              " WHERE seq = 8",
                              {sealed->checkpoint.sealedAt})
                        .ok());
            QVERIFY(verified(audit, nullptr, key).ok());
        }
    }
};

QTEST_GUILESS_MAIN(TstAuditTruncation)
#include "tst_audit_truncation.moc"
