#include "freezableproxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <utility>

namespace OncePay::Test {

namespace {

// One proxied link: the client's socket and the server's.
struct Pair {
    int client = -1;
    int server = -1;
};

void closePair(Pair &p)
{
    ::close(p.client);
    ::close(p.server);
    p.client = p.server = -1;
}

// Moves what is readable on `from` to `to`; false when either side ended.
bool pump(int from, int to)
{
    std::array<char, 16384> buffer{};
    const ssize_t n = ::read(from, buffer.data(), buffer.size());
    if (n <= 0)
        return false;
    ssize_t written = 0;
    while (written < n) {
        const ssize_t w =
            ::send(to, buffer.data() + written, std::size_t(n - written), MSG_NOSIGNAL);
        if (w <= 0)
            return false;
        written += w;
    }
    return true;
}

} // namespace

FreezableProxy::~FreezableProxy()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_listen >= 0)
        ::close(m_listen);
}

bool FreezableProxy::start(const char *host, int port)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    if (m_listen < 0)
        return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(m_listen, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(m_listen, 16) != 0 ||
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return false;
    m_port = ntohs(address.sin_port);
    if (::inet_pton(AF_INET, host, &m_target) != 1)
        return false;
    m_targetPort = port;
    m_thread = std::thread([this] { run(); });
    return true;
}

void FreezableProxy::run()
{
    std::vector<Pair> pairs;
    while (!m_stop) {
        std::vector<pollfd> fds{{m_listen, POLLIN, 0}};
        if (m_frozen && std::chrono::steady_clock::now() >= m_thawAt.load())
            m_frozen = false;
        const bool frozen = m_frozen;
        if (!frozen)
            for (const Pair &p : pairs) {
                fds.push_back({p.client, POLLIN, 0});
                fds.push_back({p.server, POLLIN, 0});
            }
        if (::poll(fds.data(), fds.size(), 20) < 0)
            continue;
        if (frozen)
            continue;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const pollfd &c = fds[1 + 2 * i];
            const pollfd &s = fds[2 + 2 * i];
            bool alive = true;
            if (c.revents & (POLLIN | POLLHUP | POLLERR))
                alive = pump(pairs[i].client, pairs[i].server);
            if (alive && (s.revents & (POLLIN | POLLHUP | POLLERR)))
                alive = pump(pairs[i].server, pairs[i].client);
            if (!alive)
                closePair(pairs[i]);
        }
        std::erase_if(pairs, [](const Pair &p) { return p.client < 0; });
        // New links after the polled ones were served: `fds` holds only those polled.
        if (fds[0].revents & POLLIN) {
            const int client = ::accept(m_listen, nullptr, nullptr);
            if (client >= 0) {
                const int server = ::socket(AF_INET, SOCK_STREAM, 0);
                sockaddr_in target{};
                target.sin_family = AF_INET;
                target.sin_addr.s_addr = m_target;
                target.sin_port = htons(std::uint16_t(m_targetPort));
                if (server >= 0 &&
                    ::connect(server, reinterpret_cast<sockaddr *>(&target), sizeof target) == 0) {
                    pairs.push_back({client, server});
                    ++m_accepted;
                } else {
                    ::close(client);
                    if (server >= 0)
                        ::close(server);
                }
            }
        }
    }
    for (Pair &p : pairs)
        closePair(p);
}

} // namespace OncePay::Test
