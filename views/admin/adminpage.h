#pragma once

// Administration (DESIGN.md §6, admin role): staff accounts (add, disable, enable again, reset
// a password, change the role) and the operational thresholds in ops_settings, each change with a
// reason and audited by the services. Admins manage; they never approve fixes. Thread contract: GUI
// thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class QTabWidget;

namespace OncePay {

class BusyIndicator;
class SettingsModel;
class StaffModel;

class AdminPage : public QWidget {
    Q_OBJECT
public:
    AdminPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent = nullptr);

    StaffModel *staff() const { return m_staff; }
    SettingsModel *settings() const { return m_settings; }
    QTableView *staffTable() const { return m_staffTable; }
    QTableView *settingsTable() const { return m_settingsTable; }
    // Shown to administrators only; on for a selected account the service's rule
    // (roleChangeFits, staffrules.h) lets them change, its refusal as the tooltip otherwise.
    QPushButton *roleButton() const { return m_roleButton; }
    // On for a selected account disableFits (staffrules.h) lets them disable (not their own,
    // not one disabled already), its refusal as the tooltip otherwise.
    QPushButton *disableButton() const { return m_disableButton; }
    // On for a selected account enableFits (staffrules.h) lets them enable (a disabled one),
    // its refusal as the tooltip otherwise.
    QPushButton *enableButton() const { return m_enableButton; }
    QLabel *summary() const { return m_summary; }

    // What the dialogs call when accepted (Add account… asks StaffService::add itself, while
    // it stays open).
    void changeSetting(const QString &key, const QString &value, const QString &reason);
    void disableStaff(const QString &username, const QString &reason);
    void enableStaff(const QString &username, const QString &reason);
    void setStaffRole(const QString &username, const QString &role, const QString &reason);

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    void loaded();
    void changed(bool ok, const QString &message);

private:
    void askSetting();
    void askAddStaff();
    void askDisable();
    void askEnable();
    void askResetPassword();
    void askRole();
    void updateStaffButtons();
    enum AdminTab { StaffTab = 0, SettingsTab = 1 };
    // Keeps the outcome of a change made on `tab` (`detail`, the technical message, as its
    // tooltip), shows it while that tab is current, and loads the page again.
    void report(bool ok, const QString &message, const QString &detail = {},
                AdminTab tab = StaffTab);
    // The summary line: the current tab's last outcome, then a failed load (page-wide).
    void showSummary();

    ConnectionProfile m_orders;
    Actor m_actor;
    StaffModel *m_staff = nullptr;
    SettingsModel *m_settings = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_staffTable = nullptr;
    QTableView *m_settingsTable = nullptr;
    QPushButton *m_roleButton = nullptr;
    QPushButton *m_disableButton = nullptr;
    QPushButton *m_enableButton = nullptr;
    QPushButton *m_resetButton = nullptr;
    QLabel *m_summary = nullptr;
    // What report() last said for each tab (and its tooltip); the last load's failure.
    struct AdminNote {
        QString text;
        QString detail;
    };
    AdminNote m_notes[2];
    QString m_loadError;
    QString m_loadErrorDetail;
    BusyIndicator *m_busy = nullptr;
    quint64 m_generation = 0;
};

} // namespace OncePay
