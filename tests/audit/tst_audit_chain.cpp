// Shipping the outbox into the hash chain and verifying it, on SQLite, PostgreSQL and
// MariaDB: exactly once, idempotent after a crash, safe with concurrent shippers, and every
// kind of tampering named by row.

#include "audit/auditchain.h"
#include "audit/auditshipper.h"
#include "audit/audittrailquery.h"
#include "audit/auditverifier.h"
#include "audittestutil.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QSqlQuery>
#include <QTest>
#include <QThread>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const qint64 kStart = 1'700'000'000'000;

AuditVerifyReport verified(const Connection &audit)
{
    AuditVerifier v(audit);
    v.setBatchSize(7); // several batches even for small chains
    auto r = v.verify();
    if (!r)
        qFatal("verify: %s", qPrintable(r.error().message));
    return *r;
}

// 25 events shipped in batches of 10: the fixture of the tamper tests.
void shipped25(const Connection &orders, const Connection &audit, const Clock &clock)
{
    seedOutbox(orders, 25, clock);
    AuditShipper shipper(orders, audit, clock, {10, 0});
    auto r = shipper.shipAll();
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
    QCOMPARE(r->shipped, 25);
    QVERIFY(verified(audit).ok());
}

} // namespace

namespace {

// The row whose hash canonicalEncodingIsPinned computed independently.
AuditLogRow pinnedRow()
{
    AuditLogRow r;
    r.seq = 1;
    r.eventId = QStringLiteral("e1");
    r.occurredAt = 1000;
    r.recordedAt = 2000;
    r.actor = QStringLiteral("a");
    r.actorRole = QStringLiteral("system");
    r.action = QStringLiteral("test");
    r.entityKind = QStringLiteral("order");
    r.entityId = QStringLiteral("o-1");
    r.orderId = QStringLiteral("o-1");
    r.afterJson = QStringLiteral("{\"x\":1}");
    r.reason = QString();
    r.prevHash = AuditChain::genesisHash();
    return r;
}

} // namespace

