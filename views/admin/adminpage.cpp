#include "adminpage.h"

#include "auth/permissions.h"
#include "auth/staffrules.h"
#include "auth/staffservice.h"
#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/tableviews.h"
#include "fixes/adminmodels.h"
#include "settings/settingsservice.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace OncePay {

namespace {

struct AdminData {
    QList<StaffAccount> staff;
    QList<SettingRow> settings;
};

// A form dialog that can wait for the service's answer while it stays open: while `sending`,
// its fields and buttons are off and Esc or the window's close do nothing, so what was typed
// stays until the answer came.
class AdminSendingDialog final : public QDialog {
public:
    using QDialog::QDialog;
    void setSending(bool sending)
    {
        m_sending = sending;
        for (QWidget *w : findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
            if (!qobject_cast<QLabel *>(w))
                w->setEnabled(!sending);
    }
    bool sending() const { return m_sending; }
    void reject() override
    {
        if (!m_sending)
            QDialog::reject();
    }

protected:
    void closeEvent(QCloseEvent *event) override
    {
        if (m_sending)
            return event->ignore();
        QDialog::closeEvent(event);
    }

private:
    bool m_sending = false;
};

// A small form dialog: rows of (label, widget), then a line saying why OK is off: `problem()`
// answers that (empty while the form may be sent), asked again as the fields change. Its
// widgets keep the object names they were given (tests and accessibility find them by these).
// OK accepts the dialog; with `send`, OK calls it instead, and `send` closes the dialog (accept)
// once the service took the change.
bool askForm(const QString &title, const QList<QPair<QString, QWidget *>> &rows,
             const std::function<QString()> &problem, QDialog &dialog,
             const std::function<void()> &send = {})
{
    dialog.setWindowTitle(title);
    auto *form = new QFormLayout(&dialog);
    for (const auto &[label, w] : rows) {
        w->setParent(&dialog);
        form->addRow(label, w);
    }
    auto *why = new QLabel(&dialog);
    why->setObjectName(QStringLiteral("problem"));
    why->setWordWrap(true);
    form->addRow(why);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    if (send)
        QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, send);
    else
        QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto update = [buttons, why, problem] {
        const QString text = problem();
        why->setText(text);
        buttons->button(QDialogButtonBox::Ok)->setEnabled(text.isEmpty());
    };
    for (const auto &[label, w] : rows) {
        if (auto *edit = qobject_cast<QLineEdit *>(w))
            QObject::connect(edit, &QLineEdit::textChanged, &dialog, update);
        if (auto *combo = qobject_cast<QComboBox *>(w))
            QObject::connect(combo, &QComboBox::currentIndexChanged, &dialog, update);
    }
    update();
    form->addRow(buttons);
    return dialog.exec() == QDialog::Accepted;
}

// What a page shows for a refusal of a service's rule (staffrules.h, settingChangeFits): the
// service's own words.
QString refusalText(const Result<void> &fits)
{
    return fits ? QString() : Labels::engineText(fits.error().message);
}

} // namespace

