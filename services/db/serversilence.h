#pragma once

// Ends a read that a PostgreSQL server has stopped answering. libpq has no read time-out: a
// statement sent to a server process that was stopped, or through a proxy that keeps the link
// open but no longer forwards (its kernel acknowledges everything, so TCP keep-alives and
// tcp_user_timeout see a healthy peer), waits for ever and holds its thread with it — in the
// console, every pool thread in turn, until it is restarted. This is the PostgreSQL counterpart
// of the read time-out the console's MariaDB connections get (Connection::livenessDefaults).
//
// A Scope covers one short job on one connection (a console page's read, a health check): for
// its lifetime the connection's socket is watched. One thread wakes a few times per limit and
// asks the kernel about each watched socket (TCP_INFO). When the scope has lasted `limit()`
// (60 s unless set), the last data sent on the socket is no older than the last data received
// (a request may be waiting for its answer) and nothing has come in for `limit()`, it shuts the
// socket down (shutdown(2): the descriptor stays the connection's, nothing else can be hit).
// libpq sees the link end, the statement fails as a lost connection (Unavailable) and the job's
// owner reopens, as after a network cut. A job that keeps receiving (a long export) is never
// cut; one the server works on silently for longer than the limit is — as MariaDB's read
// time-out does; the console has no such read. Outside a scope a connection is never touched:
// the engine's statements may wait for long on purpose (a lock, an import) and are never
// watched. Not watched: SQLite, MariaDB (its read time-out), a Unix-domain socket.
// The kernel's times count in clock ticks (1-4 ms): a request sent in the same tick as the last
// answer came in counts as waiting, so a link left idle inside a scope for the limit right after
// such an exchange is cut too. Scopes therefore cover jobs that use their connection throughout
// (every console read does); a job that leaves a connection idle for long is not scoped on it.
// Thread contract: a Scope lives on the thread that owns its connection; the static functions
// may be called from any thread.

#include <QString>

#include <chrono>
#include <cstdint>

namespace OncePay {

class Connection;

class ServerSilenceWatch {
public:
    static constexpr std::chrono::milliseconds kDefaultLimit{60000};

    class Scope {
    public:
        // Watches `connection`'s socket until the scope ends, if it is a TCP link to a
        // PostgreSQL server; otherwise does nothing. `what` names the job in the log line
        // written when the link is cut ("console read: orders").
        Scope(const Connection &connection, const QString &what);
        ~Scope();
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

        bool watching() const { return m_socket >= 0; }

    private:
        int m_socket = -1;
    };

    // How many sockets are watched now (tests).
    static int watchedCount();

    // The silence after which a job is given up; process-wide (tests shorten it).
    static std::chrono::milliseconds limit();
    static void setLimit(std::chrono::milliseconds limit);

    // The rule, from the kernel's milliseconds since data was last sent and last received on
    // the socket: the scope has lasted `limit`, data was sent no earlier than data last came
    // in, and nothing came in for `limit`.
    static bool silentTooLong(std::chrono::milliseconds scopeAge, std::uint32_t msSinceSent,
                              std::uint32_t msSinceReceived, std::chrono::milliseconds limit);
};

} // namespace OncePay
