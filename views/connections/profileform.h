#pragma once

// The form for one connection profile (orders or audit) in the profile editor: driver,
// SQLite file or server, database, user, where the password comes from (the OS keychain,
// an environment variable, or asked at each start), and a Test button that connects on a
// pool thread and shows the driver, server and schema versions (not with options that carry
// a secret: secretOption). It only shows and asks: the rules are ProfileStore::validate's.
// A test uses the password the saved profile would run with: the variable's value when the
// password comes from the environment (the password field is disabled then), the keychain
// entry when it is kept there and no password was typed (the typed one is what Save stores),
// else the typed one.
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "db/healthcheck.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace OncePay {

class SecretStore;

class ProfileForm : public QWidget {
    Q_OBJECT
public:
    enum PasswordSource { AskAtStart, Keychain, Environment };

    ProfileForm(DbRole role, bool keychainAvailable, QWidget *parent = nullptr);

    void setProfile(const ConnectionProfile &profile);
    // Where a test reads a kept password (not owned; may be null: then a keychain profile is
    // tested only with a typed password).
    void setSecretStore(SecretStore *store) { m_secrets = store; }
    // The profile as it would be saved, with the password it would run with (kept in memory
    // only): the environment variable's value (empty when it is not set) for Environment, the
    // typed password otherwise.
    ConnectionProfile profile() const;
    PasswordSource passwordSource() const;
    QString typedPassword() const;
    // The password field held a password when the profile was shown and is empty now.
    bool passwordCleared() const;
    QString testResult() const;
    // Shows what a test found, in one sentence: red "failed" (not reachable), amber "pending"
    // (connected, a migration pending) or "newer" (schema newer than this console), green
    // "current", red "wrongSchema" (connected to the other role's database); that word is the
    // result label's "outcome" property.
    void showTestResult(const RoleStatus &status);

public Q_SLOTS:
    void test();

Q_SIGNALS:
    void tested(const OncePay::RoleStatus &status);

private:
    void updateVisibility();
    void showNotTested(const QString &why);

    DbRole m_role;
    bool m_keychain = false;
    QComboBox *m_driver = nullptr;
    QStackedWidget *m_where = nullptr;
    QLineEdit *m_path = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_database = nullptr;
    QLineEdit *m_user = nullptr;
    QComboBox *m_source = nullptr;
    QLineEdit *m_password = nullptr;
    QLineEdit *m_env = nullptr;
    QLineEdit *m_options = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_result = nullptr;
    SecretStore *m_secrets = nullptr;
    QString m_keychainKey; // the entry the loaded profile named
    bool m_hadPassword = false;
    quint64 m_generation = 0;
};

} // namespace OncePay
