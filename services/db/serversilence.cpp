#include "serversilence.h"

#include "connection.h"

#include <QSqlDriver>
#include <QVariant>

#include <spdlog/spdlog.h>

#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace OncePay {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

} // namespace

// One scoped connection: the scope's own copy of its socket (closed when the scope ends, so
// the number cannot be reused while it is watched) and since when a statement waits (0: none).
struct ServerSilenceWatch::Entry {
    QString what;
    int socket = -1;   // the scope's copy
    int original = -1; // the connection's own descriptor, the one libpq polls
    pid_t thread = 0;  // the thread that owns the connection
    std::atomic<qint64> waitingSinceNs{0};
    // Under the watch's mutex: since when the owning thread has been seen blocked reading the
    // socket (0: it was not at the last look), and whether the link was cut.
    qint64 blockedSinceNs = 0;
    bool cut = false;
};

namespace {

using Entry = ServerSilenceWatch::Entry;

// Whether `thread` of this process is blocked in poll(2)/ppoll(2) waiting on descriptor `fd`
// — how libpq waits for the server in every blocking call: a statement's first answer, a
// later row, a DEALLOCATE as a statement goes, a COMMIT. Read from the kernel's view of the
// thread (/proc/self/task/<tid>/syscall: the call and its arguments) and the pollfd it waits
// on (through /proc/self/mem, which reads nothing if the call has ended meanwhile).
bool blockedReadingOn(pid_t thread, int fd)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%d/syscall", int(thread));
    const int file = ::open(path, O_RDONLY | O_CLOEXEC);
    if (file < 0)
        return false;
    char text[256] = {};
    const ssize_t n = ::read(file, text, sizeof text - 1);
    ::close(file);
    if (n <= 0)
        return false;
    long number = -1;
    unsigned long fds = 0, count = 0;
    if (std::sscanf(text, "%ld %lx %lx", &number, &fds, &count) != 3)
        return false;
    bool polling = false;
#ifdef SYS_poll
    polling = polling || number == SYS_poll;
#endif
#ifdef SYS_ppoll
    polling = polling || number == SYS_ppoll;
#endif
    if (!polling || count == 0 || count > 64)
        return false;
    const int memory = ::open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    if (memory < 0)
        return false;
    std::vector<pollfd> polled(count);
    const ssize_t read = ::pread(memory, polled.data(), count * sizeof(pollfd), off_t(fds));
    ::close(memory);
    if (read != ssize_t(count * sizeof(pollfd)))
        return false;
    return std::any_of(polled.begin(), polled.end(),
                       [fd](const pollfd &p) { return p.fd == fd && (p.events & POLLIN); });
}

// The scoped connections and the thread that looks at them. The thread decides and shuts a
// socket down while holding `mutex`; a scope unregisters under it before closing its copy.
struct Watch {
    std::mutex mutex;
    std::condition_variable wake;
    std::set<std::shared_ptr<Entry>> entries;
    std::thread thread;
    bool stopping = false;
    std::atomic<long long> limitMs{ServerSilenceWatch::kDefaultLimit.count()};

    ~Watch() { stop(); }

    // For good: once the process is ending, no scope starts the thread again.
    void stop()
    {
        std::thread ending;
        {
            std::lock_guard lock(mutex);
            stopping = true;
            ending = std::move(thread);
        }
        wake.notify_all();
        if (ending.joinable())
            ending.join();
    }

    // Started with the first scope (under `mutex`).
    void ensureRunning()
    {
        if (!stopping && !thread.joinable())
            thread = std::thread([this] { run(); });
    }

    // Several looks per limit, at most one a second: a cut comes at most a quarter of the
    // limit (or a second) late.
    milliseconds period() const
    {
        return std::clamp(milliseconds(limitMs.load() / 4), milliseconds(20), milliseconds(1000));
    }

