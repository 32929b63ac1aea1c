// `oncepay fix …` end to end: staff sign in with the password on stdin, an agent proposes a
// requeue of a dead letter, the agent may not approve it, a finance reviewer approves the
// digest `fix show` printed, and the message is pending again; an approval that lapsed with its
// reviewer's role is said.

#include "../reconciliation/reconcilescenario.h"
#include "cliprocess.h"
#include "db/sql.h"
#include "enginefixture.h"

#include <QRegularExpression>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::Reconcile;

class TstFixCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void proposeApproveFromTheCommandLine()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString config = dbs->writeConfigFile(&env);
        const QStringList c{QStringLiteral("--config"), config};
        const QByteArray password = "correct horse battery\n";
        QCOMPARE(
            runOncepay(c + QStringList{"staff", "add", "amy", "--role", "agent"}, env, password)
                .exitCode,
            0);
        QCOMPARE(
            runOncepay(c + QStringList{"staff", "add", "fin", "--role", "finance"}, env, password)
                .exitCode,
            0);

        {
            EngineFixture f(*dbs);
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params("o-ghost", "a1", 2100, "USD", "evt_g", "pi_g")));
            for (int i = 0; i < 10; ++i) {
                f.drain();
                f.clock.advance(3600 * 1000);
            }
            QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        }

        auto wrong = runOncepay(c + QStringList{"fix", "propose", "requeue_message", "stripe:evt_g",
                                                "--user", "amy", "--reason", "poison_message",
                                                "--comment", "replay"},
                                env, "not the password\n");
        QVERIFY2(wrong.exitCode != 0, qPrintable(wrong.out));
        QVERIFY2(wrong.err.contains("sign-in refused"), qPrintable(wrong.err));

        auto proposed = runOncepay(
            c + QStringList{"fix", "propose", "requeue_message", "stripe:evt_g", "--user", "amy",
                            "--reason", "poison_message", "--comment", "order arrived late"},
            env, password);
        QVERIFY2(proposed.exitCode == 0, qPrintable(proposed.err));
        QVERIFY(proposed.out.contains("fix #1"));
        // Money in the currency's decimals, never bare minor units.
        QVERIFY2(proposed.out.contains("amount        21.00 USD\n"), qPrintable(proposed.out));
        const auto digest = QRegularExpression("digest\\s+([0-9a-f]{64})").match(proposed.out);
        QVERIFY2(digest.hasMatch(), qPrintable(proposed.out));

        auto own = runOncepay(
            c + QStringList{"fix", "approve", "1", "--user", "amy", "--digest", digest.captured(1)},
            env, password);
        QVERIFY(own.exitCode != 0);
        QVERIFY2(own.err.contains("may not"), qPrintable(own.err));

        auto listed = runOncepay(c + QStringList{"fix", "list"}, env);
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains("requeue_message") && listed.out.contains("0/1") &&
                     listed.out.contains(" 21.00 USD ") && !listed.out.contains("2100 USD"),
                 qPrintable(listed.out));

        // No --comment: an approval's comment is optional.
        auto approved = runOncepay(c + QStringList{"fix", "approve", "#1", "--user", "fin",
                                                   "--digest", digest.captured(1)},
                                   env, password);
        QVERIFY2(approved.exitCode == 0, qPrintable(approved.err));
        QVERIFY2(approved.out.contains("status        applied"), qPrintable(approved.out));

        auto shown = runOncepay(c + QStringList{"fix", "show", "1"}, env);
        QVERIFY(shown.out.contains("approve by fin"));
        QVERIFY2(shown.out.contains("amount        21.00 USD\n"), qPrintable(shown.out));
        auto none = runOncepay(c + QStringList{"fix", "list"}, env);
        QVERIFY(none.out.contains("no fixes match"));

        EngineFixture f(*dbs);
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM callback_messages WHERE status = 'pending' AND attempts = 0"),
            1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action LIKE 'fix.%'"),
                 4); // refused, proposed, approved, applied
    }

    // A currency mismatch has no difference across currencies: `fix propose` takes the amount
    // and its currency (--currency, one of the two involved) and is refused without them.
    void currencyMismatchTakesCurrency()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString config = dbs->writeConfigFile(&env);
        const QStringList c{QStringLiteral("--config"), config};
        const QByteArray password = "correct horse battery\n";
        QCOMPARE(
            runOncepay(c + QStringList{"staff", "add", "fin", "--role", "finance"}, env, password)
                .exitCode,
            0);
        QString id;
        {
            EngineFixture f(*dbs);
            Scenario s(f);
            f.createOrder("o-yen", 34200, "JPY");
            f.pay("o-yen", 1, "a-o-yen");
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params("o-yen", "a-o-yen", 34200, "JPY", "evt_o-yen", "pi_yen")));
            f.drain();
            s.importStatement({line("pi_yen", 16000, 494, kT0 + kDay, "USD")}, "week1.csv");
            f.clock.set(kT0 + 5 * kDay);
            s.reconcile();
            auto v = Sql::scalar(f.orders->db(),
                                 QStringLiteral("SELECT MIN(id) FROM discrepancies WHERE kind ="
                                                " 'currency_mismatch'"));
            QVERIFY(v && !v->isNull());
            id = v->toString();
        }
        const QStringList propose =
            c + QStringList{"fix",       "propose", "write_off", id,
                            "--user",    "fin",     "--reason",  "settlement_correction",
                            "--comment", "x"};
        auto bare = runOncepay(propose, env, password);
        QCOMPARE(bare.exitCode, 1);
        QVERIFY2(bare.err.contains("has amounts in two currencies (expected in JPY, settled in "
                                   "USD); give the amount to book and its currency"),
                 qPrintable(bare.err));
        auto noAmount = runOncepay(propose + QStringList{"--currency", "JPY"}, env, password);
        QCOMPARE(noAmount.exitCode, 2);
        auto yen = runOncepay(propose + QStringList{"--amount-minor", "5000", "--currency", "jpy"},
                              env, password);
        QVERIFY2(yen.exitCode == 0, qPrintable(yen.err));
        QVERIFY2(yen.out.contains("amount        5000 JPY\n"), qPrintable(yen.out));
    }

    // Review rev-roles B and C from the command line: an approval of a reviewer moved to the
    // agents since (`staff set-role`) no longer counts, and `fix approve` says so; a target
    // spelled otherwise (" o-role ") is the same target.
    void aLapsedApprovalIsSaid()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString config = dbs->writeConfigFile(&env);
        const QStringList c{QStringLiteral("--config"), config};
        const QByteArray password = "correct horse battery\n";
        for (const auto &[name, role] : QList<QPair<QString, QString>>{
                 {"amy", "agent"}, {"fin", "finance"}, {"fay", "finance"}})
            QCOMPARE(
                runOncepay(c + QStringList{"staff", "add", name, "--role", role}, env, password)
                    .exitCode,
                0);
        {
            EngineFixture f(*dbs);
            Order o = f.createOrder("o-role", 250000, "USD");
            f.pay("o-role", o.version, "req-o-role");
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params("o-role", "req-o-role", 249000, "USD", "evt_o-role", "pi_o-role")));
            f.drain();
            QCOMPARE(f.order("o-role").state, OrderState::PaidUnconfirmed);
        }
        auto proposed = runOncepay(c + QStringList{"fix", "propose", "confirm_payment", "o-role",
                                                   "--user", "amy", "--reason", "payment_verified",
                                                   "--comment", "receipt seen"},
                                   env, password);
        QVERIFY2(proposed.exitCode == 0, qPrintable(proposed.err));
        QVERIFY2(proposed.out.contains("approvals     0 of 2\n"), qPrintable(proposed.out));
        const auto digest = QRegularExpression("digest\\s+([0-9a-f]{64})").match(proposed.out);
        QVERIFY2(digest.hasMatch(), qPrintable(proposed.out));
        auto again = runOncepay(c + QStringList{"fix", "propose", "confirm_payment", " o-role ",
                                                "--user", "amy", "--reason", "payment_verified",
                                                "--comment", "receipt seen"},
                                env, password);
        QVERIFY2(again.exitCode != 0, qPrintable(again.out));
        QVERIFY2(again.err.contains("order:o-role already has an open proposal (#1); decide that "
                                    "one first"),
                 qPrintable(again.err));
        const QStringList approve{"fix", "approve", "1", "--digest", digest.captured(1), "--user"};
        QCOMPARE(runOncepay(c + approve + QStringList{"fin"}, env, password).exitCode, 0);
        auto demoted = runOncepay(
            c + QStringList{"staff", "set-role", "fin", "agent", "--reason", "moved to support"},
            env);
        QVERIFY2(demoted.exitCode == 0, qPrintable(demoted.err));
        auto second = runOncepay(c + approve + QStringList{"fay"}, env, password);
        QVERIFY2(second.exitCode == 0, qPrintable(second.err));
        QVERIFY2(second.out.contains("status        open\n"), qPrintable(second.out));
        QVERIFY2(second.out.contains("approvals     1 of 2\n"), qPrintable(second.out));
        QVERIFY2(second.out.contains("lapsed        fin is no longer a finance reviewer: its "
                                     "approval no longer counts\n"),
                 qPrintable(second.out));
        auto listed = runOncepay(c + QStringList{"fix", "list"}, env);
        QVERIFY2(listed.out.contains(" 1/2 "), qPrintable(listed.out));
        EngineFixture f(*dbs);
        QCOMPARE(f.order("o-role").state, OrderState::PaidUnconfirmed);
    }
};

QTEST_GUILESS_MAIN(TstFixCli)
#include "tst_fix_cli.moc"
