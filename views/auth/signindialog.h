#pragma once

// Asks for a user name and password and checks them against the staff accounts on a pool
// thread (Argon2id takes a moment; the window stays responsive). A refusal reads the same for
// an unknown name, a wrong password and a locked account, with the lockout rule (not a count
// for the account: that would say which names exist); "disabled" only after the right
// password. The password field is cleared after every try and never logged. A database that
// cannot be asked is said in the dialog's own words (failureText): no one is signed in yet and
// nothing refreshes by itself.
// Thread contract: GUI thread only.

#include "auth/staffaccount.h"
#include "config/connectionprofile.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace OncePay {

class BusyIndicator;

class SignInDialog : public QDialog {
    Q_OBJECT
public:
    explicit SignInDialog(const ConnectionProfile &orders, QWidget *parent = nullptr);

    const StaffAccount &account() const { return m_account; }
    QString message() const;

    // For scripted start-up (demo, screenshots): fill the fields as if typed.
    void prefill(const QString &user, const QString &password);

    // What the dialog shows for a refused sign-in.
    static QString refusalText(const SignInResult &result);
    // What the dialog shows when the staff accounts could not be asked: the profile's login
    // may not read them (Forbidden, "login_cannot_sign_in"), the database is unreachable;
    // otherwise the pages' wording (errortext.h).
    static QString failureText(const Error &error);
    // Shown until the next sign-in: why the last session ended without the person (the main
    // window's sessionEndNotice()).
    void showNotice(const QString &text);

public Q_SLOTS:
    void signIn();

Q_SIGNALS:
    void signedIn(const OncePay::StaffAccount &account);
    void refused(const QString &why);
    // "Databases…": the person wants to edit the connection profiles before signing in.
    void editProfilesRequested();

private:
    void showRefusal(const SignInResult &result);
    void setWorking(bool working);
    void setMessage(const QString &text);
    void fitMessage();

    ConnectionProfile m_orders;
    StaffAccount m_account;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_signIn = nullptr;
    BusyIndicator *m_busy = nullptr;
    quint64 m_generation = 0;
};

} // namespace OncePay
