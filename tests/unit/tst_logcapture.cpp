// LogCapture, the tests' window on what the program logs: it hands back what was logged at
// each level, puts the previous logger back, and — what a failing test relies on to say why —
// prints everything it captured when the test function failed while it lived, and nothing
// when it passed. The failing case runs in a child process (this program, one probe function,
// ONCEPAY_LOGCAPTURE_PROBE=1), since a failure here would fail this test.

#include "logcapture.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTest>

using namespace OncePay::Test;

namespace {

const char *const kProbe = "ONCEPAY_LOGCAPTURE_PROBE";

struct Child {
    int exitCode = -1;
    QString out;
    QString err;
};

Child runProbe(const QString &function)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kProbe), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), {function});
    Child c;
    if (!p.waitForFinished(60000))
        return c;
    c.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    c.out = QString::fromUtf8(p.readAllStandardOutput());
    c.err = QString::fromUtf8(p.readAllStandardError());
    return c;
}

bool probing()
{
    return qEnvironmentVariableIsSet(kProbe);
}

} // namespace

class TstLogCapture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void capturesByLevelAndRestoresTheLogger()
    {
        if (probing())
            QSKIP("a probe run: only the probe functions run");
        const auto before = spdlog::default_logger();
        {
            LogCapture log;
            spdlog::warn("the link to {} was lost", "orders");
            spdlog::info("reconnected");
            QCOMPARE(log.lines(QStringLiteral("warning")),
                     QStringList{QStringLiteral("the link to orders was lost")});
            QCOMPARE(log.lines(QStringLiteral("info")), QStringList{QStringLiteral("reconnected")});
            QVERIFY(log.lines(QStringLiteral("error")).isEmpty());
            QVERIFY(spdlog::default_logger() != before);
        }
        QCOMPARE(spdlog::default_logger(), before);
    }

    void aFailedTestPrintsItsWholeLog()
    {
        if (probing())
            QSKIP("a probe run: only the probe functions run");
        const Child failed = runProbe(QStringLiteral("probeFails"));
        QVERIFY2(failed.exitCode > 0, qPrintable(failed.out + failed.err));
        QVERIFY2(failed.out.contains(QStringLiteral("FAIL!  : TstLogCapture::probeFails()")),
                 qPrintable(failed.out));
        QVERIFY2(failed.err.contains(QStringLiteral("--- logged while probeFails ran ---")),
                 qPrintable(failed.err));
        // Every line, beyond the kilobyte QVERIFY2 keeps of a message.
        for (int i = 0; i < 200; ++i)
            QVERIFY2(failed.err.contains(
                         QStringLiteral("warning attempt %1 of the pool's reconnect").arg(i)),
                     qPrintable(QString::number(i)));
        QVERIFY(failed.err.contains(QStringLiteral("--- end of log ---")));

        const Child passed = runProbe(QStringLiteral("probePasses"));
        QVERIFY2(passed.exitCode == 0, qPrintable(passed.out + passed.err));
        QVERIFY2(!passed.err.contains(QStringLiteral("--- logged while")), qPrintable(passed.err));
    }

    // Run only in the child (ONCEPAY_LOGCAPTURE_PROBE set): one fails with a long log, one
    // passes with a log.
    void probeFails()
    {
        if (!probing())
            QSKIP("run by aFailedTestPrintsItsWholeLog in a child process");
        LogCapture log;
        for (int i = 0; i < 200; ++i)
            spdlog::warn("attempt {} of the pool's reconnect", i);
        QVERIFY2(false, "the probe fails on purpose");
    }
    void probePasses()
    {
        if (!probing())
            QSKIP("run by aFailedTestPrintsItsWholeLog in a child process");
        LogCapture log;
        spdlog::warn("nothing wrong");
        QVERIFY(log.lines(QStringLiteral("warning")).size() == 1);
    }
};

QTEST_GUILESS_MAIN(TstLogCapture)
#include "tst_logcapture.moc"
