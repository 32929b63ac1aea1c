#pragma once

// What the administration page's dialog tests share (tst_admin_dialogs, tst_admin_account_dialogs,
// tst_admin_setting_dialog): the page as a person has it (signed in as the administrator, shown,
// its lists loaded), a row clicked, a page's button pressed and the modal dialog it opens answered
// — a role chosen, a line typed, OK or Cancel pressed — and what a change not made leaves as it
// was.

#include "admin/adminpage.h"
#include "auth/staffservice.h"
#include "common/busyindicator.h"
#include "common/labels.h"
#include "db/migrator.h"
#include "fixes/adminmodels.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QApplication>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace OncePay::Test {

// What one modal dialog showed and what became of it.
struct Answered {
    QString dialog;        // its object name; empty when no dialog was shown
    QString title;         // its window title
    bool leftOpen = false; // still open after the answer (then cancelled here, so none hangs)
};

// Presses `opener` (a page's button) and answers the modal dialog it opens with `answer`, run
// from the dialog's own event loop once the dialog is the active modal widget. Returns after
// the dialog closed, or at once when the press opened none.
inline Answered pressAndAnswer(QPushButton *opener, const std::function<void(QDialog *)> &answer)
{
    Answered seen;
    QTimer poll;
    poll.setInterval(10);
    const QDeadlineTimer deadline(20000);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto *d = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!d) {
            if (deadline.hasExpired())
                poll.stop();
            return;
        }
        poll.stop();
        seen.dialog = d->objectName();
        seen.title = d->windowTitle();
        answer(d);
        if (d->isVisible()) {
            seen.leftOpen = true;
            d->reject();
        }
    });
    poll.start();
    QTest::mouseClick(opener, Qt::LeftButton);
    poll.stop();
    return seen;
}

inline bool signsIn(const StaffService &staff, const QString &username, const QString &password)
{
    auto r = staff.authenticate(username, password, QStringLiteral("test"));
    return r && r->refusal == SignInRefusal::None;
}

inline QPushButton *button(QDialog *d, QDialogButtonBox::StandardButton which)
{
    auto *box = d->findChild<QDialogButtonBox *>();
    return box ? box->button(which) : nullptr;
}

// Types `text` into the dialog's line edit `name`, key by key.
inline void type(QDialog *d, const char *name, const QString &text)
{
    auto *edit = d->findChild<QLineEdit *>(QString::fromLatin1(name));
    QVERIFY2(edit, name);
    edit->setFocus();
    QTest::keyClicks(edit, text);
}

// Chooses the role a person reads in the dialog's role list.
inline void choose(QDialog *d, StaffRole role)
{
    auto *combo = d->findChild<QComboBox *>(QStringLiteral("role"));
    QVERIFY(combo);
    const int i = combo->findText(Labels::role(role));
    QVERIFY(i >= 0);
    combo->setCurrentIndex(i);
}

inline QString problem(QDialog *d)
{
    auto *label = d->findChild<QLabel *>(QStringLiteral("problem"));
    return label ? label->text() : QStringLiteral("(no problem line)");
}

inline void click(QPushButton *b)
{
    if (b)
        QTest::mouseClick(b, Qt::LeftButton);
}

// Presses OK in a dialog that asks the service while it stays open (Add account…), and waits for
// the service's answer: the dialog closed (taken) or its buttons on again (refused). Whether it
// was sending right after the press (fields and buttons off, the dialog not closed yet).
inline bool sendAndWait(QDialog *d, bool *sendingSeen = nullptr)
{
    auto *box = d->findChild<QDialogButtonBox *>();
    if (!box)
        return false;
    click(box->button(QDialogButtonBox::Ok));
    if (sendingSeen)
        *sendingSeen = d->isVisible() && !box->isEnabled();
    return QTest::qWaitFor([&] { return !d->isVisible() || box->isEnabled(); }, 20000);
}

// What the dialog's line edit `name` holds now.
inline QString typed(QDialog *d, const char *name)
{
    auto *edit = d->findChild<QLineEdit *>(QString::fromLatin1(name));
    return edit ? edit->text() : QStringLiteral("(no field %1)").arg(QLatin1String(name));
}

