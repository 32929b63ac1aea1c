// The password prompt of `oncepay audit --as` (and fix --user, staff add) on a real terminal (a
// pseudo-terminal): what is typed is not echoed, and the terminal gets its echo back however
// the prompt ends — the password given, or Ctrl-C while it is asked for.

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdlib>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace {

// `oncepay audit export --as nobody` on a pseudo-terminal of its own (its controlling
// terminal: Ctrl-C typed there is SIGINT), its configuration and data in `home`.
struct PromptRun {
    pid_t pid = -1;
    int master = -1;
    int slave = -1; // kept open here to read the terminal's settings as the program left them
    QByteArray seen;

    ~PromptRun()
    {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        if (master >= 0)
            ::close(master);
        if (slave >= 0)
            ::close(slave);
    }

    // A pseudo-terminal pair; false where the system gives none (no /dev/ptmx or /dev/pts).
    bool open() { return ::openpty(&master, &slave, nullptr, nullptr, nullptr) == 0; }

    bool start(const QString &home)
    {
        const QByteArray program = qgetenv("ONCEPAY_BIN_DIR") + "/oncepay";
        const QByteArray config = QDir(home).filePath("config").toLocal8Bit();
        const QByteArray data = QDir(home).filePath("data").toLocal8Bit();
        const QByteArray out = QDir(home).filePath("trail.csv").toLocal8Bit();
        pid = ::fork();
        if (pid == 0) {
            ::setsid();
            ::ioctl(slave, TIOCSCTTY, 0);
            ::dup2(slave, STDIN_FILENO);
            ::dup2(slave, STDOUT_FILENO);
            ::dup2(slave, STDERR_FILENO);
            ::close(master);
            ::setenv("XDG_CONFIG_HOME", config.constData(), 1);
            ::setenv("XDG_DATA_HOME", data.constData(), 1);
            ::execl(program.constData(), program.constData(), "audit", "export", "--as", "nobody",
                    "--out", out.constData(), static_cast<char *>(nullptr));
            ::_exit(127);
        }
        return pid > 0;
    }

    // Reads what the program writes until `text` is among it or `ms` pass.
    bool waitFor(const QByteArray &text, int ms = 30000)
    {
        QElapsedTimer t;
        t.start();
        while (!seen.contains(text) && t.elapsed() < ms) {
            pollfd p{master, POLLIN, 0};
            if (::poll(&p, 1, 100) > 0) {
                char buf[512];
                const ssize_t n = ::read(master, buf, sizeof buf);
                if (n <= 0)
                    break;
                seen.append(buf, n);
            }
        }
        return seen.contains(text);
    }

    bool echoing() const
    {
        termios t{};
        return ::tcgetattr(slave, &t) == 0 && (t.c_lflag & ECHO);
    }

    // Waits for the program to end; its wait status.
    int wait()
    {
        int status = 0;
        ::waitpid(pid, &status, 0);
        pid = -1;
        return status;
    }
};

} // namespace

class TstCliPrompt : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ctrlCAtThePromptGivesTheTerminalItsEchoBack()
    {
        QTemporaryDir home;
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY(run.start(home.path()));
        QVERIFY(run.echoing());
        QVERIFY2(run.waitFor("Password for nobody: "), run.seen.constData());
        QVERIFY(!run.echoing());                              // what is typed now is not shown
        QCOMPARE(::write(run.master, "\x03", 1), ssize_t(1)); // Ctrl-C
        const int status = run.wait();
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
        QVERIFY(run.echoing());
    }

    void aTypedPasswordIsNotEchoed()
    {
        QTemporaryDir home;
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY(run.start(home.path()));
        QVERIFY2(run.waitFor("Password for nobody: "), run.seen.constData());
        const QByteArray typed = "typed-secret-4d2b\n";
        QCOMPARE(::write(run.master, typed.constData(), typed.size()), ssize_t(typed.size()));
        QVERIFY2(run.waitFor("sign-in refused for nobody"), run.seen.constData());
        const int status = run.wait();
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 1);
        QVERIFY2(!run.seen.contains("typed-secret"), run.seen.constData());
        QVERIFY(run.echoing());
        QVERIFY(!QFile::exists(QDir(home.path()).filePath("trail.csv")));
    }
};

QTEST_MAIN(TstCliPrompt)
#include "tst_cli_prompt.moc"
