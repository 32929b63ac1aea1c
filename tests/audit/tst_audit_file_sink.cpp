// An export's file sink (services/audit/auditfilesink.h): what is written reaches the file in
// order and the digest it states is the file's; a disk that fills up fails the write and
// finish() with the system's reason, never silently; an abandoned sink (a cancelled export)
// takes nothing more and leaves only a prefix of what it was given; the whole-file digest is
// the one QCryptographicHash gives.

#include "audit/auditfilesink.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

namespace {

QByteArray chunkOf(int size, quint32 seed)
{
    QByteArray b(size, Qt::Uninitialized);
    QRandomGenerator gen(seed);
    for (char &c : b)
        c = char(gen.bounded(256));
    return b;
}

} // namespace

class TstAuditFileSink : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesInOrderAndStatesTheFilesDigest()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("export.csv")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray expected;
        {
            AuditFileSink sink(&file);
            // More chunks than the queue holds, of sizes that do not line up.
            for (int i = 0; i < 40; ++i) {
                const QByteArray chunk = chunkOf(1 + (i * 7919) % (300 * 1024), quint32(i));
                QCOMPARE(sink.write(chunk), chunk.size());
                expected += chunk;
            }
            QVERIFY(sink.finish().ok());
            QVERIFY(sink.finish().ok()); // twice: the same digest
            QCOMPARE(sink.written(), expected.size());
            QCOMPARE(sink.hex(),
                     QString::fromLatin1(
                         QCryptographicHash::hash(expected, QCryptographicHash::Sha256).toHex()));
        }
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), expected);
        file.seek(0);
        qint64 bytes = 0;
        auto sha = sha256OfFile(file, &bytes);
        QVERIFY(sha.ok());
        QCOMPARE(bytes, expected.size());
        QCOMPARE(*sha, QString::fromLatin1(
                           QCryptographicHash::hash(expected, QCryptographicHash::Sha256).toHex()));
    }

    void aFullDiskFailsTheExport()
    {
        if (!QFile::exists(QStringLiteral("/dev/full")))
            QSKIP("no /dev/full on this system to stand for a full disk");
        QFile full(QStringLiteral("/dev/full"));
        QVERIFY(full.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        AuditFileSink sink(&full);
        const QByteArray chunk = chunkOf(64 * 1024, 7);
        // The first write is queued; the failure shows on a later write or at the latest in
        // finish(), with the system's words.
        bool refused = false;
        for (int i = 0; i < 100 && !refused; ++i)
            refused = sink.write(chunk) < 0;
        auto finished = sink.finish();
        QVERIFY(!finished.ok());
        QCOMPARE(finished.error().reason, QStringLiteral("write_failed"));
        QVERIFY2(finished.error().message.contains(QStringLiteral("No space left on device")),
                 qPrintable(finished.error().message));
        QVERIFY(refused);
        QVERIFY2(sink.errorString().contains(QStringLiteral("No space left on device")),
                 qPrintable(sink.errorString()));
    }

    void abandonedSinkTakesNoMoreAndLeavesAPrefix()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("cancelled.csv")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        AuditFileSink sink(&file);
        QByteArray sent;
        for (int i = 0; i < 20; ++i) {
            const QByteArray chunk = chunkOf(256 * 1024, quint32(100 + i));
            QCOMPARE(sink.write(chunk), chunk.size());
            sent += chunk;
        }
        sink.abandon(); // a cancelled export: the file is the caller's again, to discard
        QCOMPARE(sink.write(QByteArray("more")), qint64(-1));
        QVERIFY(!sink.finish().ok()); // an abandoned file never passes for a whole export
        QVERIFY(sink.written() <= sent.size());
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray inFile = file.readAll();
        QCOMPARE(inFile.size(), sink.written());
        QVERIFY(sent.startsWith(inFile));
    }
};

QTEST_GUILESS_MAIN(TstAuditFileSink)
#include "tst_audit_file_sink.moc"