// The service's refusal the dialog shows (Add account…), empty when none.
inline QString refusal(QDialog *d)
{
    auto *label = d->findChild<QLabel *>(QStringLiteral("refusal"));
    return label ? label->text() : QStringLiteral("(no refusal line)");
}

// Saves `w` as <ONCEPAY_SCREENSHOT_DIR>/<name>.png when that variable is set.
inline void shootAdmin(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w->grab().save(dir + u'/' + name + QStringLiteral(".png"));
}

// The staff rows, every audit row and every ops setting: what a change not made leaves as it
// was.
inline QString staffAndAudit(const Connection &c)
{
    return staffRows(c) + u'\n' +
           rows(c, "SELECT action, entity_id, actor, before_json, after_json, reason FROM"
                   " audit_outbox ORDER BY id") +
           u'\n' +
           rows(c, "SELECT setting_key, setting_value, updated_by, updated_at FROM ops_settings"
                   " ORDER BY setting_key");
}

// The page as a person has it: signed in as the administrator, shown, its lists loaded, one
// engine's scratch databases under it with root-admin, amy (agent) and, when asked, adm2
// (a second administrator).
struct Scene {
    std::unique_ptr<ScratchDatabases> dbs;
    std::optional<Connection> c;
    std::unique_ptr<ManualClock> clock;
    std::unique_ptr<StaffService> staff;
    std::unique_ptr<AdminPage> page;

    QTableView *table() const { return page->staffTable(); }
    // Whether the page waits for a background query: set at the very moment a change (or a
    // load) is sent, before the dialog's press returns, and cleared when its answer came. Right
    // after a Cancel it tells, without waiting for any answer, that nothing was sent.
    bool waiting() const
    {
        auto *busy = page->findChild<BusyIndicator *>();
        if (!busy)
            qFatal("the administration page has no busy indicator");
        return busy->isBusy();
    }
    QPushButton *pageButton(const char *name) const
    {
        return page->findChild<QPushButton *>(QString::fromLatin1(name));
    }
    // The row of `username` in the page's list, -1 when it is not listed.
    int rowOf(const QString &username) const
    {
        for (int row = 0; row < page->staff()->rowCount(); ++row)
            if (page->staff()->rowAt(row).username == username)
                return row;
        return -1;
    }
    // What the page's list shows in `column` for `username`.
    QString shown(const QString &username, int column) const
    {
        const int row = rowOf(username);
        return row < 0 ? QString()
                       : page->staff()->index(row, column).data(Qt::DisplayRole).toString();
    }

    // Takes the scratch databases, adds the accounts, shows the page and waits for its lists.
    [[nodiscard]] bool open(std::unique_ptr<ScratchDatabases> scratch, bool secondAdmin)
    {
        dbs = std::move(scratch);
        auto opened = openMigrated(dbs->orders(), QStringLiteral("test"));
        if (!opened) {
            qWarning("open: %s", qPrintable(opened.error().message));
            return false;
        }
        c.emplace(std::move(opened).value());
        clock = std::make_unique<ManualClock>(QDateTime::currentMSecsSinceEpoch());
        staff = std::make_unique<StaffService>(*c, *clock);
        if (!addRootAdmin(*staff) ||
            !staff->add({"amy", "Amy", StaffRole::Agent}, "amy-secret-pw", kAdmin) ||
            (secondAdmin && !staff->add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin)))
            return false;
        page = std::make_unique<AdminPage>(dbs->orders(), kAdmin);
        page->resize(1000, 700);
        page->show();
        if (!QTest::qWaitForWindowExposed(page.get()))
            return false;
        QSignalSpy loaded(page.get(), &AdminPage::loaded);
        page->refresh();
        return loaded.wait(20000) && rowOf(QStringLiteral("amy")) >= 0;
    }
};

// Clicks, as a person does, the row of `table` (the page's list of `model`) that `isRow` picks;
// whether it became the current row.
template <typename Model>
inline bool clickRow(QTableView *table, Model *model, const std::function<bool(int)> &isRow)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (!isRow(row))
            continue;
        const QModelIndex index = model->index(row, 0);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        return table->currentIndex().row() == row;
    }
    return false;
}

inline bool clickStaff(const Scene &s, const QString &username)
{
    return clickRow(s.table(), s.page->staff(),
                    [&](int row) { return s.page->staff()->rowAt(row).username == username; });
}

} // namespace OncePay::Test
