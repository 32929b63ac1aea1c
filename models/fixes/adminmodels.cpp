#include "adminmodels.h"

#include "common/labels.h"

#include <QCoreApplication>
#include <QDateTime>

namespace OncePay {

namespace {
template <typename Row, typename Display>
auto text(Display display)
{
    return [display](const Row &r, int role) -> QVariant {
        return role == Qt::DisplayRole ? QVariant(QString(display(r))) : QVariant();
    };
}
} // namespace

StaffModel::StaffModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("User"), text<StaffAccount>([](const StaffAccount &a) { return a.username; }));
    addColumn(tr("Name"), text<StaffAccount>([](const StaffAccount &a) { return a.displayName; }));
    addColumn(tr("Role"), text<StaffAccount>([](const StaffAccount &a) { return Labels::role(a.role); }));
    addColumn(tr("Status"), [](const StaffAccount &a, int role) -> QVariant {
        const bool locked = a.lockedUntil > QDateTime::currentMSecsSinceEpoch();
        if (role == Qt::DisplayRole)
            return a.disabled ? tr("disabled") : locked ? tr("locked") : tr("active");
        if (role == RefusedRole)
            return a.disabled || locked;
        return {};
    });
    addColumn(tr("Created"), text<StaffAccount>([](const StaffAccount &a) { return Labels::time(a.createdAt); }));
}

SettingsModel::SettingsModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Setting"), text<SettingRow>([](const SettingRow &s) { return s.spec.key; }));
    addColumn(tr("Value"), [](const SettingRow &s, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return s.value;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    });
    addColumn(tr("Allowed"), text<SettingRow>([](const SettingRow &s) {
                  return QStringLiteral("%1 … %2").arg(s.spec.min).arg(s.spec.max);
              }));
    addColumn(tr("Meaning"), text<SettingRow>([](const SettingRow &s) {
                  return QCoreApplication::translate("OncePay::Settings", s.spec.description);
              }));
    addColumn(tr("Changed by"), text<SettingRow>([](const SettingRow &s) { return s.updatedBy; }));
    addColumn(tr("Changed"), text<SettingRow>([](const SettingRow &s) { return Labels::time(s.updatedAt); }));
}

} // namespace OncePay
