#pragma once

// A loopback TCP proxy in front of a database server that a test can take down and bring
// back: down() resets every open connection (the client sees "server closed the connection",
// the server rolls back whatever was in flight, as when the server restarts) and refuses
// new ones by closing them at once; up() lets connections through again. With it a test
// can restart "the database" under a running worker or gateway without touching the shared
// test server that other tests use at the same time.
// freeze() is the other outage: the proxy stops forwarding but keeps every link open and reads
// nothing, so the client's data is still acknowledged by this process's kernel — what a proxy
// or load balancer whose server went silent looks like (TCP keep-alives and tcp_user_timeout
// see a healthy peer); thaw() forwards again.
// Thread contract: start/down/up/stop from the test's thread; freeze/thaw/freezeWhenClientSends
// from any thread (a job freezing its own link once it is open); one pump thread inside.

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

// Declares `proxy`, a TcpOutageProxy started in front of `profile`'s server, and points
// `profile` at it; skips the test (with the reason) when the server is not on 127.0.0.1.
#define ONCEPAY_PROXY_IN_FRONT(proxy, profile)                                                     \
    if ((profile).host != QStringLiteral("127.0.0.1"))                                             \
        QSKIP("the proxy forwards to an IPv4 address; the test server is not on 127.0.0.1");       \
    OncePay::Test::TcpOutageProxy proxy(QStringLiteral("127.0.0.1"), (profile).port);              \
    QVERIFY((proxy).start() > 0);                                                                  \
    (profile).port = (proxy).port();

namespace OncePay::Test {

class TcpOutageProxy {
public:
    TcpOutageProxy(QString upstreamHost, int upstreamPort)
        : m_host(std::move(upstreamHost))
        , m_upstreamPort(upstreamPort)
    {}
    ~TcpOutageProxy() { stop(); }
    TcpOutageProxy(const TcpOutageProxy &) = delete;
    TcpOutageProxy &operator=(const TcpOutageProxy &) = delete;

