#include "adminmodels.h"

#include "common/labels.h"

#include <QCoreApplication>
#include <QDateTime>

namespace OncePay {

namespace {
template <typename Row, typename Display> auto text(Display display)
{
    return [display](const Row &r, int role) -> QVariant {
        return role == Qt::DisplayRole ? QVariant(QString(display(r))) : QVariant();
    };
}
// What each setting means, for people (the keys and ranges are SettingsService's).
QString meaning(const QString &key)
{
    static const QList<QPair<const char *, const char *>> meanings = {
        {"worker.max_attempts",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "Attempts before a message becomes a dead letter")},
        {"worker.lease_seconds",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "How long a worker holds a claimed message")},
        {"worker.backoff_base_ms",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "First retry delay (ms), doubled per attempt")},
        {"worker.backoff_max_ms",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "Longest retry delay (ms)")},
        {"stuck.pending_seconds",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "A message or order in flight longer than this is stuck")},
        {"stuck.idempotency_pending_seconds",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "A request pending longer than this is stuck")},
        {"reconcile.fee_tolerance_ppm",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "Fee difference corrected automatically (parts per million)")},
        {"reconcile.unsettled_after_hours",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "A payment not settled after this many hours is an exception")},
        {"reconcile.capture_skew_minutes",
         QT_TRANSLATE_NOOP(
             "OncePay::SettingsModel",
             "How much earlier a channel may stamp a capture than OncePay booked it (minutes)")},
        {"reconcile.cadence_hours",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "A reconciliation run is due this often")},
        {"fixes.second_approver_above_minor",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "Fixes above this amount (minor units) need two approvers")},
        {"fixes.second_approver_above_minor.JPY",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "The same for JPY (whole yen)")},
        {"fixes.second_approver_above_minor.KRW",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "The same for KRW (whole won)")},
        {"fixes.second_approver_above_minor.XOF",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "The same for XOF (whole francs)")},
        {"fixes.lease_skew_ms",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "How long past its end (ms) a worker's lease must be before a fix "
                           "may requeue or resolve its message: clocks of other hosts may run "
                           "ahead")},
        {"auth.max_failed_logins",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "Failed sign-ins before an account locks")},
        {"auth.lockout_seconds",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "How long a locked account stays locked")},
        {"ingest.max_body_bytes",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel", "Largest webhook body accepted")},
        {"channels.timestamp_tolerance_seconds",
         QT_TRANSLATE_NOOP("OncePay::SettingsModel",
                           "Allowed clock difference of a signed webhook, both ways")},
    };
    for (const auto &[k, text] : meanings)
        if (key == QLatin1String(k))
            return SettingsModel::tr(text);
    return {};
}

} // namespace

StaffModel::StaffModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("User"),
              text<StaffAccount>([](const StaffAccount &a) -> QString { return a.username; }));
    addColumn(tr("Name"),
              text<StaffAccount>([](const StaffAccount &a) -> QString { return a.displayName; }));
    addColumn(tr("Role"), text<StaffAccount>([](const StaffAccount &a) -> QString {
                  return Labels::role(a.role);
              }));
    addColumn(tr("Status"), [](const StaffAccount &a, int role) -> QVariant {
        const bool locked = a.locked; // by the database's clock (StaffService::list)
        if (role == Qt::DisplayRole)
            return a.disabled ? tr("disabled") : locked ? tr("locked") : tr("active");
        if (role == RefusedRole)
            return a.disabled || locked;
        return {};
    });
    addColumn(tr("Created"), text<StaffAccount>([](const StaffAccount &a) -> QString {
                  return Labels::time(a.createdAt);
              }));
}

SettingsModel::SettingsModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Setting"),
              text<SettingRow>([](const SettingRow &s) -> QString { return s.spec.key; }));
    addColumn(tr("Value"), [](const SettingRow &s, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return s.value;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    });
    addColumn(tr("Allowed"), text<SettingRow>([](const SettingRow &s) -> QString {
                  return QStringLiteral("%1 … %2").arg(s.spec.min).arg(s.spec.max);
              }));
    addColumn(tr("Meaning"),
              text<SettingRow>([](const SettingRow &s) -> QString { return meaning(s.spec.key); }));
    addColumn(tr("Changed by"),
              text<SettingRow>([](const SettingRow &s) -> QString { return s.updatedBy; }));
    addColumn(tr("Changed"), text<SettingRow>([](const SettingRow &s) -> QString {
                  return Labels::time(s.updatedAt);
              }));
}

} // namespace OncePay
