// The console's Propose fix dialog for a discrepancy with amounts in two currencies (a currency
// mismatch: an order of 34,200 JPY settled as 160.00 USD), on every engine, offscreen: from the
// reconciliation desk, a write-off asks for the amount and offers exactly the two currencies;
// without a currency (or with an amount the currency's decimals cannot hold) it is not let
// through; with 5,000 JPY the stored fix_requests row carries amount_minor 5000 and currency
// JPY. Set ONCEPAY_SHOT_DIR to keep a picture of the dialog in English and 简体中文.

#include "../reconciliation/reconcilescenario.h"
#include "common/language.h"
#include "db/sql.h"
#include "fixconsolesupport.h"
#include "fixes/fixmodels.h"
#include "fixes/proposefixdialog.h"
#include "fixtestsupport.h"
#include "reconciliation/reconciliationpage.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;
using namespace OncePay::Test::Reconcile;

namespace {

QPushButton *okOf(ProposeFixDialog *d)
{
    return d->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

QString problemOf(ProposeFixDialog *d)
{
    return d->findChild<QLabel *>(QStringLiteral("problem"))->text();
}

QStringList currenciesOffered(ProposeFixDialog *d)
{
    QStringList out;
    for (int i = 0; i < d->currencyBox()->count(); ++i)
        out << d->currencyBox()->itemData(i).toString();
    return out;
}

// What the dialog showed and let through, as the person met it.
struct CurrencyDialogSeen {
    bool opened = false;
    QStringList currencies;
    bool currencyShown = false;
    bool okWithoutCurrency = true;
    QString problemWithoutCurrency;
    qsizetype proposalsWithoutCurrency = -1;
    bool okWithTooManyDecimals = true;
    bool okWithoutAmount = true;
    bool okWhenFilled = false;
    QString summary; // the message after proposing
};

// Answers the propose dialog: a write-off, a reason and a comment, then 5000 with no currency,
// 50.5 JPY, no amount, and finally 5000 JPY, accepted; closes the summary afterwards.
void answerWithYen(std::shared_ptr<CurrencyDialogSeen> seen)
{
    auto tries = std::make_shared<int>(0);
    auto answer = std::make_shared<std::function<void()>>();
    *answer = [seen, tries, answer] {
        auto *d = qobject_cast<ProposeFixDialog *>(QApplication::activeModalWidget());
        if (!d) {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                box->accept();
            else if (++*tries < 400)
                QTimer::singleShot(25, *answer);
            return;
        }
        seen->opened = true;
        d->kindBox()->setCurrentIndex(d->kindBox()->findData(FixKind::WriteOff));
        d->reasonBox()->setCurrentIndex(d->reasonBox()->findData("settlement_correction"));
        d->commentEdit()->setPlainText("the channel converted at its own rate");
        seen->currencies = currenciesOffered(d);
        seen->currencyShown = d->currencyBox()->isVisibleTo(d);
        d->amountEdit()->setText("5000");
        seen->okWithoutCurrency = okOf(d)->isEnabled();
        seen->problemWithoutCurrency = problemOf(d);
        seen->proposalsWithoutCurrency = d->proposals("test").size();
        d->currencyBox()->setCurrentIndex(d->currencyBox()->findData("JPY"));
        d->amountEdit()->setText("50.5");
        seen->okWithTooManyDecimals = okOf(d)->isEnabled();
        d->amountEdit()->clear();
        seen->okWithoutAmount = okOf(d)->isEnabled();
        d->amountEdit()->setText("5000");
        seen->okWhenFilled = okOf(d)->isEnabled();
        if (!seen->okWhenFilled) {
            d->reject();
            return;
        }
        okOf(d)->click();
        auto closeSummary = std::make_shared<std::function<void()>>();
        *closeSummary = [closeSummary, seen] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                seen->summary = box->text();
                box->accept();
            } else
                QTimer::singleShot(50, *closeSummary);
        };
        QTimer::singleShot(50, *closeSummary);
    };
    QTimer::singleShot(0, *answer);
}

} // namespace

