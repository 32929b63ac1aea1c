#include "result.h"

namespace OncePay {

QString errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Invalid: return QStringLiteral("invalid");
    case ErrorCode::NotFound: return QStringLiteral("not found");
    case ErrorCode::Conflict: return QStringLiteral("conflict");
    case ErrorCode::Stale: return QStringLiteral("stale");
    case ErrorCode::Forbidden: return QStringLiteral("forbidden");
    case ErrorCode::Unavailable: return QStringLiteral("unavailable");
    case ErrorCode::Corrupt: return QStringLiteral("corrupt");
    case ErrorCode::TooLarge: return QStringLiteral("too large");
    case ErrorCode::Newer: return QStringLiteral("newer schema");
    case ErrorCode::Internal: return QStringLiteral("internal");
    }
    return QStringLiteral("unknown");
}

} // namespace OncePay