AdminPage::AdminPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent)
    : QWidget(parent)
    , m_orders(orders)
    , m_actor(actor)
    , m_staff(new StaffModel(this))
    , m_settings(new SettingsModel(this))
{
    setObjectName(QStringLiteral("adminPage"));
    auto *title = new QLabel(tr("<h2>Administration</h2>"), this);
    auto *refresh = new QPushButton(tr("&Refresh"), this);
    refresh->setShortcut(QKeySequence::Refresh);
    connect(refresh, &QPushButton::clicked, this, &AdminPage::refresh);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_busy = new BusyIndicator(this);

    m_staffTable = makeTable(this, m_staff, QStringLiteral("staff"));
    m_staffTable->setSelectionMode(QAbstractItemView::SingleSelection);
    auto *add = new QPushButton(tr("&Add account…"), this);
    add->setObjectName(QStringLiteral("addStaff"));
    m_disableButton = new QPushButton(tr("&Disable…"), this);
    m_disableButton->setObjectName(QStringLiteral("disableStaff"));
    m_enableButton = new QPushButton(tr("&Enable…"), this);
    m_enableButton->setObjectName(QStringLiteral("enableStaff"));
    auto *reset = m_resetButton = new QPushButton(tr("Reset &password…"), this);
    reset->setObjectName(QStringLiteral("resetPassword"));
    connect(add, &QPushButton::clicked, this, &AdminPage::askAddStaff);
    connect(m_disableButton, &QPushButton::clicked, this, &AdminPage::askDisable);
    connect(m_enableButton, &QPushButton::clicked, this, &AdminPage::askEnable);
    connect(reset, &QPushButton::clicked, this, &AdminPage::askResetPassword);
    m_roleButton = new QPushButton(tr("Change &role…"), this);
    m_roleButton->setObjectName(QStringLiteral("changeRole"));
    // Only for those who may manage staff (the service checks again, against the account as
    // it is then).
    m_roleButton->setVisible(require(m_actor, Action::ManageStaff).ok());
    connect(m_roleButton, &QPushButton::clicked, this, &AdminPage::askRole);
    connect(m_staffTable->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &AdminPage::updateStaffButtons);
    connect(m_staff, &QAbstractItemModel::modelReset, this, &AdminPage::updateStaffButtons);
    updateStaffButtons();
    auto *staffTab = new QWidget(this);
    auto *sl = new QVBoxLayout(staffTab);
    sl->addWidget(m_staffTable, 1);
    auto *sb = new QHBoxLayout;
    sb->addStretch(1);
    sb->addWidget(m_roleButton);
    sb->addWidget(reset);
    sb->addWidget(m_disableButton);
    sb->addWidget(m_enableButton);
    sb->addWidget(add);
    sl->addLayout(sb);

    m_settingsTable = makeTable(this, m_settings, QStringLiteral("settings"));
    m_settingsTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_settingsTable->horizontalHeader()->setStretchLastSection(true);
    connect(m_settingsTable, &QTableView::activated, this, &AdminPage::askSetting);
    auto *edit = new QPushButton(tr("&Change…"), this);
    edit->setObjectName(QStringLiteral("changeSetting"));
    connect(edit, &QPushButton::clicked, this, &AdminPage::askSetting);
    auto *settingsTab = new QWidget(this);
    auto *tl = new QVBoxLayout(settingsTab);
    tl->addWidget(m_settingsTable, 1);
    auto *tb = new QHBoxLayout;
    tb->addWidget(new QLabel(tr("Every change needs a reason and is audited."), settingsTab));
    tb->addStretch(1);
    tb->addWidget(edit);
    tl->addLayout(tb);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(staffTab, tr("Staff accounts"));
    m_tabs->addTab(settingsTab, tr("Operational settings"));
    // What a change said belongs to its tab: the line above the tabs shows the current tab's.
    connect(m_tabs, &QTabWidget::currentChanged, this, &AdminPage::showSummary);

    auto *bar = new QHBoxLayout;
    bar->addWidget(title);
    bar->addStretch(1);
    bar->addWidget(refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
}

void AdminPage::refresh()
{
    const quint64 generation = ++m_generation;
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    runBackgroundQuery<AdminData>(
        this, m_orders, QStringLiteral("admin"),
        [actor](const Connection &c) -> Result<AdminData> {
            AdminData d;
            auto staff = StaffService(c, Clock::system()).list(actor);
            if (!staff)
                return staff.error();
            auto settings = SettingsService(c, Clock::system()).list(actor);
            if (!settings)
                return settings.error();
            d.staff = *staff;
            d.settings = *settings;
            return d;
        },
        [this, generation](const Result<AdminData> &r) {
            if (generation != m_generation)
                return;
            m_busy->setBusy(false);
            // A failed load is shown after the tab's last outcome (a refused change by someone
            // no longer allowed to list staff reads as both), on either tab.
            m_loadError = r ? QString() : errorText(r.error());
            m_loadErrorDetail = r ? QString() : r.error().message;
            showSummary();
            if (!r)
                return;
            m_staff->setRows(r->staff);
            m_settings->setRows(r->settings);
            m_staffTable->resizeColumnsToContents();
            m_settingsTable->resizeColumnsToContents();
            Q_EMIT loaded();
        });
}

void AdminPage::report(bool ok, const QString &message, const QString &detail, AdminTab tab)
{
    m_busy->setBusy(false);
    m_notes[tab] = {message, detail};
    showSummary();
    Q_EMIT changed(ok, message);
    refresh();
}

void AdminPage::showSummary()
{
    const auto both = [](const QString &first, const QString &second) -> QString {
        if (first.isEmpty() || second.isEmpty())
            return first + second;
        return first + u'\n' + second;
    };
    const AdminNote &note = m_notes[m_tabs->currentIndex() == SettingsTab ? SettingsTab : StaffTab];
    m_summary->setText(both(note.text, m_loadError));
    m_summary->setToolTip(both(note.detail, m_loadErrorDetail));
}

void AdminPage::changeSetting(const QString &key, const QString &value, const QString &reason)
{
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    runBackgroundQuery<SettingRow>(
        this, m_orders, QStringLiteral("setting"),
        [=](const Connection &c) {
            return SettingsService(c, Clock::system()).set(key, value, reason, actor);
        },
        [this, key](const Result<SettingRow> &r) {
            if (r)
                return report(true, tr("%1 is now %2.").arg(key, r->value), {}, SettingsTab);
            report(false, tr("Not changed: %1").arg(actionErrorText(r.error())), r.error().message,
                   SettingsTab);
        });
}

void AdminPage::disableStaff(const QString &username, const QString &reason)
{
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    runBackgroundQuery<StaffAccount>(
        this, m_orders, QStringLiteral("staff-disable"),
        [=](const Connection &c) {
            return StaffService(c, Clock::system()).disable(username, actor, reason);
        },
        [this](const Result<StaffAccount> &r) {
            if (r)
                return report(true, tr("Account %1 disabled.").arg(r->username));
            report(false, tr("Not disabled: %1").arg(actionErrorText(r.error())),
                   r.error().message);
        });
}

void AdminPage::enableStaff(const QString &username, const QString &reason)
{
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    runBackgroundQuery<StaffAccount>(
        this, m_orders, QStringLiteral("staff-enable"),
        [=](const Connection &c) {
            return StaffService(c, Clock::system()).enable(username, actor, reason);
        },
        [this](const Result<StaffAccount> &r) {
            if (r)
                return report(true, tr("Account %1 enabled.").arg(r->username));
            report(false, tr("Not enabled: %1").arg(actionErrorText(r.error())), r.error().message);
        });
}

void AdminPage::setStaffRole(const QString &username, const QString &role, const QString &reason)
{
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    runBackgroundQuery<StaffAccount>(
        this, m_orders, QStringLiteral("staff-role"),
        [=](const Connection &c) {
            return StaffService(c, Clock::system()).setRole(username, role, actor, reason);
        },
        [this](const Result<StaffAccount> &r) {
            if (r)
                return report(true, tr("%1 is now %2.").arg(r->username, Labels::role(r->role)));
            report(false, tr("Role not changed: %1").arg(actionErrorText(r.error())),
                   r.error().message);
        });
}

void AdminPage::updateStaffButtons()
{
    // What is offered for the selected account is the service's rule (staffrules.h), asked
    // with nothing chosen yet; its refusal, in the service's words, is the tooltip.
    const QModelIndex current = m_staffTable->currentIndex();
    std::optional<StaffChange> change;
    if (current.isValid()) {
        const StaffAccount account = m_staff->rowAt(current.row());
        change = StaffChange{.by = m_actor.id,
                             .username = account.username,
                             .role = account.role,
                             .disabled = account.disabled};
    }
    auto offer = [&](QPushButton *button, const Result<void> &fits) {
        button->setEnabled(change && fits.ok());
        button->setToolTip(change && !fits ? Labels::engineText(fits.error().message) : QString());
    };
    offer(m_roleButton, change ? roleChangeFits(*change) : Result<void>{});
    offer(m_disableButton, change ? disableFits(*change) : Result<void>{});
    offer(m_enableButton, change ? enableFits(*change) : Result<void>{});
    m_resetButton->setEnabled(change.has_value()); // a password is reset for a chosen account
}

void AdminPage::askRole()
{
    const QModelIndex current = m_staffTable->currentIndex();
    if (!current.isValid())
        return;
    const StaffAccount account = m_staff->rowAt(current.row());
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("roleDialog"));
    auto *role = new QComboBox;
    role->setObjectName(QStringLiteral("role"));
    for (StaffRole r : allStaffRoles())
        role->addItem(Labels::role(r), staffRoleName(r));
    role->setCurrentIndex(role->findData(staffRoleName(account.role)));
    auto *reason = new QLineEdit;
    reason->setObjectName(QStringLiteral("reason"));
    reason->setPlaceholderText(tr("Why (audited)"));
    const QString by = m_actor.id;
    if (askForm(
            tr("Change the role of %1").arg(account.username),
            {{tr("&Role:"), role}, {tr("&Reason:"), reason}},
            [role, reason, account, by] {
                return refusalText(
                    roleChangeFits({.by = by,
                                    .username = account.username,
                                    .role = account.role,
                                    .newRole = parseStaffRole(role->currentData().toString()),
                                    .reason = reason->text()}));
            },
            dialog))
        setStaffRole(account.username, role->currentData().toString(), reason->text().trimmed());
}