    void run()
    {
        std::unique_lock lock(mutex);
        while (!stopping) {
            wake.wait_for(lock, period());
            if (stopping)
                break;
            std::vector<std::string> cuts;
            const milliseconds limit(limitMs.load());
            const qint64 now = nowNs();
            for (const auto &entry : entries) {
                if (entry->cut)
                    continue;
                // Waiting: a statement said so (Wait), or the owning thread has been seen
                // blocked reading the socket at every look since blockedSinceNs.
                if (!blockedReadingOn(entry->thread, entry->original))
                    entry->blockedSinceNs = 0;
                else if (entry->blockedSinceNs == 0)
                    entry->blockedSinceNs = now;
                const qint64 marked = entry->waitingSinceNs.load();
                const qint64 blocked = entry->blockedSinceNs;
                const qint64 since = marked == 0    ? blocked
                                     : blocked == 0 ? marked
                                                    : std::min(marked, blocked);
                if (since == 0)
                    continue;
                tcp_info info{};
                socklen_t length = sizeof info;
                if (::getsockopt(entry->socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0)
                    continue;
                const milliseconds waited((now - since) / 1000000);
                if (!ServerSilenceWatch::silentTooLong(waited, info.tcpi_last_data_recv, limit))
                    continue;
                ::shutdown(entry->socket, SHUT_RDWR);
                entry->cut = true;
                cuts.push_back(entry->what.toStdString());
            }
            if (cuts.empty())
                continue;
            lock.unlock(); // logged outside the lock: a sink may take its time
            for (const std::string &what : cuts)
                spdlog::error("{}: the PostgreSQL server has sent nothing for {} s while a "
                              "statement waited for its answer; the link is closed so that the "
                              "wait ends as a lost connection",
                              what, limit.count() / 1000);
            lock.lock();
        }
    }
};

Watch &watch()
{
    static Watch w;
    return w;
}

// The innermost scope of this thread.
thread_local ServerSilenceWatch::Scope *t_innermost = nullptr;

// The socket under a PostgreSQL connection (QPSQL hands its PGconn out as the driver's handle),
// or -1.
int postgresSocket(const Connection &connection)
{
    if (connection.dialect() != Dialect::Postgres || !connection.isOpen())
        return -1;
    const QSqlDatabase db = connection.db();
    if (!db.driver())
        return -1;
    const QVariant handle = db.driver()->handle();
    // Qt names the type as libpq declares it (typedef struct pg_conn PGconn).
    if (!handle.isValid() || (std::strcmp(handle.typeName(), "pg_conn*") != 0 &&
                              std::strcmp(handle.typeName(), "PGconn*") != 0))
        return -1;
    auto *pg = *static_cast<PGconn *const *>(handle.constData());
    return pg ? PQsocket(pg) : -1;
}

bool isTcp(int socket)
{
    tcp_info info{};
    socklen_t length = sizeof info;
    return ::getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) == 0;
}

} // namespace

ServerSilenceWatch::Scope::Scope(const Connection &connection, const QString &what)
{
    m_outer = t_innermost;
    t_innermost = this;
    const int socket = postgresSocket(connection);
    if (socket < 0 || !isTcp(socket))
        return;
    auto entry = std::make_shared<Entry>();
    entry->socket = ::fcntl(socket, F_DUPFD_CLOEXEC, 0);
    if (entry->socket < 0)
        return;
    entry->original = socket;
    entry->thread = ::gettid();
    entry->what = what + QStringLiteral(" (") + connection.profile().describe() + QLatin1Char(')');
    m_connectionName = connection.db().connectionName();
    Watch &w = watch();
    std::lock_guard lock(w.mutex);
    w.entries.insert(entry);
    w.ensureRunning();
    m_entry = std::move(entry);
}

ServerSilenceWatch::Scope::~Scope()
{
    t_innermost = m_outer;
    if (!m_entry)
        return;
    {
        Watch &w = watch();
        std::lock_guard lock(w.mutex);
        w.entries.erase(m_entry);
    }
    ::close(m_entry->socket);
}

ServerSilenceWatch::Wait::Wait(const QSqlDatabase &db)
{
    if (!t_innermost)
        return;
    const QString name = db.connectionName();
    for (Scope *s = t_innermost; s; s = s->m_outer) {
        if (!s->m_entry || s->m_connectionName != name)
            continue;
        qint64 none = 0; // a wait inside a wait (a statement run by one) keeps the outer start
        if (s->m_entry->waitingSinceNs.compare_exchange_strong(none, nowNs()))
            m_entry = s->m_entry.get();
        return;
    }
}

ServerSilenceWatch::Wait::~Wait()
{
    if (m_entry)
        m_entry->waitingSinceNs.store(0);
}

int ServerSilenceWatch::watchedCount()
{
    Watch &w = watch();
    std::lock_guard lock(w.mutex);
    return int(w.entries.size());
}

std::chrono::milliseconds ServerSilenceWatch::limit()
{
    return milliseconds(watch().limitMs.load());
}

void ServerSilenceWatch::setLimit(std::chrono::milliseconds limit)
{
    Watch &w = watch();
    w.limitMs.store(std::max<long long>(1, limit.count()));
    w.wake.notify_all(); // the next look at the new pace
}

void ServerSilenceWatch::stop()
{
    watch().stop();
}

bool ServerSilenceWatch::silentTooLong(std::chrono::milliseconds waited,
                                       std::uint32_t msSinceReceived,
                                       std::chrono::milliseconds limit)
{
    return waited >= limit && milliseconds(msSinceReceived) >= limit;
}

} // namespace OncePay
