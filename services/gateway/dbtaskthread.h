#pragma once

// A thread that owns its own database connections (STYLE.md rule 3: opened inside the
// thread, never shared) and runs queued tasks on them, so that the HTTP thread never blocks
// on a database: the gateway records rejections and answers /healthz and /metrics this way.
// Connections open (and migrate) lazily and are reopened after a task reports them broken.
// Thread contract: post() and stop() from any thread; tasks run on the owned thread, in order.

#include "config/appconfig.h"
#include "db/connection.h"

#include <QThread>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

namespace OncePay {

class DbTaskThread {
public:
    // Handed to a task: the thread's connections.
    class Access {
    public:
        // Opens the role's connection on first use (or after reset()).
        Result<const Connection *> get(DbRole role);
        // Drops a connection that failed, so the next task reconnects.
        void reset(DbRole role) { m_open.erase(role); }
        // Whether the role's connection is open already (kept from an earlier task).
        bool isOpen(DbRole role) const { return m_open.contains(role); }

    private:
        friend class DbTaskThread;
        std::map<DbRole, ConnectionProfile> m_profiles;
        std::map<DbRole, Connection> m_open;
        QString m_purpose;
    };
    using Task = std::function<void(Access &)>;

    DbTaskThread(QString purpose, std::map<DbRole, ConnectionProfile> profiles, int maxQueue);
    ~DbTaskThread();
    DbTaskThread(const DbTaskThread &) = delete;
    DbTaskThread &operator=(const DbTaskThread &) = delete;

    void start();
    // False when the queue is full or the thread is stopping: the caller answers without it.
    bool post(Task task);
    // Runs what is queued, then ends the thread (closing its connections there).
    void stop();

private:
    void run();

    QString m_purpose;
    std::map<DbRole, ConnectionProfile> m_profiles;
    int m_maxQueue;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Task> m_queue;
    bool m_stopping = false;
    QThread *m_thread = nullptr;
};

} // namespace OncePay