void AdminPage::askSetting()
{
    const QModelIndex current = m_settingsTable->currentIndex();
    if (!current.isValid())
        return;
    const SettingRow row = m_settings->rowAt(current.row());
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("settingDialog"));
    auto *value = new QLineEdit(row.value);
    value->setObjectName(QStringLiteral("value"));
    auto *reason = new QLineEdit;
    reason->setObjectName(QStringLiteral("reason"));
    reason->setPlaceholderText(tr("Why (audited)"));
    if (askForm(
            tr("Change %1").arg(row.spec.key),
            {{tr("&Value (%1 … %2):").arg(row.spec.min).arg(row.spec.max), value},
             {tr("&Reason:"), reason}},
            [value, reason, key = row.spec.key] {
                // The service's own rule (settingChangeFits), in its words.
                return refusalText(settingChangeFits(key, value->text(), reason->text()));
            },
            dialog))
        changeSetting(row.spec.key, value->text().trimmed(), reason->text().trimmed());
}

void AdminPage::askAddStaff()
{
    AdminSendingDialog dialog(this);
    dialog.setObjectName(QStringLiteral("addStaffDialog"));
    auto *user = new QLineEdit;
    user->setObjectName(QStringLiteral("username"));
    auto *name = new QLineEdit;
    name->setObjectName(QStringLiteral("displayName"));
    auto *role = new QComboBox;
    role->setObjectName(QStringLiteral("role"));
    for (StaffRole r : allStaffRoles())
        role->addItem(Labels::role(r), staffRoleName(r));
    auto *password = new QLineEdit;
    password->setObjectName(QStringLiteral("password"));
    password->setEchoMode(QLineEdit::Password);
    auto *again = new QLineEdit;
    again->setObjectName(QStringLiteral("passwordAgain"));
    again->setEchoMode(QLineEdit::Password);
    // Wide enough for a refusal of a few lines next to the fields.
    dialog.setMinimumWidth(dialog.fontMetrics().averageCharWidth() * 60);
    // The service's answer to the last OK: its refusal in its words (the technical message as
    // the tooltip), or that it is being asked. Kept until the next OK.
    auto *answer = new QLabel;
    answer->setObjectName(QStringLiteral("refusal"));
    answer->setWordWrap(true);
    answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const Actor actor = m_actor;
    // OK asks StaffService::add on a pool thread (its rules: user name, display name, password
    // policy, a name taken); the dialog stays open, what was typed kept, until it answers. It
    // closes when the account was added; a refusal is shown here and the passwords are to be
    // typed again.
    const auto send = [&, actor] {
        const auto parsed = parseStaffRole(role->currentData().toString());
        if (!parsed)
            return;
        const NewStaff staff{user->text().trimmed(), name->text().trimmed(), *parsed};
        const QString secret = password->text();
        answer->setStyleSheet(QString());
        answer->setToolTip(QString());
        answer->setText(tr("Adding %1…").arg(staff.username));
        dialog.setSending(true);
        m_busy->setBusy(true);
        runBackgroundQuery<StaffAccount>(
            &dialog, m_orders, QStringLiteral("staff-add"),
            [=](const Connection &c) {
                return StaffService(c, Clock::system()).add(staff, secret, actor);
            },
            [&, this](const Result<StaffAccount> &r) {
                m_busy->setBusy(false);
                dialog.setSending(false);
                if (r) {
                    dialog.accept();
                    return report(true, tr("Account %1 added.").arg(r->username), {}, StaffTab);
                }
                answer->setStyleSheet(QStringLiteral("color: #b31b1b;"));
                answer->setText(tr("Not added: %1").arg(actionErrorText(r.error())));
                answer->setToolTip(r.error().message);
                password->clear();
                again->clear();
                dialog.adjustSize(); // room for the refusal's lines
                const QString why = r.error().reason;
                (why.startsWith(u"password")       ? password
                 : why.startsWith(u"display_name") ? name
                                                   : user)
                    ->setFocus();
            });
    };
    askForm(
        tr("Add a staff account"),
        {{tr("&User name:"), user},
         {tr("&Display name:"), name},
         {tr("&Role:"), role},
         {tr("&Password:"), password},
         {tr("&Again:"), again},
         {QString(), answer}},
        [user, password, again] {
            if (user->text().trimmed().isEmpty())
                return tr("Type a user name.");
            if (password->text().isEmpty() || password->text() != again->text())
                return tr("Type the password twice, the same both times.");
            return QString();
        },
        dialog, send);
}

