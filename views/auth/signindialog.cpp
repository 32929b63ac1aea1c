#include "signindialog.h"

#include "auth/staffservice.h"
#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/errortext.h"
#include "common/labels.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSysInfo>
#include <QVBoxLayout>

namespace OncePay {

SignInDialog::SignInDialog(const ConnectionProfile &orders, QWidget *parent)
    : QDialog(parent)
    , m_orders(orders)
{
    setWindowTitle(tr("Sign in to OncePay"));
    setObjectName(QStringLiteral("signInDialog"));
    auto *title =
        new QLabel(tr("<h2>OncePay Console</h2><p>Sign in with your staff account.</p>"), this);
    m_user = new QLineEdit(this);
    m_user->setObjectName(QStringLiteral("user"));
    m_password = new QLineEdit(this);
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setWordWrap(true);
    m_message->setMinimumWidth(360);
    m_busy = new BusyIndicator(this);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_signIn = buttons->addButton(tr("Sign in"), QDialogButtonBox::AcceptRole);
    m_signIn->setObjectName(QStringLiteral("signIn"));
    m_signIn->setDefault(true);
    auto *profiles = buttons->addButton(tr("&Databases…"), QDialogButtonBox::ResetRole);
    profiles->setObjectName(QStringLiteral("profiles"));
    profiles->setToolTip(tr("Edit, test and switch the connection profiles"));
    profiles->setAutoDefault(false);
    connect(profiles, &QPushButton::clicked, this, &SignInDialog::editProfilesRequested);
    disconnect(buttons, nullptr, this, nullptr);
    connect(m_signIn, &QPushButton::clicked, this, &SignInDialog::signIn);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("&User name:"), m_user);
    form->addRow(tr("&Password:"), m_password);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(form);
    layout->addWidget(m_busy);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    m_user->setFocus();
}

void SignInDialog::prefill(const QString &user, const QString &password)
{
    m_user->setText(user);
    m_password->setText(password);
}

QString SignInDialog::message() const
{
    return m_message->text();
}

void SignInDialog::setMessage(const QString &text)
{
    m_message->setText(text);
    m_message->setToolTip(QString()); // a failure's technical message goes with its text only
    fitMessage();
}

void SignInDialog::fitMessage()
{
    // A message wrapped over more lines than the dialog had room for squeezed the rows above
    // it (the title was cut off): the dialog grows to the height its width needs.
    if (layout() && layout()->hasHeightForWidth() &&
        height() < layout()->totalHeightForWidth(width()))
        adjustSize();
}

void SignInDialog::setWorking(bool working)
{
    m_busy->setBusy(working);
    m_signIn->setEnabled(!working);
    m_user->setEnabled(!working);
    m_password->setEnabled(!working);
}

void SignInDialog::signIn()
{
    const QString user = m_user->text().trimmed();
    const QString password = m_password->text();
    m_password->clear();
    if (user.isEmpty() || password.isEmpty()) {
        setMessage(tr("Type your user name and password."));
        return;
    }
    setWorking(true);
    setMessage(tr("Checking…"));
    const quint64 generation = ++m_generation;
    const QString where = QStringLiteral("console@") + QSysInfo::machineHostName();
    runBackgroundQuery<SignInResult>(
        this, m_orders, QStringLiteral("signin"),
        [user, password, where](const Connection &c) {
            return StaffService(c, Clock::system()).authenticate(user, password, where);
        },
        [this, generation](const Result<SignInResult> &r) {
            if (generation != m_generation)
                return;
            setWorking(false);
            if (!r) {
                setMessage(failureText(r.error()));
                m_message->setToolTip(r.error().message);
                Q_EMIT refused(m_message->text());
                return;
            }
            if (!r->signedIn()) {
                showRefusal(*r);
                return;
            }
            m_account = r->account;
            setMessage(
                tr("Signed in as %1 (%2).").arg(m_account.username, Labels::role(m_account.role)));
            Q_EMIT signedIn(m_account);
            accept();
        });
}

QString SignInDialog::refusalText(const SignInResult &r)
{
    switch (r.refusal) {
    case SignInRefusal::BadCredentials:
        // One text for an unknown name, a wrong password and a locked account (issue #8): the
        // lockout rule is stated as a rule, with the same numbers for everyone, never as a
        // count for this account, which only existing accounts would have.
        return tr("Wrong user name or password, or the account is locked.") + QLatin1Char(' ') +
               tr("After %n failed sign-in(s) in a row an account is locked for %1; an"
                  " administrator can lift the lock by resetting the password.",
                  nullptr, r.maxFailedLogins)
                   .arg(Labels::age(qint64(r.lockoutSeconds) * 1000));
    case SignInRefusal::Disabled: return tr("This account is disabled. Ask an administrator.");
    case SignInRefusal::None: break;
    }
    return {};
}

QString SignInDialog::failureText(const Error &e)
{
    // Forbidden before anyone signed in is the database login's, not a role's.
    if (e.code == ErrorCode::Forbidden)
        return tr("This connection profile's database login cannot sign staff in; use the"
                  " console's login (Databases…).");
    // "Tried again on the next refresh" is the pages' promise: this dialog tries when asked.
    if (e.code == ErrorCode::Unavailable && e.reason != u"database_missing" &&
        e.reason != u"login_refused")
        return tr("The database cannot be reached. Check the connection profile (Databases…)"
                  " and press Sign in to try again.");
    return errorText(e);
}

void SignInDialog::showNotice(const QString &text)
{
    setMessage(text);
}

void SignInDialog::showRefusal(const SignInResult &r)
{
    const QString text = refusalText(r);
    setMessage(text);
    m_password->setFocus();
    Q_EMIT refused(text);
}

} // namespace OncePay
