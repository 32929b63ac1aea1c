#pragma once

// A TCP proxy on 127.0.0.1 that forwards every connection to a server, and can stop forwarding
// while keeping the links open: what a proxy or load balancer whose server went silent looks
// like to a client. Frozen, it reads nothing from either side, so the client's kernel still
// gets its data acknowledged (by this process's kernel) and sees a healthy peer — TCP
// keep-alives and tcp_user_timeout notice nothing.
// Thread contract: start, freeze, thaw and port from the test's thread; the forwarding runs on
// a thread of its own until the proxy is destroyed.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace OncePay::Test {

class FreezableProxy {
public:
    FreezableProxy() = default;
    ~FreezableProxy();
    FreezableProxy(const FreezableProxy &) = delete;
    FreezableProxy &operator=(const FreezableProxy &) = delete;

    // Listens on an ephemeral port of 127.0.0.1 and forwards to `host`:`port` (IPv4). False
    // when it cannot listen.
    bool start(const char *host, int port);
    int port() const { return m_port; }

    // Stops forwarding; forwards again after `atMost` (so that a test whose client never gives
    // up fails instead of hanging), or at thaw().
    void freeze(std::chrono::milliseconds atMost = std::chrono::seconds(20))
    {
        m_thawAt = std::chrono::steady_clock::now() + atMost;
        m_frozen = true;
    }
    void thaw() { m_frozen = false; }
    // Links accepted so far.
    int accepted() const { return m_accepted; }

private:
    void run();

    int m_listen = -1;
    int m_port = 0;
    std::uint32_t m_target = 0; // network order
    int m_targetPort = 0;
    std::atomic<bool> m_frozen{false};
    std::atomic<std::chrono::steady_clock::time_point> m_thawAt{};
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_accepted{0};
    std::thread m_thread;
};

} // namespace OncePay::Test
