#include "faultpoint.h"

#include <QByteArray>
#include <QtGlobal>

#include <atomic>
#include <csignal>

namespace OncePay::FaultPoint {

void hit(const char *name)
{
#ifdef ONCEPAY_FAULT_POINTS
    static const QByteArray wanted = qgetenv("ONCEPAY_FAULT");
    if (wanted.isEmpty() || wanted != name)
        return;
    static std::atomic<int> remaining = qEnvironmentVariableIntValue("ONCEPAY_FAULT_AFTER");
    if (remaining.fetch_sub(1) > 0)
        return;
    std::raise(SIGKILL);
#else
    Q_UNUSED(name)
#endif
}

} // namespace OncePay::FaultPoint
