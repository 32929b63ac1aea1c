#include "simulationoptions.h"

namespace OncePay {

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
