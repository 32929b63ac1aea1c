#include "serversilence.h"

#include "connection.h"

#include <QSqlDriver>
#include <QVariant>

#include <spdlog/spdlog.h>

#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace OncePay {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Watched {
    QString what;
    Clock::time_point since; // the outermost scope's start
    int scopes = 0;
    bool cut = false;
};

// The watched sockets and the thread that looks at them. The thread decides and shuts a
// socket down while holding `mutex`, and a scope unregisters under it: once ~Scope has
// returned, its socket is never touched again (and only then may the connection close it).
struct Watch {
    std::mutex mutex;
    std::condition_variable wake;
    std::map<int, Watched> sockets;
    std::thread thread;
    bool stop = false;
    std::atomic<long long> limitMs{ServerSilenceWatch::kDefaultLimit.count()};

    ~Watch()
    {
        {
            std::lock_guard lock(mutex);
            stop = true;
        }
        wake.notify_all();
        if (thread.joinable())
            thread.join();
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
        while (!stop) {
            wake.wait_for(lock, period());
            if (stop)
                break;
            const milliseconds limit(limitMs.load());
            const Clock::time_point now = Clock::now();
            for (auto &[socket, watched] : sockets) {
                if (watched.cut)
                    continue;
                tcp_info info{};
                socklen_t length = sizeof info;
                if (::getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0)
                    continue;
                const auto age = std::chrono::duration_cast<milliseconds>(now - watched.since);
                if (!ServerSilenceWatch::silentTooLong(age, info.tcpi_last_data_sent,
                                                       info.tcpi_last_data_recv, limit))
                    continue;
                ::shutdown(socket, SHUT_RDWR);
                watched.cut = true;
                spdlog::error("{}: the PostgreSQL server has sent nothing for {} s while it "
                              "waited for an answer; the link is closed so that the wait ends "
                              "as a lost connection",
                              watched.what.toStdString(), info.tcpi_last_data_recv / 1000);
            }
        }
    }
};

Watch &watch()
{
    static Watch w;
    return w;
}

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
    const int socket = postgresSocket(connection);
    if (socket < 0 || !isTcp(socket))
        return;
    Watch &w = watch();
    std::lock_guard lock(w.mutex);
    Watched &watched = w.sockets[socket];
    if (watched.scopes++ == 0) {
        watched.what =
            what + QStringLiteral(" (") + connection.profile().describe() + QLatin1Char(')');
        watched.since = Clock::now();
    }
    if (!w.thread.joinable())
        w.thread = std::thread([&w] { w.run(); });
    m_socket = socket;
}

ServerSilenceWatch::Scope::~Scope()
{
    if (m_socket < 0)
        return;
    Watch &w = watch();
    std::lock_guard lock(w.mutex);
    auto it = w.sockets.find(m_socket);
    if (it != w.sockets.end() && --it->second.scopes == 0)
        w.sockets.erase(it);
}

int ServerSilenceWatch::watchedCount()
{
    Watch &w = watch();
    std::lock_guard lock(w.mutex);
    return int(w.sockets.size());
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

bool ServerSilenceWatch::silentTooLong(std::chrono::milliseconds scopeAge,
                                       std::uint32_t msSinceSent, std::uint32_t msSinceReceived,
                                       std::chrono::milliseconds limit)
{
    return scopeAge >= limit && msSinceSent <= msSinceReceived &&
           milliseconds(msSinceReceived) >= limit;
}

} // namespace OncePay