class TstFixConsoleCurrencies : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aCurrencyMismatchIsWrittenOffInAChosenCurrency_data() { addEngineRows(); }
    void aCurrencyMismatchIsWrittenOffInAChosenCurrency()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        addStaff(f);
        Scenario s(f);
        f.createOrder("o-yen", 34200, "JPY");
        f.pay("o-yen", 1, "a-o-yen");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-yen", "a-o-yen", 34200, "JPY", "evt_o-yen", "pi_yen")));
        f.drain();
        s.importStatement({line("pi_yen", 16000, 494, kT0 + kDay, "USD")}, "week1.csv");
        f.clock.set(kT0 + 5 * kDay);
        s.reconcile();
        const QVariant cur = *Sql::scalar(
            f.orders->db(),
            QStringLiteral("SELECT id FROM discrepancies WHERE kind = 'currency_mismatch'"));
        QVERIFY(!cur.isNull());

        ReconciliationPage desk(dbs->orders(), fin);
        QSignalSpy loaded(&desk, &ReconciliationPage::loaded);
        desk.refresh();
        QVERIFY(loaded.wait(20000));
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(desk.exceptionTable()->model());
        QVERIFY(proxy);
        int row = -1;
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (desk.exceptions()->rowAt(proxy->mapToSource(proxy->index(r, 0)).row()).id ==
                cur.toLongLong())
                row = r;
        QVERIFY(row >= 0);
        desk.exceptionTable()->selectionModel()->setCurrentIndex(
            proxy->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        auto *propose = desk.findChild<QPushButton *>(QStringLiteral("propose"));
        QVERIFY(propose && propose->isEnabled());

        auto seen = std::make_shared<CurrencyDialogSeen>();
        answerWithYen(seen);
        propose->click();
        QTRY_VERIFY_WITH_TIMEOUT(!seen->summary.isEmpty() || (seen->opened && !seen->okWhenFilled),
                                 20000);
        QVERIFY(seen->opened);
        // Exactly the two currencies (expected in the order's JPY, settled in USD), none chosen.
        QCOMPARE(seen->currencies, (QStringList{QString(), "JPY", "USD"}));
        QVERIFY(seen->currencyShown);
        QVERIFY(!seen->okWithoutCurrency);
        QVERIFY(!seen->problemWithoutCurrency.isEmpty());
        QCOMPARE(seen->proposalsWithoutCurrency, 0);
        QVERIFY(!seen->okWithTooManyDecimals); // JPY has no decimals
        QVERIFY(!seen->okWithoutAmount);       // no difference to default to
        QVERIFY(seen->okWhenFilled);
        QVERIFY2(!seen->summary.contains("Refused"), qPrintable(seen->summary));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE kind = 'write_off'"
                         " AND target_id = ? AND amount_minor = 5000 AND currency = 'JPY'"
                         " AND status = 'open' AND proposed_by = 'fin'",
                         {cur.toString()}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"), 0);
    }

    // Another fix is as before: one currency, the amount optional, no currency to choose.
    void aOneCurrencyDiscrepancyOffersNoCurrency()
    {
        ProposeFixDialog d({{FixKind::WriteOff, {0}}}, {"7"}, "USD", nullptr,
                           {{"8", {"JPY", "USD"}}});
        d.show();
        d.reasonBox()->setCurrentIndex(d.reasonBox()->findData("settlement_correction"));
        d.commentEdit()->setPlainText("duplicate line");
        QVERIFY(!d.currencyBox()->isVisibleTo(&d));
        QVERIFY(d.amountEdit()->isVisibleTo(&d));
        QVERIFY(okOf(&d)->isEnabled());
        const QList<FixProposal> ps = d.proposals("test");
        QCOMPARE(ps.size(), 1);
        QVERIFY(!ps.first().amountMinor);
        QVERIFY(ps.first().currency.isEmpty());
        d.amountEdit()->setText("12.34");
        QCOMPARE(*d.proposals("test").first().amountMinor, 1234);
        QVERIFY(d.proposals("test").first().currency.isEmpty());
    }

    // Two discrepancies in different pairs of currencies take one amount each: not together.
    void differentPairsAreProposedOneAtATime()
    {
        ProposeFixDialog d({{FixKind::WriteOff, {0, 1}}}, {"8", "9"}, "USD", nullptr,
                           {{"8", {"JPY", "USD"}}, {"9", {"KRW", "USD"}}});
        d.show();
        d.reasonBox()->setCurrentIndex(d.reasonBox()->findData("settlement_correction"));
        d.commentEdit()->setPlainText("converted at the channel's rate");
        d.currencyBox()->setCurrentIndex(d.currencyBox()->findData("USD"));
        d.amountEdit()->setText("10.00");
        QVERIFY(!okOf(&d)->isEnabled());
        QVERIFY(d.proposals("test").isEmpty());
    }

    // A picture of the dialog for a person to look at (English and 简体中文), when asked for.
    void picture_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void picture()
    {
        QFETCH(QString, lang);
        const QString dir = qEnvironmentVariable("ONCEPAY_SHOT_DIR");
        if (dir.isEmpty())
            QSKIP("ONCEPAY_SHOT_DIR not set");
        Language::apply(lang);
        ProposeFixDialog d({{FixKind::WriteOff, {0}}}, {"12"}, "USD", nullptr,
                           {{"12", {"JPY", "USD"}}});
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.reasonBox()->setCurrentIndex(d.reasonBox()->findData("settlement_correction"));
        d.commentEdit()->setPlainText("the channel converted at its own rate");
        QTest::qWait(100);
        QVERIFY(
            d.grab().save(QDir(dir).filePath("proposefix-currencies-" + lang + "-noamount.png")));
        d.amountEdit()->setText("5000");
        QTest::qWait(100);
        QVERIFY(d.grab().save(QDir(dir).filePath("proposefix-currencies-" + lang + ".png")));
        d.currencyBox()->setCurrentIndex(1);
        QTest::qWait(100);
        QVERIFY(d.grab().save(QDir(dir).filePath("proposefix-currencies-" + lang + "-jpy.png")));
        Language::apply("en");
    }
};

QTEST_MAIN(TstFixConsoleCurrencies)
#include "tst_fix_console_currencies.moc"
