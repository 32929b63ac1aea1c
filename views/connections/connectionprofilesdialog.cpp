#include "connectionprofilesdialog.h"

#include "common/errortext.h"
#include "config/profilestore.h"
#include "config/secretstore.h"
#include "connections/profileform.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

#include <tuple>

#include <spdlog/spdlog.h>

namespace OncePay {

ConnectionProfilesDialog::ConnectionProfilesDialog(const AppConfig &config,
                                                   const QString &configPath, SecretStore *secrets,
                                                   QWidget *parent)
    : QDialog(parent)
    , m_config(config)
    , m_path(configPath)
    , m_secrets(secrets)
{
    setWindowTitle(tr("Connection profiles"));
    setObjectName(QStringLiteral("connectionProfiles"));
    const bool keychain = m_secrets && m_secrets->available();

    auto *intro = new QLabel(
        tr("Where the console finds its three databases. Saved to %1; passwords are never "
           "written there.")
            .arg(QDir::toNativeSeparators(m_path)),
        this);
    intro->setWordWrap(true);

    m_orders = new ProfileForm(DbRole::Orders, keychain, this);
    m_orders->setProfile(config.orders);
    m_audit = new ProfileForm(DbRole::Audit, keychain, this);
    m_audit->setProfile(config.audit);
    m_messages = new QLabel(
        tr("The message table lives in the orders database and commits with the orders, so "
           "this profile is always the orders profile (same connection)."),
        this);
    m_messages->setObjectName(QStringLiteral("messagesProfile"));
    m_messages->setWordWrap(true);
    m_messages->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_orders, tr("&Orders"));
    m_tabs->addTab(m_messages, tr("&Messages"));
    m_tabs->addTab(m_audit, tr("&Audit"));

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setWordWrap(true);
    if (!keychain)
        m_message->setText(tr("No keychain is available on this computer: server passwords "
                              "are asked at each start or read from an environment variable."));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_save = buttons->addButton(tr("&Save and switch"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("save"));
    connect(m_save, &QPushButton::clicked, this, &ConnectionProfilesDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(620, 520);
}

ProfileForm *ConnectionProfilesDialog::form(DbRole role) const
{
    return role == DbRole::Audit ? m_audit : m_orders;
}

QString ConnectionProfilesDialog::message() const
{
    return m_message->text();
}

void ConnectionProfilesDialog::fail(const QString &why, int tab)
{
    m_message->setText(why);
    m_message->setStyleSheet(QStringLiteral("color: #b31b1b;"));
    if (tab >= 0)
        m_tabs->setCurrentIndex(tab);
    spdlog::warn("connection profiles not saved: {}", why.toStdString());
}

void ConnectionProfilesDialog::save()
{
    ConnectionProfile orders = m_orders->profile();
    ConnectionProfile audit = m_audit->profile();
    const QList<std::tuple<ConnectionProfile *, ProfileForm *, int>> forms{{&orders, m_orders, 0},
                                                                           {&audit, m_audit, 2}};
    for (const auto &[p, form, tab] : forms) {
        if (auto r = ProfileStore::validate(*p); !r)
            return fail(r.error().message, tab);
    }
    // Keychain entries first: if one cannot be stored, nothing is written.
    for (const auto &[p, form, tab] : forms) {
        if (p->dialect == Dialect::Sqlite || form->passwordSource() != ProfileForm::Keychain)
            continue;
        const QString key = ProfileStore::keychainKey(*p);
        if (!form->typedPassword().isEmpty()) {
            if (auto r = m_secrets->write(key, form->typedPassword()); !r)
                return fail(tr("The password could not be stored in the keychain: %1")
                                .arg(r.error().message),
                            tab);
        } else if (p->passwordKeychain != key) {
            return fail(tr("Type the password once so it can be kept in the keychain."), tab);
        }
        p->passwordKeychain = key;
    }
    if (auto r = ProfileStore::save(m_path, orders, audit); !r)
        return fail(r.error().message, -1);

    m_config.orders = orders;
    m_config.audit = audit;
    m_config.messages = ConnectionProfile();
    m_config.messages.role = DbRole::Messages;
    m_config.messages.sameAsOrders = true;
    if (m_config.sourcePath.isEmpty())
        m_config.sourcePath = m_path;
    accept();
}

} // namespace OncePay
