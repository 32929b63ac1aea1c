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

#include <optional>
#include <tuple>
#include <utility>

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
    for (ProfileForm *form : {m_orders, m_audit})
        form->setSecretStore(keychain ? m_secrets : nullptr);
    m_messages = new QLabel(
        tr("Messages always use the orders database: claiming a message, moving its order and "
           "booking the money commit in one transaction, so the message table cannot live in a "
           "database of its own. There is nothing to set here: messages follow the orders "
           "profile (same connection)."),
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

QString ConnectionProfilesDialog::refusal(const Error &error,
                                          const ConnectionProfile &profile) const
{
    if (error.reason == u"secret_in_options")
        return tr("The option “%1” would carry a secret, and the configuration file is plain "
                  "text. Remove it from Options and choose where the password comes from under "
                  "“Password from”.")
            .arg(secretOption(profile.options));
    return error.message;
}

void ConnectionProfilesDialog::save()
{
    ConnectionProfile orders = m_orders->profile();
    ConnectionProfile audit = m_audit->profile();
    const QList<std::tuple<ConnectionProfile *, ProfileForm *, int>> forms{{&orders, m_orders, 0},
                                                                           {&audit, m_audit, 2}};
    for (const auto &[p, form, tab] : forms) {
        if (auto r = ProfileStore::validate(*p); !r)
            return fail(refusal(r.error(), *p), tab);
    }
    for (const auto &[p, form, tab] : forms) {
        if (p->dialect != Dialect::Sqlite && form->passwordSource() == ProfileForm::Keychain &&
            form->passwordCleared())
            return fail(tr("The password was cleared. Type it again to keep it in the keychain, "
                           "or choose “Asked at each start” to remove it from the keychain."),
                        tab);
    }
    // Keychain entries first: if one cannot be stored, nothing is written. Each entry written
    // is put back as it was (or removed) when a later step fails.
    QList<std::pair<QString, std::optional<QString>>> written;
    auto forgetWritten = [this, &written] {
        for (const auto &[key, previous] : std::as_const(written))
            std::ignore = previous ? m_secrets->write(key, *previous) : m_secrets->remove(key);
    };
    for (const auto &[p, form, tab] : forms) {
        if (p->dialect == Dialect::Sqlite || form->passwordSource() != ProfileForm::Keychain)
            continue;
        const QString key = ProfileStore::keychainKey(*p);
        if (!form->typedPassword().isEmpty()) {
            auto previous = m_secrets->read(key);
            if (auto r = m_secrets->write(key, form->typedPassword()); !r) {
                forgetWritten();
                return fail(tr("The password could not be stored in the keychain: %1")
                                .arg(r.error().message),
                            tab);
            }
            written.append({key, previous ? std::optional<QString>(*previous) : std::nullopt});
        } else if (p->passwordKeychain != key) {
            forgetWritten();
            return fail(tr("Type the password once so it can be kept in the keychain."), tab);
        }
        p->passwordKeychain = key;
    }
    if (auto r = ProfileStore::save(m_path, orders, audit); !r) {
        forgetWritten(); // no file names the new entries
        return fail(r.error().message, -1);
    }
    // The file no longer names these entries: a password left there would be forgotten but
    // kept. A failure to remove one does not undo the switch; it is logged by name.
    for (const QString &key : ProfileStore::staleKeychainEntries(
             {m_config.orders, m_config.messages, m_config.audit}, {orders, audit})) {
        if (!m_secrets || !m_secrets->available()) {
            spdlog::warn("keychain entry {} is no longer used but no keychain is available to "
                         "remove it",
                         key.toStdString());
            continue;
        }
        if (auto r = m_secrets->remove(key); !r && r.error().code != ErrorCode::NotFound)
            spdlog::warn("keychain entry {} is no longer used and could not be removed: {}",
                         key.toStdString(), r.error().message.toStdString());
        else
            spdlog::info("keychain entry {} removed: no connection profile names it any more",
                         key.toStdString());
    }

    m_config.orders = orders;
    m_config.audit = audit;
    m_config.messages = ConnectionProfile();
    m_config.messages.role = DbRole::Messages;
    m_config.messages.sameAsOrders = true;
    m_config.sourcePath = m_path;
    m_config.fromFile = true;
    accept();
}

} // namespace OncePay
