#pragma once

// What the fix console tests share (tst_fix_console, tst_fix_console_offers) beyond
// fixtestsupport.h: the propose dialog answered as a person does, and what it offered.

#include "fixes/proposefixdialog.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStringList>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

namespace OncePay::Test::FixSupport {

// What the propose dialog showed for each kind offered: the targets it covered, and how the
// dialog counted them.
struct OfferedKind {
    QString kind;
    QStringList targets;
    QString label;
};
using Offered = QList<OfferedKind>;

// Answers the next modal dialogs: waits for the propose dialog (it opens once the fix rule's
// setting has been read in the background), notes what it offered in `offered`, picks `kind`
// (the first offered when empty), fills and accepts it, then closes the summary message box.
inline void answerProposeDialog(const QString &reason, const QString &comment,
                                const QString &kind = {}, std::shared_ptr<Offered> offered = {})
{
    auto tries = std::make_shared<int>(0);
    auto answer = std::make_shared<std::function<void()>>();
    *answer = [reason, comment, kind, offered, tries, answer] {
        auto *d = qobject_cast<ProposeFixDialog *>(QApplication::activeModalWidget());
        if (!d) {
            // e.g. "No fix fits": closed, so the test fails on what it checks, not hangs
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                box->accept();
                QFAIL("no propose dialog");
            }
            if (++*tries < 400)
                QTimer::singleShot(25, *answer);
            return;
        }
        if (offered) {
            for (int i = 0; i < d->kindBox()->count(); ++i) {
                d->kindBox()->setCurrentIndex(i);
                auto *label = d->findChild<QLabel *>(QStringLiteral("targetsLabel"));
                offered->append({d->kindBox()->currentData().toString(), d->currentTargets(),
                                 label ? label->text() : QString()});
            }
        }
        d->kindBox()->setCurrentIndex(kind.isEmpty() ? 0 : d->kindBox()->findData(kind));
        d->reasonBox()->setCurrentIndex(d->reasonBox()->findData(reason));
        d->commentEdit()->setPlainText(comment);
        d->accept();
        // The summary box comes after the background proposal.
        auto closeSummary = std::make_shared<std::function<void()>>();
        *closeSummary = [closeSummary] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                box->accept();
            else
                QTimer::singleShot(50, *closeSummary);
        };
        QTimer::singleShot(50, *closeSummary);
    };
    QTimer::singleShot(0, *answer);
}

} // namespace OncePay::Test::FixSupport
