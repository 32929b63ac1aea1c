// `oncepay --help`, every command's own help, `--version`, and the manual page generated
// from them (docs/man/genman.cmake): complete and consistent, as a newcomer and the .deb
// rely on.

#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay::Test;

namespace {

QProcessEnvironment cleanEnv()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("ONCEPAY_CONFIG"));
    return env;
}

// The "Commands:" block of the overview: name -> summary.
QList<QPair<QString, QString>> commandsOf(const QString &overview)
{
    QList<QPair<QString, QString>> out;
    bool inside = false;
    static const QRegularExpression entry(QStringLiteral("^  ([a-z][a-z -]*[a-z])  +(\\S.*)$"));
    for (const QString &line : overview.split(u'\n')) {
        if (line == u"Commands:") {
            inside = true;
            continue;
        }
        if (!inside)
            continue;
        if (line.isEmpty())
            break;
        if (const auto m = entry.match(line); m.hasMatch())
            out << qMakePair(m.captured(1), m.captured(2));
    }
    return out;
}

} // namespace

class TstCliHelp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void overviewListsCommandsOptionsAndExitCodes()
    {
        const CliRun r = runOncepay({QStringLiteral("--help")}, cleanEnv());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("Usage: oncepay ")));
        const auto commands = commandsOf(r.out);
        QVERIFY2(commands.size() >= 15, qPrintable(r.out));
        for (const char *expected : {"db migrate", "gateway", "work", "ingest", "simulate",
                                     "audit verify", "reconcile", "staff add"}) {
            bool found = false;
            for (const auto &c : commands)
                found = found || c.first == QLatin1String(expected);
            QVERIFY2(found, expected);
        }
        for (const char *option :
             {"--config FILE", "--verbose", "--log-level LEVEL", "--version", "--help"})
            QVERIFY2(r.out.contains(QLatin1String(option)), option);
        const qsizetype codes = r.out.indexOf(QStringLiteral("\nExit codes:\n"));
        QVERIFY(codes > 0);
        for (int code = 0; code <= 5; ++code)
            QVERIFY2(r.out.indexOf(QRegularExpression(QStringLiteral("\n  %1  +\\S").arg(code)),
                                   codes) > 0,
                     qPrintable(QStringLiteral("exit code %1 not documented").arg(code)));
        for (const QString &line : r.out.split(u'\n'))
            QVERIFY2(line.size() <= 79, qPrintable(QStringLiteral("too wide: ") + line));
    }

    void everyCommandHasCompleteHelp()
    {
        const auto commands = commandsOf(runOncepay({QStringLiteral("--help")}, cleanEnv()).out);
        QVERIFY(!commands.isEmpty());
        static const QRegularExpression optionLine(QStringLiteral("^  (-\\S.*?)(  +(\\S.*))?$"));
        for (const auto &[name, summary] : commands) {
            QStringList args = name.split(u' ');
            args << QStringLiteral("--help");
            const CliRun r = runOncepay(args, cleanEnv());
            QVERIFY2(r.exitCode == 0, qPrintable(name + QStringLiteral(": ") + r.err));
            QVERIFY2(r.out.startsWith(QStringLiteral("Usage: oncepay ") + name), qPrintable(r.out));
            QVERIFY2(r.out.contains(summary), qPrintable(name + QStringLiteral(": summary")));
            QVERIFY2(r.out.contains(QStringLiteral("Exit codes")),
                     qPrintable(name + QStringLiteral(": no pointer to the exit codes")));
            // Every option is explained.
            bool inOptions = false;
            for (const QString &line : r.out.split(u'\n')) {
                if (line == u"Options:") {
                    inOptions = true;
                    continue;
                }
                if (inOptions && !line.startsWith(u' '))
                    inOptions = false;
                if (!inOptions)
                    continue;
                const auto m = optionLine.match(line);
                if (m.hasMatch())
                    QVERIFY2(!m.captured(3).isEmpty(),
                             qPrintable(name + QStringLiteral(": option without text: ") + line));
            }
            // `oncepay help NAME` says the same.
            QStringList helpArgs{QStringLiteral("help")};
            helpArgs += name.split(u' ');
            QCOMPARE(runOncepay(helpArgs, cleanEnv()).out, r.out);
        }
    }

    void versionNamesBuildAndDrivers()
    {
        const CliRun r = runOncepay({QStringLiteral("--version")}, cleanEnv());
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(QRegularExpression(QStringLiteral("^oncepay \\d+\\.\\d+\\.\\d+$"))
                     .match(lines[0])
                     .hasMatch(),
                 qPrintable(lines[0]));
        QVERIFY2(QRegularExpression(QStringLiteral("^build \\S+, \\d{4}-\\d{2}-\\d{2}$"))
                     .match(lines[1])
                     .hasMatch(),
                 qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(QStringLiteral("QSQLITE")), qPrintable(lines[2]));
    }

    void usageErrorsExitTwoWithAHint()
    {
        const CliRun partial = runOncepay({QStringLiteral("db")}, cleanEnv());
        QCOMPARE(partial.exitCode, 2);
        QVERIFY2(partial.err.contains(QStringLiteral("db migrate")), qPrintable(partial.err));
        const CliRun unknown =
            runOncepay({QStringLiteral("--bogus"), QStringLiteral("db")}, cleanEnv());
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains(QStringLiteral("--bogus")));
        const CliRun none = runOncepay({}, cleanEnv());
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains(QStringLiteral("Commands:")));
    }

    void manualPageNamesEveryCommandAndExitCode()
    {
        QTemporaryDir dir;
        const QString page = dir.filePath(QStringLiteral("oncepay.1"));
        QProcess gen;
        gen.start(QStringLiteral(ONCEPAY_CMAKE_COMMAND),
                  {QStringLiteral("-DPROGRAM=") + qEnvironmentVariable("ONCEPAY_BIN_DIR") +
                       QStringLiteral("/oncepay"),
                   QStringLiteral("-DMODE=cli"),
                   QStringLiteral("-DTEMPLATE=" ONCEPAY_SOURCE_DIR "/docs/man/oncepay.1.in"),
                   QStringLiteral("-DOUTPUT=") + page, QStringLiteral("-DVERSION=0.0.0"),
                   QStringLiteral("-P"),
                   QStringLiteral(ONCEPAY_SOURCE_DIR "/docs/man/genman.cmake")});
        QVERIFY(gen.waitForFinished(120000));
        QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
        QFile f(page);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString roff = QString::fromUtf8(f.readAll());
        QVERIFY2(!roff.contains(u'@'), "a template placeholder was left unfilled");

        const auto commands = commandsOf(runOncepay({QStringLiteral("--help")}, cleanEnv()).out);
        for (const auto &c : commands) {
            QString escaped = c.first;
            escaped.replace(u'-', QStringLiteral("\\-"));
            QVERIFY2(roff.contains(QStringLiteral(".SS \"oncepay ") + escaped),
                     qPrintable(QStringLiteral("man page lacks ") + c.first));
        }
        const qsizetype exitStatus = roff.indexOf(QStringLiteral(".SH EXIT STATUS"));
        QVERIFY(exitStatus > 0);
        for (int code = 0; code <= 5; ++code)
            QVERIFY2(roff.indexOf(QStringLiteral(".B %1\n").arg(code), exitStatus) > 0,
                     qPrintable(QStringLiteral("exit code %1 missing").arg(code)));

        // groff finds no mistakes in it (man-db's own check, as lintian runs it).
        const QString groff = QStandardPaths::findExecutable(QStringLiteral("groff"));
        if (groff.isEmpty())
            QSKIP("groff not installed (Debian: groff-base); the roff syntax was not checked");
        QProcess lint;
        lint.start(groff, {QStringLiteral("-k"), QStringLiteral("-man"), QStringLiteral("-ww"),
                           QStringLiteral("-z"), page});
        QVERIFY(lint.waitForFinished(60000));
        const QString warnings = QString::fromUtf8(lint.readAllStandardError());
        QVERIFY2(lint.exitCode() == 0 && warnings.isEmpty(), qPrintable(warnings));
    }
};

QTEST_GUILESS_MAIN(TstCliHelp)
#include "tst_clihelp.moc"
