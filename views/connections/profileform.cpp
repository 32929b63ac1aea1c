#include "profileform.h"

#include "common/taskpool.h"
#include "config/profilestore.h"
#include "config/secretstore.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QtConcurrent>

namespace OncePay {

ProfileForm::ProfileForm(DbRole role, bool keychainAvailable, QWidget *parent)
    : QWidget(parent)
    , m_role(role)
    , m_keychain(keychainAvailable)
{
    setObjectName(QStringLiteral("profile-%1").arg(roleName(role)));
    m_driver = new QComboBox(this);
    m_driver->setObjectName(QStringLiteral("driver"));
    m_driver->addItem(tr("SQLite (a file on this computer)"), int(Dialect::Sqlite));
    m_driver->addItem(tr("PostgreSQL"), int(Dialect::Postgres));
    m_driver->addItem(tr("MySQL / MariaDB"), int(Dialect::MySql));

    // SQLite: a file.
    auto *file = new QWidget(this);
    m_path = new QLineEdit(file);
    m_path->setObjectName(QStringLiteral("path"));
    auto *browse = new QPushButton(tr("&Browse…"), file);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(
            this, tr("SQLite database file"), m_path->text(), tr("SQLite databases (*.db)"),
            nullptr, QFileDialog::DontConfirmOverwrite);
        if (!p.isEmpty())
            m_path->setText(p);
    });
    auto *fileForm = new QFormLayout(file);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);
    auto *fileLabel = new QLabel(tr("&File:"), file);
    fileLabel->setBuddy(m_path);
    fileForm->addRow(fileLabel, fileRow);
    fileForm->setContentsMargins(0, 0, 0, 0);

    // PostgreSQL / MySQL: a server.
    auto *server = new QWidget(this);
    m_host = new QLineEdit(server);
    m_host->setObjectName(QStringLiteral("host"));
    m_port = new QSpinBox(server);
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(1, 65535);
    m_database = new QLineEdit(server);
    m_database->setObjectName(QStringLiteral("database"));
    m_user = new QLineEdit(server);
    m_user->setObjectName(QStringLiteral("user"));
    m_source = new QComboBox(server);
    m_source->setObjectName(QStringLiteral("passwordSource"));
    m_source->addItem(tr("Asked at each start"), int(AskAtStart));
    m_source->addItem(m_keychain ? tr("Kept in the keychain of this computer")
                                 : tr("Kept in the keychain (none available here)"),
                      int(Keychain));
    m_source->addItem(tr("From an environment variable"), int(Environment));
    if (!m_keychain)
        if (auto *model = qobject_cast<QStandardItemModel *>(m_source->model()))
            model->item(1)->setEnabled(false);
    m_password = new QLineEdit(server);
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(
        tr("used for the test and this session; never written to a file"));
    m_env = new QLineEdit(server);
    m_env->setObjectName(QStringLiteral("passwordEnv"));
    m_env->setPlaceholderText(QStringLiteral("ONCEPAY_%1_PASSWORD").arg(roleName(role).toUpper()));
    m_options = new QLineEdit(server);
    m_options->setObjectName(QStringLiteral("options"));
    m_options->setPlaceholderText(tr("driver options, e.g. sslmode=require"));
    m_options->setToolTip(tr("Driver options only, never a password: an option that carries "
                             "one is refused. Choose where the password comes from under "
                             "“Password from”."));
    auto *serverForm = new QFormLayout(server);
    serverForm->setContentsMargins(0, 0, 0, 0);
    serverForm->addRow(tr("&Host:"), m_host);
    serverForm->addRow(tr("P&ort:"), m_port);
    serverForm->addRow(tr("&Database:"), m_database);
    serverForm->addRow(tr("&User:"), m_user);
    serverForm->addRow(tr("Pass&word from:"), m_source);
    serverForm->addRow(tr("Pa&ssword:"), m_password);
    serverForm->addRow(tr("&Variable:"), m_env);
    serverForm->addRow(tr("O&ptions:"), m_options);

    m_where = new QStackedWidget(this);
    m_where->addWidget(file);
    m_where->addWidget(server);

    m_test = new QPushButton(tr("&Test connection"), this);
    m_test->setObjectName(QStringLiteral("test"));
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("testResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_test, &QPushButton::clicked, this, &ProfileForm::test);

    auto *form = new QFormLayout;
    form->addRow(tr("D&river:"), m_driver);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_where);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test, 0, Qt::AlignTop);
    testRow->addWidget(m_result, 1);
    layout->addLayout(testRow);
    layout->addStretch(1);

    connect(m_driver, &QComboBox::currentIndexChanged, this, [this] {
        const auto d = Dialect(m_driver->currentData().toInt());
        if (d == Dialect::Postgres && m_port->value() == 3306)
            m_port->setValue(5432);
        if (d == Dialect::MySql && m_port->value() == 5432)
            m_port->setValue(3306);
        updateVisibility();
    });
    connect(m_source, &QComboBox::currentIndexChanged, this, &ProfileForm::updateVisibility);
    m_port->setValue(5432);
    updateVisibility();
}