void AdminPage::askDisable()
{
    const QModelIndex current = m_staffTable->currentIndex();
    if (!current.isValid())
        return;
    const StaffAccount account = m_staff->rowAt(current.row());
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("disableDialog"));
    auto *reason = new QLineEdit;
    reason->setObjectName(QStringLiteral("reason"));
    reason->setPlaceholderText(tr("Why (audited)"));
    const QString by = m_actor.id;
    if (askForm(
            tr("Disable %1").arg(account.username), {{tr("&Reason:"), reason}},
            [reason, account, by] {
                return refusalText(disableFits({.by = by,
                                                .username = account.username,
                                                .role = account.role,
                                                .disabled = account.disabled,
                                                .reason = reason->text()}));
            },
            dialog))
        disableStaff(account.username, reason->text().trimmed());
}

void AdminPage::askEnable()
{
    const QModelIndex current = m_staffTable->currentIndex();
    if (!current.isValid())
        return;
    const StaffAccount account = m_staff->rowAt(current.row());
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("enableDialog"));
    auto *reason = new QLineEdit;
    reason->setObjectName(QStringLiteral("reason"));
    reason->setPlaceholderText(tr("Why (audited)"));
    const QString by = m_actor.id;
    if (askForm(
            tr("Enable %1").arg(account.username), {{tr("&Reason:"), reason}},
            [reason, account, by] {
                return refusalText(enableFits({.by = by,
                                               .username = account.username,
                                               .role = account.role,
                                               .disabled = account.disabled,
                                               .reason = reason->text()}));
            },
            dialog))
        enableStaff(account.username, reason->text().trimmed());
}

