#pragma once

// Tables of the administration page: staff accounts and operational settings.
// Thread contract: GUI thread only.

#include "auth/staffaccount.h"
#include "common/rowtablemodel.h"
#include "settings/settingsservice.h"

namespace OncePay {

class StaffModel : public RowTableModel<StaffAccount> {
    Q_OBJECT
public:
    enum Column { User, Name, Role, Status, Created };
    explicit StaffModel(QObject *parent = nullptr);
};

class SettingsModel : public RowTableModel<SettingRow> {
    Q_OBJECT
public:
    enum Column { Key, Value, Range, Description, UpdatedBy, UpdatedAt };
    explicit SettingsModel(QObject *parent = nullptr);
};

} // namespace OncePay