void ProfileForm::updateVisibility()
{
    const bool sqlite = Dialect(m_driver->currentData().toInt()) == Dialect::Sqlite;
    m_where->setCurrentIndex(sqlite ? 0 : 1);
    m_env->setEnabled(passwordSource() == Environment);
    // From the environment, the password is the variable's: a typed one would be tested and
    // used by this session but never by the saved profile.
    m_password->setEnabled(passwordSource() != Environment);
    m_password->setToolTip(passwordSource() == Environment
                               ? tr("Not used: the password is the value of the environment "
                                    "variable below, as this console was started with it.")
                               : QString());
}

void ProfileForm::setProfile(const ConnectionProfile &p)
{
    m_driver->setCurrentIndex(m_driver->findData(int(p.dialect)));
    m_path->setText(p.path);
    m_host->setText(p.host);
    if (p.port)
        m_port->setValue(p.port);
    m_database->setText(p.database);
    m_user->setText(p.user);
    m_password->setText(p.password);
    m_hadPassword = !p.password.isEmpty();
    m_env->setText(p.passwordEnv);
    m_options->setText(p.options);
    m_keychainKey = p.passwordKeychain;
    PasswordSource source = AskAtStart;
    if (!p.passwordKeychain.isEmpty() && m_keychain)
        source = Keychain;
    else if (!p.passwordEnv.isEmpty())
        source = Environment;
    m_source->setCurrentIndex(m_source->findData(int(source)));
    updateVisibility();
}

ProfileForm::PasswordSource ProfileForm::passwordSource() const
{
    return PasswordSource(m_source->currentData().toInt());
}

QString ProfileForm::typedPassword() const
{
    return m_password->text();
}

bool ProfileForm::passwordCleared() const
{
    return m_hadPassword && m_password->text().isEmpty();
}

QString ProfileForm::testResult() const
{
    return m_result->text();
}

ConnectionProfile ProfileForm::profile() const
{
    ConnectionProfile p;
    p.role = m_role;
    p.dialect = Dialect(m_driver->currentData().toInt());
    if (p.dialect == Dialect::Sqlite) {
        p.path = m_path->text().trimmed();
        return p;
    }
    p.host = m_host->text().trimmed();
    p.port = m_port->value();
    p.database = m_database->text().trimmed();
    p.user = m_user->text().trimmed();
    p.password = m_password->text();
    p.options = m_options->text().trimmed();
    if (passwordSource() == Environment) {
        p.passwordEnv =
            m_env->text().trimmed().isEmpty() ? m_env->placeholderText() : m_env->text().trimmed();
        p.password = ProfileStore::environmentPassword(p).value_or(QString());
    }
    if (passwordSource() == Keychain)
        p.passwordKeychain = m_keychainKey; // the editor names the entry when it saves
    return p;
}

void ProfileForm::showNotTested(const QString &why)
{
    m_result->setText(why);
    m_result->setStyleSheet(QStringLiteral("color: #b31b1b;"));
    m_result->setToolTip(QString());
    m_result->setProperty("outcome", QStringLiteral("failed"));
}

