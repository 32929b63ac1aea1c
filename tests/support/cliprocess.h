#pragma once

// Runs the built `oncepay` binary the way a person would, for end-to-end CLI tests.

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace OncePay::Test {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

inline CliRun runOncepay(const QStringList &args, const QProcessEnvironment &env,
                         const QByteArray &stdinData = {}, int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("ONCEPAY_BIN_DIR") + QStringLiteral("/oncepay"), args);
    p.waitForStarted();
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    p.waitForFinished(timeoutMs);
    CliRun r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace OncePay::Test
