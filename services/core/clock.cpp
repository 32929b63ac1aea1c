#include "clock.h"

#include <QDateTime>

namespace OncePay {

namespace {

class SystemClock final : public Clock {
public:
    qint64 nowMs() const override { return QDateTime::currentMSecsSinceEpoch(); }
};

} // namespace

const Clock &Clock::system()
{
    static const SystemClock clock;
    return clock;
}

qint64 Clock::systemNowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace OncePay
