// Sealing the chain head with Ed25519 and checking the seals: key files, signatures,
// truncation after a seal and a chain rewritten under a seal.

#include "audit/auditchain.h"
#include "audit/auditsealer.h"
#include "audit/auditshipper.h"
#include "audit/auditverifier.h"
#include "audit/sealkey.h"
#include "audittestutil.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSqlQuery>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const qint64 kStart = 1'700'000'000'000;

void ship(const Connection &orders, const Connection &audit, const Clock &clock, int n)
{
    seedOutbox(orders, n, clock);
    auto r = AuditShipper(orders, audit, clock).shipAll();
    if (!r || r->shipped != n)
        qFatal("ship failed");
}

AuditVerifyReport verified(const Connection &audit, const SealPublicKey &key)
{
    AuditVerifier v(audit);
    v.setPublicKey(key);
    v.setBatchSize(8);
    auto r = v.verify();
    if (!r)
        qFatal("verify: %s", qPrintable(r.error().message));
    return *r;
}

} // namespace

class TstAuditSeal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keyFilesAreCreatedPrivately()
    {
        QTemporaryDir dir;
        AppConfig config = AppConfig::defaults(dir.path());
        const SealKeyPaths paths = SealKeyPaths::fromConfig(config);
        QCOMPARE(paths.secretKey, dir.filePath(QStringLiteral("keys/audit-seal.key")));
        QCOMPARE(paths.publicKey, dir.filePath(QStringLiteral("keys/audit-seal.pub")));

        auto key = SealKey::loadOrCreate(paths);
        QVERIFY2(key.ok(), qPrintable(key.ok() ? QString() : key.error().message));
        const auto perms = QFile::permissions(paths.secretKey);
        QVERIFY(perms & QFileDevice::ReadOwner);
        QVERIFY(!(perms & (QFileDevice::ReadGroup | QFileDevice::ReadOther |
                           QFileDevice::WriteGroup | QFileDevice::WriteOther)));

        auto pub = SealPublicKey::load(paths.publicKey);
        QVERIFY(pub.ok());
        const QByteArray raw = QByteArray::fromBase64(pub->toBase64().toLatin1());
        QCOMPARE(raw.size(), 32);
        QCOMPARE(pub->keyId(),
                 QString::fromLatin1(
                     QCryptographicHash::hash(raw, QCryptographicHash::Sha256).toHex().left(16)));
        QCOMPARE(key->keyId(), pub->keyId());

        // The second use loads the same key.
        auto again = SealKey::loadOrCreate(paths);
        QVERIFY(again.ok());
        QCOMPARE(again->keyId(), key->keyId());
        const QByteArray msg = AuditChain::sealMessage(3, QStringLiteral("ab"));
        QVERIFY(pub->verify(msg, again->sign(msg)));
        QVERIFY(!pub->verify(AuditChain::sealMessage(4, QStringLiteral("ab")), again->sign(msg)));

        // [seal] key_file moves both; the .pub follows the secret key's name.
        config.seal.insert(QStringLiteral("key_file"),
                           dir.filePath(QStringLiteral("elsewhere/k.key")));
        QCOMPARE(SealKeyPaths::fromConfig(config).publicKey,
                 dir.filePath(QStringLiteral("elsewhere/k.pub")));

        // A public key without its secret: never silently replaced by a new key.
        QVERIFY(QFile::remove(paths.secretKey));
        auto orphan = SealKey::loadOrCreate(paths);
        QVERIFY(!orphan.ok());
        QCOMPARE(orphan.error().code, ErrorCode::Conflict);
    }

    void sealThenVerify_data() { addEngineRows(); }
    void sealThenVerify()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        AuditSealer sealer(audit, key, clock);

        auto empty = sealer.seal(QStringLiteral("auditor-1"));
        QVERIFY(!empty.ok());
        QCOMPARE(empty.error().code, ErrorCode::NotFound);

        ship(orders, audit, clock, 20);
        auto first = sealer.seal(QStringLiteral("auditor-1"));
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
        QVERIFY(!first->alreadySealed);
        QCOMPARE(first->checkpoint.seq, 20);
        QCOMPARE(first->checkpoint.keyId, key.keyId());
        auto again = sealer.seal(QStringLiteral("auditor-1"));
        QVERIFY(again.ok());
        QVERIFY(again->alreadySealed);
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT COUNT(*) FROM audit_checkpoints")), 1);

        ship(orders, audit, clock, 5);
        QVERIFY(sealer.seal(QStringLiteral("auditor-1")).ok());
        AuditVerifyReport r = verified(audit, key.publicKey());
        QVERIFY2(r.ok(), qPrintable(r.summary()));
        QCOMPARE(r.checkpointsChecked, 2);

        // Without the public key the seals cannot be trusted, so the chain is not "ok".
        AuditVerifier blind(audit);
        auto noKey = blind.verify();
        QVERIFY(noKey.ok());
        QCOMPARE(noKey->problem->kind, AuditProblem::Kind::NoPublicKey);
    }

    void truncationAfterSealIsNamed_data() { addEngineRows(); }
    void truncationAfterSealIsNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        ship(orders, audit, clock, 25);
        QVERIFY(AuditSealer(audit, key, clock).seal(QStringLiteral("auditor-1")).ok());

        QVERIFY(tamper(audit, {QStringLiteral("DELETE FROM audit_log WHERE seq >= 23")}).ok());
        AuditVerifyReport r = verified(audit, key.publicKey());
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Truncated);
        QCOMPARE(r.problem->seq, 25);
        QCOMPARE(r.problem->foundSeq, 22);
        QVERIFY2(r.summary().contains(QStringLiteral("seals seq 25 but the chain ends at seq 22")),
                 qPrintable(r.summary()));

        // The shipper appending new rows over the cut does not hide it.
        ship(orders, audit, clock, 4);
        r = verified(audit, key.publicKey());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::SealMismatch);
        QCOMPARE(r.problem->seq, 25);

        // And a broken chain is never sealed.
        auto refused = AuditSealer(audit, key, clock).seal(QStringLiteral("auditor-1"));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Corrupt);
    }

    void rewrittenChainBreaksTheSeal_data() { addEngineRows(); }
    void rewrittenChainBreaksTheSeal()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        ship(orders, audit, clock, 12);
        QVERIFY(AuditSealer(audit, key, clock).seal(QStringLiteral("auditor-1")).ok());

        // An attacker alters row 4 and recomputes every hash after it: the chain is
        // self-consistent again, but no longer what was sealed.
        auto q = Sql::exec(audit.db(), QStringLiteral("SELECT ") + AuditChain::columns() +
                                           QStringLiteral(" FROM audit_log ORDER BY seq"));
        QVERIFY(q.ok());
        QList<AuditLogRow> rows;
        while (q->next())
            rows << AuditChain::readRow(*q);
        QStringList edits;
        QString prev = AuditChain::genesisHash();
        for (AuditLogRow &row : rows) {
            if (row.seq == 4)
                row.reason = QStringLiteral("written off");
            row.prevHash = prev;
            row.hash = AuditChain::computeHash(row);
            prev = row.hash;
            if (row.seq >= 4)
                edits << QStringLiteral(
                             "UPDATE audit_log SET reason = %1, prev_hash = '%2', hash = '%3'"
                             " WHERE seq = %4")
                             .arg(row.reason ? u'\'' + *row.reason + u'\'' : QStringLiteral("NULL"),
                                  row.prevHash, row.hash)
                             .arg(row.seq);
        }
        QVERIFY(tamper(audit, edits).ok());
        AuditVerifyReport r = verified(audit, key.publicKey());
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::SealMismatch);
        QCOMPARE(r.problem->seq, 12);
        QVERIFY2(r.summary().contains(QStringLiteral("seq 12")), qPrintable(r.summary()));
    }

    void badSignatureIsNamed_data() { addEngineRows(); }
    void badSignatureIsNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        const SealKey key = SealKey::generate();
        ship(orders, audit, clock, 6);
        QVERIFY(AuditSealer(audit, key, clock).seal(QStringLiteral("auditor-1")).ok());
        const QString head =
            Sql::scalar(audit.db(), QStringLiteral("SELECT hash FROM audit_log WHERE seq = 6"))
                ->toString();

        // A checkpoint forged for seq 6: right key id, signature over something else.
        auto forged = Sql::insert(
            audit.db(), audit.dialect(),
            QStringLiteral("INSERT INTO audit_checkpoints (seq, head_hash, key_id, signature,"
                           " sealed_by, sealed_at) VALUES (6, ?, ?, ?, 'mallory', 0)"),
            {head, key.keyId(), key.sign(AuditChain::sealMessage(5, head))});
        QVERIFY(forged.ok());
        AuditVerifyReport r = verified(audit, key.publicKey());
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::BadSignature);
        QCOMPARE(r.problem->checkpointId, *forged);
        QVERIFY2(r.summary().contains(
                     QStringLiteral("checkpoint %1 (seq 6) has a bad signature").arg(*forged)),
                 qPrintable(r.summary()));

        // A genuine checkpoint checked against some other public key.
        AuditVerifier other(audit);
        other.setPublicKey(SealKey::generate().publicKey());
        auto wrong = other.verify();
        QCOMPARE(wrong->problem->kind, AuditProblem::Kind::BadSignature);
        QVERIFY(wrong->summary().contains(QStringLiteral("unknown key")));
    }
};

QTEST_GUILESS_MAIN(TstAuditSeal)
#include "tst_audit_seal.moc"