void ProfileForm::test()
{
    const quint64 generation = ++m_generation;
    ConnectionProfile p = profile();
    if (const QString secret = secretOption(p.options); !secret.isEmpty()) {
        // Not even for a test: what is tested is what would be saved.
        return showNotTested(tr("Not tested: the option “%1” would carry a secret. Remove it "
                                "from Options and choose where the password comes from under "
                                "“Password from”.")
                                 .arg(secret));
    }
    // What is tested is the password the saved profile would run with.
    if (p.dialect != Dialect::Sqlite && passwordSource() == Environment &&
        !ProfileStore::environmentPassword(p)) {
        return showNotTested(tr("Not tested: the environment variable %1 is not set for this "
                                "console. Set it before starting the console, or choose "
                                "another source under “Password from”.")
                                 .arg(p.passwordEnv));
    }
    if (p.dialect != Dialect::Sqlite && passwordSource() == Keychain && p.password.isEmpty()) {
        // Nothing typed: Save keeps the stored entry, so the test reads it (on this thread,
        // as Save writes it).
        const QString key = ProfileStore::keychainKey(p);
        if (key != m_keychainKey || !m_secrets)
            return showNotTested(
                tr("Not tested: type the password once so it can be kept in the keychain."));
        auto secret = m_secrets->read(key);
        if (!secret)
            return showNotTested(tr("Not tested: the keychain entry %1 could not be read: %2")
                                     .arg(key, secret.error().message));
        p.password = *secret;
    }
    m_test->setEnabled(false);
    m_result->setStyleSheet(QString());
    m_result->setToolTip(QString());
    m_result->setProperty("outcome", QString());
    m_result->setText(tr("Connecting to %1…").arg(p.describe()));
    auto *watcher = new QFutureWatcher<RoleStatus>(this);
    connect(watcher, &QFutureWatcher<RoleStatus>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_test->setEnabled(true);
        const RoleStatus s = watcher->result();
        showTestResult(s);
        Q_EMIT tested(s);
    });
    watcher->setFuture(QtConcurrent::run(consoleTaskPool(), [p] {
        // Testing must not create an empty SQLite file where there was none.
        if (p.dialect == Dialect::Sqlite && !QFileInfo::exists(p.path)) {
            RoleStatus s;
            s.role = p.role;
            s.driver = dialectName(p.dialect);
            s.target = p.describe();
            s.error = QStringLiteral("there is no file %1").arg(p.path);
            return s;
        }
        return HealthCheck::check(p);
    }));
}

void ProfileForm::showTestResult(const RoleStatus &s)
{
    // One sentence each, from the status's fields (RoleStatus::error repeats the schema
    // versions in English for the log and the CLI): red only when it did not connect; amber
    // when it connected to a schema this console cannot use yet (or no longer); green when
    // connected and current. The server's full version and the driver are in the tooltip.
    QString server = s.serverVersion.section(QStringLiteral(" on "), 0, 0);
    server = server.section(QStringLiteral(" ("), 0, 0).trimmed();
    if (server.isEmpty())
        server = s.target;
    QString text;
    QString colour;
    QString outcome;
    if (s.wrongSchema) {
        // Connected, but to the other role's database (swapped profiles).
        text = m_role == DbRole::Audit
                   ? tr("Connected to %1 (driver %2), but this is an orders database, not an "
                        "audit database: choose the audit database here.")
                         .arg(server, s.driver)
                   : tr("Connected to %1 (driver %2), but this is an audit database, not an "
                        "orders database: choose the orders database here.")
                         .arg(server, s.driver);
        colour = QStringLiteral("#b31b1b");
        outcome = QStringLiteral("wrongSchema");
    } else if (!s.reachable) {
        // Reached, but the server said no: the profile's user, password or database name.
        text = s.loginRefused ? tr("Login refused: %1").arg(s.error)
                              : tr("Not reachable: %1").arg(s.error);
        colour = QStringLiteral("#b31b1b");
        outcome = QStringLiteral("failed");
    } else if (s.schemaNewer()) {
        text = tr("Connected to %1 (driver %2), but its schema, version %3, is newer than this "
                  "console knows (%4): use the OncePay release that migrated it.")
                   .arg(server, s.driver)
                   .arg(s.schemaVersion)
                   .arg(s.latestVersion);
        colour = QStringLiteral("#9a5b00");
        outcome = QStringLiteral("newer");
    } else if (s.schemaVersion == 0 && s.latestVersion > 0) {
        text = tr("Connected to %1 (driver %2), but the database has no OncePay schema yet: run "
                  "`oncepay db migrate` to create it (version %3).")
                   .arg(server, s.driver)
                   .arg(s.latestVersion);
        colour = QStringLiteral("#9a5b00");
        outcome = QStringLiteral("pending");
    } else if (s.schemaOlder()) {
        text = tr("Connected to %1 (driver %2), but its schema is at version %3 and this "
                  "console needs version %4: run `oncepay db migrate` before using it.")
                   .arg(server, s.driver)
                   .arg(s.schemaVersion)
                   .arg(s.latestVersion);
        colour = QStringLiteral("#9a5b00");
        outcome = QStringLiteral("pending");
    } else {
        text = tr("Connected to %1 (driver %2); the schema is current (version %3).")
                   .arg(server, s.driver)
                   .arg(s.schemaVersion);
        colour = QStringLiteral("#1b7f3b");
        outcome = QStringLiteral("current");
    }
    m_result->setText(text);
    m_result->setToolTip(s.reachable ? s.serverVersion : QString());
    m_result->setStyleSheet(QStringLiteral("color: %1;").arg(colour));
    m_result->setProperty("outcome", outcome);
}

} // namespace OncePay
