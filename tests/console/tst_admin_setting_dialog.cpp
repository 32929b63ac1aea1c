// The administration page's operational-settings Change… dialog driven as a person does,
// offscreen, on every engine: OK off while the service's rule refuses the value or the reason,
// the setting changed (audited) and shown, Cancel changing nothing.

#include "admindialogsupport.h"
#include "settings/settingsservice.h"

#include <QTabBar>
#include <QTabWidget>

using namespace OncePay;
using namespace OncePay::Test;

class TstAdminSettingDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Operational settings, Change…: OK stays off while the service's rule (settingChangeFits)
    // refuses the change — a value out of the key's range, not a whole number, a blank reason —
    // the dialog's problem line its sentence, and nothing is sent; on at the range's bounds.
    // OK sets the value (audited with the reason) and the list shows it; Cancel changes
    // nothing.
    void settingDialogChangesASetting_data() { addEngineRows(); }
    void settingDialogChangesASetting()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        auto *tabs = s.page->findChild<QTabWidget *>();
        QVERIFY(tabs);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center());
        QCOMPARE(tabs->currentIndex(), 1);
        QPushButton *change = s.pageButton("changeSetting");
        QVERIFY(change);
        const QString key = QStringLiteral("worker.max_attempts");
        auto select = [&] {
            return clickRow(s.page->settingsTable(), s.page->settings(), [&](int row) {
                return s.page->settings()->rowAt(row).spec.key == key;
            });
        };
        auto answer = [&](const QString &value, const QString &reason, bool send,
                          QString *why = nullptr, bool *okOn = nullptr) {
            return pressAndAnswer(change, [=](QDialog *d) {
                auto *edit = d->findChild<QLineEdit *>(QStringLiteral("value"));
                QVERIFY(edit);
                edit->selectAll();
                QTest::keyClick(edit, Qt::Key_Delete);
                type(d, "value", value);
                type(d, "reason", reason);
                if (why)
                    *why = problem(d);
                if (okOn)
                    *okOn = button(d, QDialogButtonBox::Ok)->isEnabled();
                click(button(d, send ? QDialogButtonBox::Ok : QDialogButtonBox::Cancel));
            });
        };
        const QString before = staffAndAudit(*s.c);
        QVERIFY(!s.waiting()); // loaded: a wait seen below is one a press started
        const auto refused = [&](const QString &value, const QString &reason,
                                 const QString &sentence) {
            QVERIFY(select());
            QString why;
            bool okOn = true;
            const Answered a = answer(value, reason, true, &why, &okOn);
            QCOMPARE(a.dialog, QStringLiteral("settingDialog"));
            QVERIFY(a.leftOpen); // OK was off: closed here
            QVERIFY(!okOn);
            QCOMPARE(why, sentence);
            QCOMPARE(why, settingChangeFits(key, value, reason).error().message);
            QVERIFY(!s.waiting());
        };
        refused("7", " ", QStringLiteral("a settings change needs a reason"));
        if (QTest::currentTestFailed())
            return;
        refused("100000", "far more retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not"
                               " '100000'"));
        if (QTest::currentTestFailed())
            return;
        refused("101", "far more retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not"
                               " '101'"));
        if (QTest::currentTestFailed())
            return;
        refused("0", "no retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not '0'"));
        if (QTest::currentTestFailed())
            return;
        refused("ten", "more retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not"
                               " 'ten'"));
        if (QTest::currentTestFailed())
            return;

        // At the range's bound OK is on; Cancel sends nothing.
        QVERIFY(select());
        QString why = QStringLiteral("(not read)");
        bool okOn = false;
        Answered a = answer("100", "more retries", false, &why, &okOn);
        QCOMPARE(a.dialog, QStringLiteral("settingDialog"));
        QVERIFY(!a.leftOpen);
        QCOMPARE(why, QString());
        QVERIFY(okOn); // it could have been sent
        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(s.page->summary()->text(), QString());
        QCOMPARE(staffAndAudit(*s.c), before); // no change, and no refusal reached the service

        QVERIFY(select());
        a = answer("7", "  more retries ", true, &why);
        QVERIFY(!a.leftOpen);
        QCOMPARE(why, QString());
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.at(0).at(0).toBool(), true);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("worker.max_attempts is now 7."));
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM ops_settings WHERE setting_key ="
                             " 'worker.max_attempts' AND setting_value = '7'"
                             " AND updated_by = 'root-admin'"),
                 1);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.changed'"
                             " AND entity_id = 'worker.max_attempts' AND actor = 'root-admin'"
                             " AND reason = 'more retries'"),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        bool shown = false;
        for (int row = 0; row < s.page->settings()->rowCount(); ++row)
            if (s.page->settings()->rowAt(row).spec.key == key)
                shown =
                    s.page->settings()->index(row, SettingsModel::Value).data().toString() == u"7";
        QVERIFY(shown);
    }
};

QTEST_MAIN(TstAdminSettingDialog)
#include "tst_admin_setting_dialog.moc"