void AdminPage::askResetPassword()
{
    const QModelIndex current = m_staffTable->currentIndex();
    if (!current.isValid())
        return;
    const StaffAccount account = m_staff->rowAt(current.row());
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("resetPasswordDialog"));
    auto *password = new QLineEdit;
    password->setObjectName(QStringLiteral("password"));
    password->setEchoMode(QLineEdit::Password);
    auto *again = new QLineEdit;
    again->setObjectName(QStringLiteral("passwordAgain"));
    again->setEchoMode(QLineEdit::Password);
    if (!askForm(
            tr("New password for %1").arg(account.username),
            {{tr("&Password:"), password}, {tr("&Again:"), again}},
            [password, again] {
                return password->text().isEmpty() || password->text() != again->text()
                           ? tr("Type the password twice, the same both times.")
                           : QString();
            },
            dialog))
        return;
    m_busy->setBusy(true);
    const Actor actor = m_actor;
    const QString username = account.username;
    const QString secret = password->text();
    runBackgroundQuery<StaffAccount>(
        this, m_orders, QStringLiteral("staff-reset"),
        [=](const Connection &c) {
            return StaffService(c, Clock::system()).resetPassword(username, secret, actor);
        },
        [this](const Result<StaffAccount> &r) {
            if (r)
                return report(true, tr("Password of %1 reset.").arg(r->username));
            report(false, tr("Not reset: %1").arg(actionErrorText(r.error())), r.error().message);
        });
}

} // namespace OncePay