    // Listens on 127.0.0.1 and a free port; returns it (0 on failure).
    int start()
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
            ::listen(m_listen, 64) != 0)
            return 0;
        socklen_t len = sizeof a;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { pump(); });
        return m_port;
    }

    int port() const { return m_port; }

    // The outage begins: open links are reset, new ones are closed on arrival.
    void down()
    {
        m_up.store(false);
        m_resetAll.store(true);
        while (m_resetAll.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    void up() { m_up.store(true); }

    // Stops forwarding, the links kept open; forwards again after `atMost` (so that a test
    // whose client never gives up fails instead of hanging), or at thaw().
    void freeze(std::chrono::milliseconds atMost = std::chrono::seconds(20))
    {
        m_thawAt.store(std::chrono::steady_clock::now() + atMost);
        m_frozen.store(true);
    }
    void thaw() { m_frozen.store(false); }

    // Freezes as freeze(atMost) does once a client sends bytes containing `pattern` (in one
    // read), after forwarding them: the server's answer waits unread, as when the server goes
    // silent on that statement. For a job that opens its links itself, where the test has no
    // moment between the link opening and the statement to freeze at.
    void freezeWhenClientSends(const QByteArray &pattern,
                               std::chrono::milliseconds atMost = std::chrono::seconds(20))
    {
        const std::lock_guard lock(m_triggerMutex);
        m_trigger = pattern;
        m_triggerThaw = atMost;
    }

    // Connections accepted while up (to see that a client really reconnected).
    int accepted() const { return m_accepted.load(); }

    void stop()
    {
        if (!m_thread.joinable())
            return;
        m_stopping.store(true);
        m_thread.join();
        for (const Pair &p : m_pairs)
            closePair(p);
        m_pairs.clear();
        ::close(m_listen);
    }

private:
    struct Pair {
        int client;
        int server;
    };

    static void closePair(const Pair &p)
    {
        // SO_LINGER 0: a reset, not an orderly close, as when a server process dies.
        linger l{1, 0};
        ::setsockopt(p.client, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        ::setsockopt(p.server, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        ::close(p.client);
        ::close(p.server);
    }

    int connectUpstream() const
    {
        const int s = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(quint16(m_upstreamPort));
        ::inet_pton(AF_INET, m_host == u"localhost" ? "127.0.0.1" : qPrintable(m_host),
                    &a.sin_addr);
        if (::connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
            ::close(s);
            return -1;
        }
        return s;
    }

    bool forward(int from, int to, bool fromClient)
    {
        char buf[65536];
        const ssize_t n = ::recv(from, buf, sizeof buf, 0);
        if (n <= 0)
            return false;
        for (ssize_t sent = 0; sent < n;) {
            const ssize_t w = ::send(to, buf + sent, size_t(n - sent), MSG_NOSIGNAL);
            if (w <= 0)
                return false;
            sent += w;
        }
        if (fromClient) {
            const std::lock_guard lock(m_triggerMutex);
            if (!m_trigger.isEmpty() &&
                QByteArrayView(buf, n).indexOf(QByteArrayView(m_trigger)) >= 0) {
                m_trigger.clear();
                freeze(m_triggerThaw);
            }
        }
        return true;
    }

    void pump()
    {
        while (!m_stopping.load()) {
            if (m_resetAll.load()) {
                for (const Pair &p : m_pairs)
                    closePair(p);
                m_pairs.clear();
                m_resetAll.store(false);
            }
            if (m_frozen.load() && std::chrono::steady_clock::now() >= m_thawAt.load())
                m_frozen.store(false);
            // Frozen: the links are neither polled nor read (their data waits in the kernel).
            const size_t polled = m_frozen.load() ? 0 : m_pairs.size();
            std::vector<pollfd> fds{{m_listen, POLLIN, 0}};
            for (size_t i = 0; i < polled; ++i) {
                fds.push_back({m_pairs[i].client, POLLIN, 0});
                fds.push_back({m_pairs[i].server, POLLIN, 0});
            }
            if (::poll(fds.data(), nfds_t(fds.size()), 20) <= 0)
                continue;
            if (fds[0].revents & POLLIN) {
                const int c = ::accept(m_listen, nullptr, nullptr);
                if (c >= 0) {
                    const int s = m_up.load() ? connectUpstream() : -1;
                    if (s < 0) {
                        linger l{1, 0};
                        ::setsockopt(c, SOL_SOCKET, SO_LINGER, &l, sizeof l);
                        ::close(c);
                    } else {
                        m_pairs.push_back({c, s});
                        ++m_accepted;
                    }
                }
            }
            std::vector<Pair> alive;
            for (size_t i = 0; i < polled; ++i) {
                const pollfd &cf = fds[1 + 2 * i];
                const pollfd &sf = fds[2 + 2 * i];
                bool ok = true;
                if (cf.revents & (POLLIN | POLLHUP | POLLERR))
                    ok = forward(m_pairs[i].client, m_pairs[i].server, true);
                if (ok && !m_frozen.load() && (sf.revents & (POLLIN | POLLHUP | POLLERR)))
                    ok = forward(m_pairs[i].server, m_pairs[i].client, false);
                if (ok)
                    alive.push_back(m_pairs[i]);
                else
                    closePair(m_pairs[i]);
            }
            // Pairs not polled (accepted in this round, or all while frozen): kept.
            for (size_t i = polled; i < m_pairs.size(); ++i)
                alive.push_back(m_pairs[i]);
            m_pairs = std::move(alive);
        }
    }

    QString m_host;
    int m_upstreamPort;
    int m_listen = -1;
    int m_port = 0;
    std::thread m_thread;
    std::vector<Pair> m_pairs; // pump thread only (and stop() after the join)
    std::atomic<bool> m_up{true};
    std::atomic<bool> m_resetAll{false};
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_frozen{false};
    std::atomic<std::chrono::steady_clock::time_point> m_thawAt{};
    std::atomic<int> m_accepted{0};
    std::mutex m_triggerMutex;
    QByteArray m_trigger; // freezeWhenClientSends
    std::chrono::milliseconds m_triggerThaw{};
};

} // namespace OncePay::Test
