#pragma once

// Ends a read that a PostgreSQL server has stopped answering. libpq has no read time-out: a
// statement sent to a server process that was stopped, or through a proxy that keeps the link
// open but no longer forwards (its kernel acknowledges everything, so TCP keep-alives and
// tcp_user_timeout see a healthy peer), waits for ever and holds its thread with it — in the
// console, every pool thread in turn, until it is restarted. This is the PostgreSQL counterpart
// of the read time-out the console's MariaDB connections get (Connection::livenessDefaults).
//
// A Scope covers one job on one connection (a console page's read, an audit job's audit link,
// a health check). One thread looks at the scoped connections a few times per limit. A
// statement waits for the server when it says so (Sql::exec and kept statements hold a Wait
// over prepare, run and the first row) or when the connection's thread is seen blocked reading
// its socket (poll(2) on it, at every look: how libpq waits in every blocking call — later
// rows, a DEALLOCATE as a statement goes, a COMMIT). A wait that has lasted `limit()` (60 s
// unless set) while the kernel received nothing on the socket for as long (TCP_INFO) has the
// socket shut down (shutdown(2) on the scope's own copy of the descriptor: no other file can be
// hit). libpq sees the link end, the statement fails as a lost connection (Unavailable) and the
// job's owner reopens, as after a network cut. Never cut: a statement still receiving, a
// connection idle between statements (a job's own work — hashing, parsing — however long),
// anything outside a scope: the engine's statements may wait for long on purpose (a lock, an
// import) and are never scoped. Connection::open scopes its own session set-up statements (for
// every connection: none of them waits for long). Not watched: SQLite, MariaDB (its read
// time-out), a Unix-domain socket; not covered: libpq's connect and login (bounded by its
// connect_timeout) and the statements Qt's PostgreSQL driver runs inside QSqlDatabase::open
// (client encoding, date style, server version), before the link's socket can be watched.
// Like MariaDB's read time-out, a write the server works on silently for longer than the limit
// is ended too, its outcome then unknown to the console — as after any link lost in a COMMIT.
// Thread contract: a Scope and a Wait live on the thread that owns their connection (Waits only
// see Scopes of their own thread); the static functions may be called from any thread.

#include <QString>

#include <chrono>
#include <cstdint>
#include <memory>

class QSqlDatabase;

namespace OncePay {

class Connection;

class ServerSilenceWatch {
public:
    static constexpr std::chrono::milliseconds kDefaultLimit{60000};

    struct Entry;
    class Wait;

    class Scope {
    public:
        // Watches `connection`'s statements until the scope ends, if it is a TCP link to a
        // PostgreSQL server; otherwise does nothing. `what` names the job in the log line
        // written when the link is cut ("console read (search)").
        Scope(const Connection &connection, const QString &what);
        ~Scope();
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

        bool watching() const { return m_entry != nullptr; }

    private:
        friend class Wait;
        std::shared_ptr<Entry> m_entry;
        QString m_connectionName;
        Scope *m_outer = nullptr; // the thread's previous innermost scope
    };

    // A statement on `db` waiting for the server: watched while it lives if a Scope of this
    // thread covers `db`'s connection (cheap otherwise: one thread-local read).
    class Wait {
    public:
        explicit Wait(const QSqlDatabase &db);
        ~Wait();
        Wait(const Wait &) = delete;
        Wait &operator=(const Wait &) = delete;

    private:
        Entry *m_entry = nullptr;
    };

    // How many connections are watched now (tests).
    static int watchedCount();

    // The silence after which a statement is given up; process-wide (tests shorten it).
    static std::chrono::milliseconds limit();
    static void setLimit(std::chrono::milliseconds limit);

    // Ends the watching thread (joined) for good: nothing is watched afterwards. Called as the
    // process ends, before logging shuts down, so that it never logs into a logger that is gone.
    static void stop();

    // The rule: the statement has waited `limit` and the kernel last received data on the
    // socket `limit` or more ago.
    static bool silentTooLong(std::chrono::milliseconds waited, std::uint32_t msSinceReceived,
                              std::chrono::milliseconds limit);
};

} // namespace OncePay
