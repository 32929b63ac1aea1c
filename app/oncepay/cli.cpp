#include "cli.h"

#include "auth/staffservice.h"
#include "core/clock.h"

#include <QSysInfo>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include <pwd.h>
#include <termios.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace OncePay::Cli {

namespace {
QList<Command> &registry()
{
    static QList<Command> commands;
    return commands;
}

// The terminal's settings while a password is read without echo, put back if the reader is
// interrupted (Ctrl-C, a kill) before it is done: the shell it returns to keeps its echo.
termios g_terminalBeforePrompt{};
volatile sig_atomic_t g_promptQuiet = 0;

extern "C" void restoreTerminalAndDie(int signal)
{
    if (g_promptQuiet)
        tcsetattr(STDIN_FILENO, TCSANOW, &g_terminalBeforePrompt); // async-signal-safe
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

// The signals that end a program at a prompt (Ctrl-C, Ctrl-\, a kill, a hang-up), each with
// what it did before the prompt took it over.
struct PromptSignals {
    static constexpr int kSignals[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
    struct sigaction before[std::size(kSignals)]{};
    bool taken[std::size(kSignals)]{};

    // Takes over each signal that is not ignored (one ignored — `trap ''`, a background job —
    // stays ignored: the prompt must not make it deadly).
    void take()
    {
        struct sigaction restoring {};
        restoring.sa_handler = restoreTerminalAndDie;
        sigemptyset(&restoring.sa_mask);
        for (std::size_t i = 0; i < std::size(kSignals); ++i) {
            taken[i] = sigaction(kSignals[i], nullptr, &before[i]) == 0 &&
                       before[i].sa_handler != SIG_IGN &&
                       sigaction(kSignals[i], &restoring, nullptr) == 0;
        }
    }
    // Puts back what each signal did before, flags and mask included.
    void giveBack()
    {
        for (std::size_t i = 0; i < std::size(kSignals); ++i)
            if (taken[i])
                sigaction(kSignals[i], &before[i], nullptr);
    }
};
} // namespace

bool registerCommands(const QList<Command> &commands)
{
    registry() += commands;
    return true;
}

const QList<Command> &registeredCommands()
{
    return registry();
}

QString operatorId()
{
    // cron, systemd and `env -i` leave $USER unset; anyone can set it to anything.
    const uid_t uid = geteuid();
    const passwd *pw = getpwuid(uid);
    const QString name = pw && pw->pw_name && *pw->pw_name ? QString::fromLocal8Bit(pw->pw_name)
                                                           : QStringLiteral("uid%1").arg(uid);
    return QStringLiteral("cli:%1@%2").arg(name, QSysInfo::machineHostName());
}

QString readStdinSecret(const char *prompt)
{
    // Echo goes off only on a terminal whose settings were read: restoring settings that were
    // never read would leave the terminal without echo, line editing or speed.
    termios old{};
    const bool terminal = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &old) == 0;
    PromptSignals signals;
    if (terminal) { // echo off before the prompt shows: nothing typed after it is echoed
        g_terminalBeforePrompt = old;
        g_promptQuiet = 1;
        signals.take();
        termios quiet = old;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
        std::fputs(prompt, stderr);
        std::fflush(stderr);
    }
    std::string line;
    const bool got = bool(std::getline(std::cin, line));
    if (terminal) {
        tcsetattr(STDIN_FILENO, TCSANOW, &old);
        signals.giveBack(); // before the flag: a signal now is the caller's to handle
        g_promptQuiet = 0;
        std::fputs("\n", stderr);
    }
    QString s = got ? QString::fromStdString(line) : QString();
    if (s.endsWith(u'\r'))
        s.chop(1);
    return s;
}

Result<Actor> signInFromStdin(const Connection &c, const QString &user, const QString &where)
{
    if (user.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("no staff account to sign in"),
                         QStringLiteral("usage"));
    const QByteArray prompt = QStringLiteral("Password for %1: ").arg(user).toLocal8Bit();
    const QString password = readStdinSecret(prompt.constData());
    if (password.isEmpty()) {
        // Never a password (they have a minimum length): a script that forgot to give one,
        // not a guess, so it neither counts towards the lock nor is sent to StaffService.
        spdlog::warn("sign-in of {} not tried: no password on stdin", user.toStdString());
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("no password for %1: give it on the first line of stdin").arg(user),
            QStringLiteral("no_password"));
    }
    auto r = StaffService(c, Clock::system()).authenticate(user, password, where);
    if (!r)
        return r.error();
    if (!r->signedIn())
        return makeError(
            ErrorCode::Forbidden,
            QStringLiteral("sign-in refused for %1 (wrong password, locked or disabled)").arg(user),
            QStringLiteral("sign_in_refused"));
    return r->account.actor();
}

int exitCodeFor(const Error &error)
{
    // Before the code: a refused login is an Unavailable error for the services (a console
    // waits and retries it), but for a script it is no outage to wait out.
    if (error.reason == u"login_refused")
        return LoginRefused;
    if (error.reason == u"missing_privilege") // grants not applied after an upgrade
        return ConfigError;
    switch (error.code) {
    case ErrorCode::Unavailable: return Unavailable;
    case ErrorCode::Newer: return SchemaNewer;
    default: return Failed;
    }
}

int fail(Context &ctx, const Error &error)
{
    ctx.err << "oncepay: " << error.message << Qt::endl;
    return exitCodeFor(error);
}

const QList<ExitCodeMeaning> &exitCodeMeanings()
{
    static const QList<ExitCodeMeaning> meanings = {
        {Ok, "ok"},
        {Failed, "refused or failed: the request was refused (stale, not allowed, invalid) or "
                 "a check found a problem (e.g. audit verify found an altered row)"},
        {Usage, "usage: unknown command, unknown option or a bad or missing argument"},
        {ConfigError, "configuration: the configuration file or environment is malformed, or a"
                      " database login lacks a privilege it needs (run the grants scripts)"},
        {Unavailable, "unavailable: a database or server could not be reached"},
        {SchemaNewer, "schema newer: a database was migrated by a newer OncePay; upgrade first"},
        {LoginRefused, "login refused: a database server refused the configured login (wrong user"
                       " or password, no such database); waiting will not cure it, and the"
                       " systemd units of work and gateway do not restart them on it"},
    };
    return meanings;
}

} // namespace OncePay::Cli
