#include "simulationoptions.h"

#include <QDateTime>

namespace OncePay {

namespace {

constexpr qint64 kDayMs = 24LL * 3600 * 1000;

QString dateOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).date().toString(Qt::ISODate);
}

} // namespace

qint64 SimulationOptions::latestStart(int days, const Clock &now)
{
    return now.nowMs() / kDayMs * kDayMs - qint64(days + tailDays(days)) * kDayMs;
}

Result<qint64> SimulationOptions::startOfDate(const QString &date)
{
    const QDate d = QDate::fromString(date, Qt::ISODate);
    if (date.size() != 10 || !d.isValid())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("--start must be a date YYYY-MM-DD, not '%1'").arg(date));
    return QDateTime(d, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
}

Result<void> SimulationOptions::checkStart(const Clock &now) const
{
    if (startMs % kDayMs != 0)
        return makeError(ErrorCode::Invalid, QStringLiteral("--start must be a UTC midnight"));
    if (startMs < kEarliestStartMs)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("--start must be 2000-01-01 or later, not %1").arg(dateOf(startMs)));
    const qint64 latest = latestStart(days, now);
    if (startMs > latest) {
        const qint64 end = startMs + qint64(days) * kDayMs; // the day after the last
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("--start %1 with --days %2 would simulate up to %3 and its last "
                           "retries and settlements up to %4, which has not passed yet (today "
                           "is %5 UTC); the latest start for %2 days is %6")
                .arg(dateOf(startMs))
                .arg(days)
                .arg(dateOf(end - kDayMs), dateOf(end + (tailDays(days) - 1) * kDayMs),
                     dateOf(now.nowMs()), dateOf(latest)));
    }
    return {};
}

Result<FaultProfile> FaultProfile::named(const QString &name)
{
    FaultProfile p;
    if (name.isEmpty() || name == u"realistic")
        return p;
    if (name == u"calm") {
        p = FaultProfile{};
        p.name = name;
        p.declineThenRetry = p.lateStale = p.refundFirst = p.failureAfterSuccess = p.mismatch =
            p.poison = 0;
        p.duplicateBurst = p.channelRetry = p.forgedSignature = p.workerCrash = 0;
        p.auditOutage = false;
        return p;
    }
    if (name == u"hostile") {
        p.name = name;
        p.declineThenRetry = 0.2;
        p.lateStale = 0.5;
        p.refunded = 0.1;
        p.refundFirst = 0.5;
        p.failureAfterSuccess = 0.05;
        p.mismatch = 0.02;
        p.poison = 0.02;
        p.duplicateBurst = 0.5;
        p.channelRetry = 0.2;
        p.forgedSignature = 0.05;
        p.workerCrash = 0.05;
        return p;
    }
    return makeError(
        ErrorCode::Invalid,
        QStringLiteral("unknown fault profile '%1' (realistic, calm, hostile)").arg(name));
}

Result<void> FaultProfile::applyOverrides(const QString &assignments)
{
    const QMap<QString, double *> rates = {
        {QStringLiteral("abandoned"), &abandoned},
        {QStringLiteral("cancelled"), &cancelled},
        {QStringLiteral("declineThenRetry"), &declineThenRetry},
        {QStringLiteral("lateStale"), &lateStale},
        {QStringLiteral("refunded"), &refunded},
        {QStringLiteral("refundFirst"), &refundFirst},
        {QStringLiteral("failureAfterSuccess"), &failureAfterSuccess},
        {QStringLiteral("mismatch"), &mismatch},
        {QStringLiteral("poison"), &poison},
        {QStringLiteral("duplicateBurst"), &duplicateBurst},
        {QStringLiteral("channelRetry"), &channelRetry},
        {QStringLiteral("forgedSignature"), &forgedSignature},
        {QStringLiteral("workerCrash"), &workerCrash},
    };
    for (const QString &pair : assignments.split(u',', Qt::SkipEmptyParts)) {
        const QString key = pair.section(u'=', 0, 0).trimmed();
        bool ok = false;
        const double value = pair.section(u'=', 1).trimmed().toDouble(&ok);
        if (key == u"auditOutage" && (pair.endsWith(u"=0") || pair.endsWith(u"=1"))) {
            auditOutage = pair.endsWith(u"=1");
            continue;
        }
        if (!rates.contains(key))
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("unknown fault rate '%1'").arg(key));
        if (!ok || value < 0 || value > 1)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("fault rate %1 must be between 0 and 1").arg(key));
        *rates.value(key) = value;
    }
    return {};
}

} // namespace OncePay
