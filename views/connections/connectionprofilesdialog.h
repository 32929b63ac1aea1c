#pragma once

// Edit, test and switch the three connection profiles (issue 8): orders and audit each on
// SQLite, PostgreSQL or MySQL; messages always share the orders database (DESIGN.md §1).
// Saving checks both profiles (ProfileStore::validate), stores a typed password in the OS
// keychain when the person chose it (never in the file), writes the configuration file and
// hands back the new configuration; the caller switches to it (new sign-in). Once the file is
// written, keychain entries no profile names any more are removed
// (ProfileStore::staleKeychainEntries); a driver option carrying a secret is refused, naming
// the option, never its value.
// Who may open it: anyone at this computer, signed in or not, whatever their staff role. The
// profiles are this computer's own configuration (a file in the user's configuration folder
// and entries in the user's keychain), not the shared settings in the orders database
// (ops_settings, Action::ManageSettings): they are needed before anyone can sign in — the
// staff accounts live in the orders database — and a role check here would guard nothing,
// since the file is the user's to edit. What a connection may do is decided by its database
// account (and, on PostgreSQL and MySQL, by the database roles and triggers); switching
// profiles signs the person out, so no session is carried to another database.
// Thread contract: GUI thread only. Does not own the SecretStore.

#include "config/appconfig.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTabWidget;

namespace OncePay {

class ProfileForm;
class SecretStore;

class ConnectionProfilesDialog : public QDialog {
    Q_OBJECT
public:
    // `configPath`: the file to write (the one the configuration came from, or the default).
    ConnectionProfilesDialog(const AppConfig &config, const QString &configPath,
                             SecretStore *secrets, QWidget *parent = nullptr);

    // After accept(): the configuration to switch to, passwords in memory only.
    const AppConfig &config() const { return m_config; }
    ProfileForm *form(DbRole role) const;
    QString message() const;
    QPushButton *saveButton() const { return m_save; }

public Q_SLOTS:
    // Checks, stores the keychain entries, writes the file; stays open and says why if any
    // step fails, nothing written.
    void save();

private:
    void fail(const QString &why, int tab);
    QString refusal(const Error &error, const ConnectionProfile &profile) const;

    AppConfig m_config;
    QString m_path;
    SecretStore *m_secrets = nullptr;
    QTabWidget *m_tabs = nullptr;
    ProfileForm *m_orders = nullptr;
    ProfileForm *m_audit = nullptr;
    QLabel *m_messages = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_save = nullptr;
};

} // namespace OncePay