class TstAuditChain : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void canonicalEncodingIsPinned()
    {
        const AuditLogRow r = pinnedRow();
        QCOMPARE(r.prevHash, QString(64, u'0'));
        // Computed independently (Python hashlib) from the encoding documented in auditchain.h.
        QCOMPARE(
            AuditChain::computeHash(r),
            QStringLiteral("4a0d8363072966f13a58a394cf0ed321a0643bb69ef9de7b9540ab996befa639"));
        QVERIFY(AuditChain::canonicalEncoding(r).startsWith(
            QByteArray::fromHex("53000000106f6e63657061792e61756469742e7631")));

        AuditLogRow nullReason = r;
        nullReason.reason.reset();
        QVERIFY(AuditChain::computeHash(nullReason) != AuditChain::computeHash(r));
        // Moving bytes between adjacent fields changes the hash (length prefixes).
        AuditLogRow shifted = r;
        shifted.actor = QStringLiteral("as");
        shifted.actorRole = QStringLiteral("ystem");
        QVERIFY(AuditChain::computeHash(shifted) != AuditChain::computeHash(r));
        QCOMPARE(AuditChain::sealMessage(25, QStringLiteral("ab").repeated(32)).toHex().left(60),
                 QByteArray("53000000156f6e63657061792e61756469742e7365616c2e763149000000"));
    }

    // The byte path an export and verify-export check rows with (encodeInto into one reused
    // buffer, RowHasher's reused SHA-256) must give the documented encoding and hash of every
    // row — a large row, then smaller ones (the buffer shrinks), NULL against empty, negative
    // numbers — and refuse a hash that is not the row's.
    void rowHasherAgreesWithTheEncoding()
    {
        AuditLogRow pinned = pinnedRow();
        pinned.hash =
            QStringLiteral("4a0d8363072966f13a58a394cf0ed321a0643bb69ef9de7b9540ab996befa639");
        AuditLogRow big = pinned;
        big.seq = 9'007'199'254'740'993;
        big.occurredAt = -1;
        big.afterJson =
            QStringLiteral("{\"note\":\"%1\"}").arg(QStringLiteral("é😀").repeated(3000));
        big.beforeJson = QStringLiteral("{}");
        big.callbackId = QStringLiteral("stripe:evt_1");
        AuditLogRow bare = pinned;
        bare.orderId.reset();
        bare.afterJson.reset();
        bare.reason.reset();
        bare.actor = QString();
        for (AuditLogRow *r : {&big, &bare})
            r->hash = AuditChain::computeHash(*r);

        // A lone surrogate (not valid UTF-16) at a field's end and the next field's start: the
        // chain hashed such a row through QString::toUtf8 ('?'), and so must the check.
        AuditLogRow lone = pinned;
        lone.actor = QStringLiteral("a") + QChar(0xD800);
        lone.actorRole = QChar(0xDC00) + QStringLiteral("system");
        // Computed independently (Python hashlib) with each lone surrogate as '?'.
        lone.hash =
            QStringLiteral("c0c730b750b993ead0566c37d71e73de98dcb818bca56737988bf2b4ac91ff6b");
        QCOMPARE(AuditChain::computeHash(lone), lone.hash);

        AuditChain::RowHasher hasher;
        QVERIFY(hasher.ready());
        QVERIFY(hasher.matches(lone));
        QByteArray buffer;
        for (const AuditLogRow &r : {big, pinned, bare, big, bare}) {
            // The row as the exporter sees it: UTF-8 views of its columns.
            const AuditLogRowUtf8 utf8(r);
            AuditLogRowBytes b = utf8.bytes();
            QByteArray hash = r.hash.toUtf8();
            AuditChain::encodeInto(buffer, b);
            QCOMPARE(buffer, AuditChain::canonicalEncoding(r));
            QVERIFY(hasher.matches(b));
            // The text path (the verifier's), on the same row and on a field changed.
            QVERIFY(hasher.matches(r));
            AuditLogRow changed = r;
            changed.entityId += u'x';
            QVERIFY(!hasher.matches(changed));
            changed = r;
            changed.hash[63] = changed.hash[63] == u'0' ? u'1' : u'0';
            QVERIFY(!hasher.matches(changed));
            hash[63] = hash[63] == '0' ? '1' : '0';
            b.hash = hash;
            QVERIFY(!hasher.matches(b));
            b.hash = QByteArrayView(hash).first(62);
            QVERIFY(!hasher.matches(b));
        }
    }

    void shipThenVerify_data() { addEngineRows(); }
    void shipThenVerify()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        QVERIFY(verified(audit).ok()); // an empty chain is a valid chain
        const QStringList ids = seedOutbox(orders, 25, clock);

        AuditShipper shipper(orders, audit, clock, {10, 0});
        QCOMPARE(*shipper.pendingCount(), 25);
        auto r = shipper.shipAll();
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(r->shipped, 25);
        QCOMPARE(r->alreadyPresent, 0);
        QCOMPARE(r->batches, 3);
        QCOMPARE(r->headSeq, 25);
        QCOMPARE(*shipper.pendingCount(), 0);

        // In outbox order, gap-free from 1, linked from the genesis hash, NULL kept NULL.
        auto q = Sql::exec(audit.db(), QStringLiteral("SELECT ") + AuditChain::columns() +
                                           QStringLiteral(" FROM audit_log ORDER BY seq"));
        QVERIFY(q.ok());
        QString prev = AuditChain::genesisHash();
        for (int i = 0; i < 25; ++i) {
            QVERIFY(q->next());
            const AuditLogRow row = AuditChain::readRow(*q);
            QCOMPARE(row.seq, i + 1);
            QCOMPARE(row.eventId, ids[i]);
            QCOMPARE(row.prevHash, prev);
            QCOMPARE(row.hash, AuditChain::computeHash(row));
            QCOMPARE(row.reason.has_value(), (i + 1) % 4 == 0);
            QVERIFY(!row.callbackId.has_value());
            QVERIFY(row.afterJson->contains(QStringLiteral("代购")));
            prev = row.hash;
        }

        const AuditVerifyReport report = verified(audit);
        QVERIFY2(report.ok(), qPrintable(report.summary()));
        QCOMPARE(report.rowsChecked, 25);
        QCOMPARE(report.headSeq, 25);
        QCOMPARE(report.headHash, prev);
        QVERIFY(report.summary().contains(QStringLiteral("ok")));
    }

    void shipTwiceAndAfterCrashNoDuplicates_data() { addEngineRows(); }
    void shipTwiceAndAfterCrashNoDuplicates()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        shipped25(orders, audit, clock);

        AuditShipper shipper(orders, audit, clock, {10, 0});
        auto again = shipper.shipAll();
        QVERIFY(again.ok());
        QCOMPARE(again->shipped, 0);
        QCOMPARE(again->headSeq, 25);

        // A crash after the audit commit but before the outbox was marked: the outbox still
        // says "unshipped" for rows that are already in the chain.
        QVERIFY(Sql::exec(orders.db(), QStringLiteral("UPDATE audit_outbox SET shipped_at = NULL"
                                                      " WHERE id > 12"))
                    .ok());
        seedOutbox(orders, 3, clock);
        auto recovered = shipper.shipAll();
        QVERIFY2(recovered.ok(),
                 qPrintable(recovered.ok() ? QString() : recovered.error().message));
        QCOMPARE(recovered->alreadyPresent, 13);
        QCOMPARE(recovered->shipped, 3);
        QCOMPARE(recovered->headSeq, 28);
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT COUNT(*) FROM audit_log")), 28);
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM audit_log")),
                 28);
        QCOMPARE(*shipper.pendingCount(), 0);
        QVERIFY(verified(audit).ok());
    }

    void concurrentShippersNeverFork_data() { addEngineRows(); }
    void concurrentShippersNeverFork()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        {
            Connection orders = openOrDie(dbs->orders());
            Connection audit = openOrDie(dbs->audit());
            seedOutbox(orders, 120, clock);
        }
        const ConnectionProfile ordersProfile = dbs->orders();
        const ConnectionProfile auditProfile = dbs->audit();
        QList<QThread *> threads;
        std::vector<QString> errors(4);
        for (int t = 0; t < 4; ++t) {
            threads << QThread::create([&, t] {
                auto r = AuditShipper::ship(ordersProfile, auditProfile, clock, {7, 0});
                if (!r)
                    errors[t] = r.error().message;
            });
            threads.last()->start();
        }
        for (QThread *t : threads) {
            QVERIFY(t->wait(120000));
            delete t;
        }
        for (const QString &e : errors)
            QVERIFY2(e.isEmpty(), qPrintable(e));
        Connection audit = openOrDie(dbs->audit());
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT COUNT(*) FROM audit_log")), 120);
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT MAX(seq) FROM audit_log")), 120);
        QVERIFY(verified(audit).ok());
    }

    void auditDatabaseUnavailable_data() { addEngineRows(); }
    void auditDatabaseUnavailable()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        seedOutbox(orders, 5, clock);

        ConnectionProfile down = dbs->audit();
        if (down.dialect == Dialect::Sqlite) {
            down.path = QStringLiteral("/dev/null/no-such-dir/audit.db");
        } else {
            down.host = QStringLiteral("127.0.0.1");
            down.port = 1; // nothing listens there
        }
        auto r = AuditShipper::ship(dbs->orders(), down, clock, {});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
        QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE"
                                                  " shipped_at IS NULL")),
                 5);

        // Lost mid-run: the connection was open but the server went away.
        {
            Connection audit = openOrDie(dbs->audit());
            audit.db().close();
            AuditShipper shipper(orders, audit, clock);
            auto lost = shipper.shipBatch();
            QVERIFY(!lost.ok());
            QCOMPARE(lost.error().code, ErrorCode::Unavailable);
            QCOMPARE(*shipper.pendingCount(), 5);
        }

        // Business carries on meanwhile; when the audit database is back the outbox drains.
        seedOutbox(orders, 2, clock);
        auto back = AuditShipper::ship(dbs->orders(), dbs->audit(), clock, {});
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        QCOMPARE(back->shipped, 7);
        Connection audit = openOrDie(dbs->audit());
        QVERIFY(verified(audit).ok());
    }

    void alteredByteIsNamed_data() { addEngineRows(); }
    void alteredByteIsNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        shipped25(orders, audit, clock);
        // The triggers refuse the edit…
        QVERIFY(
            !Sql::exec(audit.db(), QStringLiteral("UPDATE audit_log SET actor = 'x' WHERE seq = 7"))
                 .ok());
        // …so an attacker drops them first.
        QVERIFY(
            tamper(audit, {QStringLiteral("UPDATE audit_log SET entity_id = 'o-8' WHERE seq = 7")})
                .ok());
        AuditVerifyReport r = verified(audit);
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Altered);
        QCOMPARE(r.problem->seq, 7);
        QVERIFY2(r.summary().contains(QStringLiteral("seq 7")), qPrintable(r.summary()));
        QCOMPARE(r.rowsChecked, 6);

        // Put it back, then turn a NULL into an empty string: also an alteration.
        QVERIFY(
            tamper(audit, {QStringLiteral("UPDATE audit_log SET entity_id = 'o-7' WHERE seq = 7")})
                .ok());
        QVERIFY(verified(audit).ok());
        QVERIFY(
            tamper(audit, {QStringLiteral("UPDATE audit_log SET reason = '' WHERE seq = 9")}).ok());
        r = verified(audit);
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Altered);
        QCOMPARE(r.problem->seq, 9);
    }

    void deletedRowIsNamed_data() { addEngineRows(); }
    void deletedRowIsNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        shipped25(orders, audit, clock);
        QVERIFY(tamper(audit, {QStringLiteral("DELETE FROM audit_log WHERE seq = 10")}).ok());
        AuditVerifyReport r = verified(audit);
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Missing);
        QCOMPARE(r.problem->seq, 10);
        QCOMPARE(r.problem->foundSeq, 11);
        QVERIFY2(r.summary().contains(QStringLiteral("seq 10 is missing")),
                 qPrintable(r.summary()));

        QVERIFY(tamper(audit, {QStringLiteral("DELETE FROM audit_log WHERE seq = 1")}).ok());
        r = verified(audit);
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Missing);
        QCOMPARE(r.problem->seq, 1);
    }

    void swappedRowsAreNamed_data() { addEngineRows(); }
    void swappedRowsAreNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        shipped25(orders, audit, clock);
        QVERIFY(swapRows(audit, 5, 12).ok());
        AuditVerifyReport r = verified(audit);
        QVERIFY(r.problem.has_value());
        QCOMPARE(r.problem->kind, AuditProblem::Kind::Relinked);
        QCOMPARE(r.problem->seq, 5);
        QVERIFY2(r.summary().contains(QStringLiteral("seq 5 is reordered")),
                 qPrintable(r.summary()));
    }

    void progressAndCancel_data() { addEngineRows(); }
    void progressAndCancel()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        shipped25(orders, audit, clock);
        AuditVerifier v(audit);
        v.setBatchSize(10);
        QList<QPair<qint64, qint64>> calls;
        auto all = v.verify([&](qint64 done, qint64 total) {
            calls.append({done, total});
            return true;
        });
        QVERIFY(all.ok() && all->ok());
        QCOMPARE(calls, (QList<QPair<qint64, qint64>>{{10, 25}, {20, 25}, {25, 25}}));

        auto cancelled = v.verify([](qint64 done, qint64) { return done < 10; });
        QVERIFY(cancelled.ok());
        QVERIFY(cancelled->cancelled);
        QVERIFY(!cancelled->ok());
        QCOMPARE(cancelled->rowsChecked, 10);
    }

    // 100,000 rows stream through in batches (SQLite; the servers run the same code path).
    void verifiesALongChain()
    {
        QTemporaryDir dir;
        ConnectionProfile p;
        p.role = DbRole::Audit;
        p.path = dir.filePath(QStringLiteral("audit.db"));
        Connection audit = openOrDie(p);
        QVERIFY(Sql::exec(audit.db(), QStringLiteral("BEGIN")).ok());
        QSqlQuery insert(audit.db());
        QVERIFY(insert.prepare(AuditChain::insertSql()));
        AuditLogRow row;
        row.prevHash = AuditChain::genesisHash();
        row.actor = QStringLiteral("system");
        row.actorRole = QStringLiteral("system");
        row.action = QStringLiteral("bench");
        row.entityKind = QStringLiteral("order");
        for (qint64 seq = 1; seq <= 100000; ++seq) {
            row.seq = seq;
            row.eventId = QStringLiteral("e-%1").arg(seq);
            row.entityId = QStringLiteral("o-%1").arg(seq % 977);
            row.occurredAt = row.recordedAt = kStart + seq;
            row.hash = AuditChain::computeHash(row);
            const QVariantList binds = AuditChain::insertBinds(row);
            for (int i = 0; i < binds.size(); ++i)
                insert.bindValue(i, binds[i]);
            QVERIFY(insert.exec());
            row.prevHash = row.hash;
        }
        QVERIFY(Sql::exec(audit.db(), QStringLiteral("COMMIT")).ok());
        AuditVerifier v(audit);
        int calls = 0;
        auto r = v.verify([&](qint64, qint64 total) {
            ++calls;
            return total == 100000;
        });
        QVERIFY(r.ok());
        QVERIFY2(r->ok(), qPrintable(r->summary()));
        QCOMPARE(r->rowsChecked, 100000);
        QCOMPARE(calls, 51); // batches of 2,000 (+1 empty tail)
    }
};

QTEST_GUILESS_MAIN(TstAuditChain)
#include "tst_audit_chain.moc"
