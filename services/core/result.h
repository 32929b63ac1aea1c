#pragma once

// An expected-style return value: services never throw across layers (STYLE.md).
// Thread contract: plain values, safe to move between threads.

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace OncePay {

enum class ErrorCode {
    Invalid,     // bad input: malformed, out of range, wrong signature
    NotFound,    // the thing asked for does not exist
    Conflict,    // same key, different payload; a rule forbids it
    Stale,       // expected version no longer current
    Forbidden,   // the actor's role may not do this
    Unavailable, // a database or service cannot be reached; retry later
    Corrupt,     // stored data fails its own checks (audit chain, file)
    TooLarge,    // input above a configured bound
    Newer,       // the database schema is newer than this program
    Internal,    // a bug or an unexpected database answer
};

QString errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Internal;
    QString message;
    QString reason; // optional machine-readable reason ("bad_signature", "stale_timestamp", ...)

    QString toString() const { return errorCodeName(code) + QStringLiteral(": ") + message; }
};

template <typename T> class [[nodiscard]] Result {
public:
    Result(T value)
        : m_value(std::move(value))
    {}
    Result(Error error)
        : m_value(std::move(error))
    {}

    bool ok() const { return m_value.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_value); }
    const T &value() const & { return std::get<0>(m_value); }
    T &&value() && { return std::get<0>(std::move(m_value)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }

    const Error &error() const { return std::get<1>(m_value); }

private:
    std::variant<T, Error> m_value;
};

template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
    {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

inline Error makeError(ErrorCode code, QString message, QString reason = {})
{
    return Error{code, std::move(message), std::move(reason)};
}

} // namespace OncePay
