// The password prompt of `oncepay audit --as` (and fix --user, staff add) on a real terminal (a
// pseudo-terminal): what is typed is not echoed — echo is off before the prompt shows — and the
// terminal gets its echo back however the prompt ends: the password given, Ctrl-C or a kill
// while it is asked for. A signal the caller ignores stays ignored at the prompt.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

extern char **environ;

namespace {

// `oncepay audit export --as nobody` on a pseudo-terminal of its own (its controlling
// terminal: Ctrl-C typed there is SIGINT), its configuration and data in a directory of its own.
struct PromptRun {
    pid_t pid = -1;
    int master = -1;
    int slave = -1; // kept open here to read the terminal's settings as the program left them
    QByteArray seen;
    QTemporaryDir home;

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

    // Starts the program; `ignoreInt`: with SIGINT ignored, as a caller's `trap '' INT` leaves it.
    bool start(bool ignoreInt = false)
    {
        // Everything the child needs is made here: between fork and exec a threaded process may
        // only call what is async-signal-safe.
        const QByteArray program = qgetenv("ONCEPAY_BIN_DIR") + "/oncepay";
        const QByteArray out = QDir(home.path()).filePath("trail.csv").toLocal8Bit();
        const QByteArray config =
            "XDG_CONFIG_HOME=" + QDir(home.path()).filePath("c").toLocal8Bit();
        const QByteArray data = "XDG_DATA_HOME=" + QDir(home.path()).filePath("d").toLocal8Bit();
        std::vector<char *> env;
        for (char **e = environ; *e; ++e)
            if (qstrncmp(*e, "XDG_CONFIG_HOME=", 16) != 0 &&
                qstrncmp(*e, "XDG_DATA_HOME=", 14) != 0)
                env.push_back(*e);
        env.push_back(const_cast<char *>(config.constData()));
        env.push_back(const_cast<char *>(data.constData()));
        env.push_back(nullptr);
        const char *argv[] = {program.constData(), "audit", "export", "--as", "nobody", "--out",
                              out.constData(),     nullptr};
        pid = ::fork();
        if (pid == 0) {
            if (::setsid() < 0 || ::ioctl(slave, TIOCSCTTY, 0) < 0)
                ::_exit(126);
            ::dup2(slave, STDIN_FILENO);
            ::dup2(slave, STDOUT_FILENO);
            ::dup2(slave, STDERR_FILENO);
            ::close(master);
            if (slave > STDERR_FILENO)
                ::close(slave);
            // The signals as a shell starts a program: default, not blocked (the test runner's
            // own dispositions are not inherited), SIGINT ignored if asked.
            for (int s : {SIGINT, SIGQUIT, SIGTERM, SIGHUP})
                ::signal(s, SIG_DFL);
            if (ignoreInt)
                ::signal(SIGINT, SIG_IGN);
            sigset_t none;
            ::sigemptyset(&none);
            ::sigprocmask(SIG_SETMASK, &none, nullptr);
            ::execve(program.constData(), const_cast<char *const *>(argv), env.data());
            ::_exit(127);
        }
        return pid > 0;
    }

    void type(const QByteArray &keys) const
    {
        QCOMPARE(::write(master, keys.constData(), keys.size()), ssize_t(keys.size()));
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

    // Its wait status once it has ended, or -1 if it has not within `ms` (then it is killed).
    int wait(int ms = 30000)
    {
        QElapsedTimer t;
        t.start();
        int status = 0;
        while (t.elapsed() < ms) {
            const pid_t r = ::waitpid(pid, &status, WNOHANG);
            if (r == pid) {
                pid = -1;
                return status;
            }
            if (r < 0 && errno != EINTR)
                return -1;
            waitFor("\x01", 20); // keeps the terminal's output drained meanwhile
        }
        return -1;
    }
};

} // namespace

class TstCliPrompt : public QObject {
    Q_OBJECT
private:
    // Started with the terminal's output stopped (Ctrl-S): the prompt cannot be written yet,
    // so echo must already be off while it waits to be — then Ctrl-Q lets it out.
    static bool startAtPrompt(PromptRun &run, bool ignoreInt = false)
    {
        run.type("\x13"); // Ctrl-S: output stopped
        if (!run.start(ignoreInt))
            return false;
        QElapsedTimer t;
        t.start();
        while (run.echoing() && t.elapsed() < 30000)
            QTest::qWait(10);
        const bool quietFirst = !run.echoing() && !run.seen.contains("Password");
        run.type("\x11"); // Ctrl-Q: output resumed
        return quietFirst && run.waitFor("Password for nobody: ");
    }

private Q_SLOTS:
    void echoIsOffBeforeThePromptShows()
    {
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY(run.echoing());
        QVERIFY2(startAtPrompt(run), run.seen.constData());
    }

    void ctrlCAtThePromptGivesTheTerminalItsEchoBack()
    {
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY2(startAtPrompt(run), run.seen.constData());
        run.type("\x03"); // Ctrl-C
        const int status = run.wait();
        QVERIFY2(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGINT,
                 qPrintable(QString::number(status)));
        QVERIFY(run.echoing());
    }

    void aKillAtThePromptGivesTheTerminalItsEchoBack()
    {
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY2(startAtPrompt(run), run.seen.constData());
        QCOMPARE(::kill(run.pid, SIGTERM), 0);
        const int status = run.wait();
        QVERIFY2(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
                 qPrintable(QString::number(status)));
        QVERIFY(run.echoing());
    }

    // A caller that ignores Ctrl-C (`trap '' INT`) keeps it ignored at the prompt.
    void anIgnoredCtrlCStaysIgnored()
    {
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY2(startAtPrompt(run, true), run.seen.constData());
        run.type("\x03");
        run.type("typed-secret-4d2b\n");
        QVERIFY2(run.waitFor("sign-in refused for nobody"), run.seen.constData());
        const int status = run.wait();
        QVERIFY2(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 1,
                 qPrintable(QString::number(status)));
        QVERIFY(run.echoing());
    }

    void aTypedPasswordIsNotEchoed()
    {
        PromptRun run;
        if (!run.open())
            QSKIP("no pseudo-terminal on this system (openpty failed): a prompt needs one");
        QVERIFY2(startAtPrompt(run), run.seen.constData());
        run.type("typed-secret-4d2b\n");
        QVERIFY2(run.waitFor("sign-in refused for nobody"), run.seen.constData());
        const int status = run.wait();
        QVERIFY2(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 1,
                 qPrintable(QString::number(status)));
        QVERIFY2(!run.seen.contains("typed-secret"), run.seen.constData());
        QVERIFY(run.echoing());
        QVERIFY(!QFile::exists(QDir(run.home.path()).filePath("trail.csv")));
    }
};

QTEST_MAIN(TstCliPrompt)
#include "tst_cli_prompt.moc"
