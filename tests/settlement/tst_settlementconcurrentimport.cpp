// Two people importing overlapping statements at the same moment, each on a connection of their
// own, on SQLite, PostgreSQL and MariaDB: both imports succeed, and the outcome is the one of
// importing them one after the other — every line stored exactly once, the lines the other
// import stored counted as already imported, none in conflict. The same file twice, two
// overlapping exports, and the same lines listed in opposite orders (the two transactions then
// wait for each other: the server undoes one, which is stored again).
// On MariaDB an import waits a bounded time for another import of the same channel: past it,
// it is refused as busy with nothing stored, while another channel's import goes through.

#include "enginefixture.h"

#include "settlement/formats/statementformat.h"
#include "settlement/settlementimporter.h"

#include <QElapsedTimer>
#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <optional>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kT0 = 1767225600000; // 2026-01-01T00:00:00Z
constexpr qint64 kDay = 86400000;
constexpr int kLines = 1200;

const Actor kAda{QStringLiteral("fin-ada"), QStringLiteral("finance")};
const Actor kBo{QStringLiteral("fin-bo"), QStringLiteral("finance")};

// A Stripe statement of kLines charges, as Stripe writes it: a header line, then one line per
// balance transaction (each its own line key).
QList<QByteArray> statementRows()
{
    QList<SettlementLine> lines;
    for (int i = 0; i < kLines; ++i) {
        SettlementLine l;
        l.channelTxnId = QStringLiteral("pi_conc%1").arg(i, 5, 10, QLatin1Char('0'));
        l.kind = SettlementKind::Charge;
        l.grossMinor = 1000 + i;
        l.feeMinor = 59;
        l.netMinor = l.grossMinor - l.feeMinor;
        l.currency = QStringLiteral("USD");
        l.settledAtMs = kT0 + kDay + i * 1000;
        l.transactedAtMs = kT0 + i * 1000;
        l.reference = QStringLiteral("o-%1").arg(i);
        lines << l;
    }
    const QByteArray file =
        StatementFormat::forChannel(QStringLiteral("stripe"))->write(lines, {kT0, kT0 + 14 * kDay});
    QList<QByteArray> rows = file.split('\n');
    while (!rows.isEmpty() && rows.last().isEmpty())
        rows.removeLast();
    return rows; // rows[0] is the header
}

QByteArray join(const QByteArray &header, const QList<QByteArray> &rows)
{
    QByteArray out = header + '\n';
    for (const QByteArray &r : rows)
        out += r + '\n';
    return out;
}

struct Outcome {
    std::optional<Result<StatementImport>> result;
};

// Both files prepared first, then committed at the same moment on two connections.
void importTogether(EngineFixture &f, const QByteArray &a, const QByteArray &b, Outcome &outA,
                    Outcome &outB)
{
    QSemaphore ready, go;
    auto importer = [&](const QByteArray &data, const QString &name, const Actor &actor,
                        Outcome &out) {
        return QThread::create([&, data, name] {
            auto c = Connection::open(f.config.orders, name);
            auto p = SettlementImporter::prepare(QStringLiteral("stripe"), name, data);
            ready.release();
            go.acquire();
            if (!c) {
                out.result = Result<StatementImport>(c.error());
                return;
            }
            out.result = p ? SettlementImporter(*c, f.clock).commit(*p, actor)
                           : Result<StatementImport>(p.error());
        });
    };
    QThread *ta = importer(a, QStringLiteral("ada.csv"), kAda, outA);
    QThread *tb = importer(b, QStringLiteral("bo.csv"), kBo, outB);
    ta->start();
    tb->start();
    ready.acquire(2);
    go.release(2);
    QVERIFY(ta->wait(300000));
    QVERIFY(tb->wait(300000));
    delete ta;
    delete tb;
}

} // namespace

class TstSettlementConcurrentImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void overlappingImportsAtTheSameMoment_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("overlap");
        for (const auto &[name, dialect] :
             {std::pair{"sqlite", Dialect::Sqlite}, std::pair{"postgresql", Dialect::Postgres},
              std::pair{"mariadb", Dialect::MySql}})
            for (const char *overlap : {"same file", "overlapping exports", "opposite orders"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(name, overlap)))
                    << int(dialect) << QString::fromLatin1(overlap);
    }
    void overlappingImportsAtTheSameMoment()
    {
        QFETCH(QString, overlap);
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const QList<QByteArray> rows = statementRows();
        QCOMPARE(rows.size(), kLines + 1);
        const QByteArray header = rows.first();
        const QList<QByteArray> body = rows.mid(1);
        QByteArray a, b;
        int inA = kLines, inB = kLines;
        if (overlap == u"same file") {
            a = b = join(header, body);
        } else if (overlap == u"overlapping exports") {
            // Ada's export ends two thirds in, Bo's starts a third in: a third of the lines is
            // in both, in the same order.
            inA = inB = kLines * 2 / 3;
            a = join(header, body.mid(0, inA));
            b = join(header, body.mid(kLines - inB));
        } else {
            QList<QByteArray> reversed(body.crbegin(), body.crend());
            a = join(header, body);
            b = join(header, reversed);
        }
        Outcome ada, bo;
        importTogether(f, a, b, ada, bo);
        QVERIFY(ada.result && bo.result);
        const Result<StatementImport> &ra = *ada.result, &rb = *bo.result;
        QVERIFY2(ra.ok(), ra.ok() ? "" : qPrintable(ra.error().message));
        QVERIFY2(rb.ok(), rb.ok() ? "" : qPrintable(rb.error().message));

        // Every line stored exactly once, whoever stored it.
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), kLines);
        QCOMPARE(f.count("SELECT COUNT(DISTINCT line_key) FROM settlement_lines"), kLines);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines l WHERE NOT EXISTS (SELECT 1"
                         " FROM settlement_statements s WHERE s.id = l.statement_id)"),
                 0);
        if (overlap == u"same file") {
            // One stored it, the other found the same file stored meanwhile.
            QCOMPARE(ra->alreadyImported + rb->alreadyImported, 1);
            QCOMPARE(ra->statementId, rb->statementId);
            QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 1);
            return;
        }
        QVERIFY(ra->conflicts.isEmpty());
        QVERIFY(rb->conflicts.isEmpty());
        QCOMPARE(ra->linesInFile, inA);
        QCOMPARE(rb->linesInFile, inB);
        // Each stored what was new when it stored, and counted the rest as already imported.
        QCOMPARE(ra->lines + ra->alreadyPresent, inA);
        QCOMPARE(rb->lines + rb->alreadyPresent, inB);
        QCOMPARE(ra->lines + rb->lines, kLines);
        // The statement rows count what they stored; one that stored nothing has no row.
        QCOMPARE(f.count("SELECT COALESCE(SUM(line_count), 0) FROM settlement_statements"), kLines);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"),
                 (ra->lines > 0 ? 1 : 0) + (rb->lines > 0 ? 1 : 0));
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'settlement.imported'"),
                 (ra->lines > 0 ? 1 : 0) + (rb->lines > 0 ? 1 : 0));
    }

    // Another Stripe import being stored (its named lock held, as ImportLock takes it, by a
    // session of its own) for longer than the bound: this one is refused as busy, says so and
    // stores nothing; a FedaPay import is not held up; once the lock is released, the same
    // file imports whole.
    void anImportWaitingTooLongIsRefusedWithNothingStored()
    {
        ONCEPAY_REQUIRE_SERVER(int(Dialect::MySql))
        auto scratch = ScratchDatabases::create(Dialect::MySql);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        EngineFixture f(**scratch);

        auto holder = Connection::open(f.config.orders, QStringLiteral("other-import"));
        QVERIFY2(holder.ok(), qPrintable(holder.ok() ? QString() : holder.error().message));
        const QLatin1StringView lockName = SettlementImporter::kLockNameSql;
        auto held =
            Sql::scalar(holder->db(), QStringLiteral("SELECT GET_LOCK(%1, 0)").arg(lockName),
                        {QStringLiteral("stripe")});
        QVERIFY(held.ok() && held->toInt() == 1);

        const QList<QByteArray> rows = statementRows();
        const QByteArray file = join(rows.first(), rows.mid(1));
        SettlementImporter importer(*f.orders, f.clock);
        importer.setLockWait(std::chrono::seconds(1));
        QElapsedTimer waited;
        waited.start();
        auto busy =
            importer.importData(QStringLiteral("stripe"), QStringLiteral("late.csv"), file, kAda);
        QVERIFY(!busy.ok());
        QVERIFY(waited.elapsed() >= 900);
        QCOMPARE(busy.error().code, ErrorCode::Unavailable);
        QCOMPARE(busy.error().reason, QStringLiteral("import_busy"));
        QVERIFY2(busy.error().message.contains(QStringLiteral("stripe")) &&
                     busy.error().message.contains(QStringLiteral("after 1 s")),
                 qPrintable(busy.error().message));
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_statements"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                         " 'settlement.imported'"),
                 0);

        // The lock is the channel's: FedaPay's statement is stored meanwhile.
        SettlementLine feda;
        feda.channelTxnId = QStringLiteral("104729");
        feda.kind = SettlementKind::Charge;
        feda.grossMinor = 5000;
        feda.feeMinor = 90;
        feda.netMinor = feda.grossMinor - feda.feeMinor;
        feda.currency = QStringLiteral("XOF");
        feda.settledAtMs = kT0 + kDay;
        feda.transactedAtMs = kT0;
        feda.reference = QStringLiteral("o-feda");
        const QByteArray fedaFile = StatementFormat::forChannel(QStringLiteral("fedapay"))
                                        ->write({feda}, {kT0, kT0 + 14 * kDay});
        auto other = importer.importData(QStringLiteral("fedapay"), QStringLiteral("feda.csv"),
                                         fedaFile, kAda);
        QVERIFY2(other.ok(), qPrintable(other.ok() ? QString() : other.error().message));
        QCOMPARE(other->lines, 1);

        QVERIFY(Sql::scalar(holder->db(), QStringLiteral("SELECT RELEASE_LOCK(%1)").arg(lockName),
                            {QStringLiteral("stripe")})
                    .ok());
        auto stored =
            importer.importData(QStringLiteral("stripe"), QStringLiteral("late.csv"), file, kAda);
        QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().message));
        QCOMPARE(stored->lines, kLines);
        QCOMPARE(f.count("SELECT COUNT(*) FROM settlement_lines WHERE channel = 'stripe'"), kLines);
    }
};

QTEST_GUILESS_MAIN(TstSettlementConcurrentImport)
#include "tst_settlementconcurrentimport.moc"
