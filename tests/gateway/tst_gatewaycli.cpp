// `oncepay gateway` end to end through the real binary: start it with the in-process worker,
// POST a signed callback, see the order paid and its audit events shipped, send SIGTERM, and
// get exit code 0. And where it cannot listen: a malformed `[gateway] listen` (exit 3, the
// setting named, as systemd is told not to restart), a malformed `--listen` (exit 2) and an
// address another program holds (exit 4, which is restarted) — each said on stderr.

#include "enginefixture.h"
#include "gatewaytestsupport.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTest>

#include <csignal>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

struct Run {
    int exitCode = -1;
    QString err; // its stderr, or what went wrong running it
};

// `oncepay --config <scratch config + extra> gateway <args>`, which must end on its own.
Run runGateway(const ScratchDatabases &dbs, const QByteArray &extraConfig, const QStringList &args)
{
    QProcessEnvironment env;
    const QString configPath = dbs.writeConfigFile(&env);
    if (!extraConfig.isEmpty()) {
        QFile f(configPath);
        if (!f.open(QIODevice::Append) || f.write(extraConfig) != extraConfig.size())
            return {-1, QStringLiteral("cannot append to ") + configPath};
    }
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("ONCEPAY_BIN_DIR") + QStringLiteral("/oncepay"),
            QStringList{QStringLiteral("--config"), configPath, QStringLiteral("gateway")} + args);
    if (!p.waitForStarted())
        return {-1, QStringLiteral("oncepay did not start: ") + p.errorString()};
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return {-1, QStringLiteral("oncepay gateway did not end within 30 s; its stderr:\n") +
                        QString::fromUtf8(p.readAllStandardError())};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TstGatewayCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sigtermAfterServing_data() { addEngineRows(); }
    void sigtermAfterServing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs); // migrates; its manual clock is not the gateway's
        f.clock.set(QDateTime::currentMSecsSinceEpoch());
        f.createOrder("o-cli", 2112);
        f.pay("o-cli", 1, "a1");

        QProcessEnvironment env;
        const QString configPath = dbs->writeConfigFile(&env);
        env.insert(QStringLiteral("ONCEPAY_STRIPE_WEBHOOK_SECRET"),
                   QString::fromLatin1(kGwStripeSecret));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(qEnvironmentVariable("ONCEPAY_BIN_DIR") + QStringLiteral("/oncepay"),
                {QStringLiteral("--config"), configPath, QStringLiteral("gateway"),
                 QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                 QStringLiteral("--with-worker")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QRegularExpressionMatch m;
        const QRegularExpression listening(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput(),
                                  m = listening.match(QString::fromUtf8(out)), m.hasMatch()),
                                 30000);
        const quint16 port = quint16(m.captured(1).toUInt());

        const InboundRequest req =
            StripeSigner::sign(StripeEvents::paymentIntentSucceeded(
                                   f.params("o-cli", "a1", 2112, "USD", "evt_cli", "pi_cli")),
                               kGwStripeSecret, nowSeconds());
        HttpResult r = offThread([&] {
            return TestHttpClient(port).request("POST", "/webhooks/stripe", req.body, req.headers);
        });
        QCOMPARE(r.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(f.order("o-cli").state, OrderState::Paid, 30000);
        // The in-process worker ships the audit outbox as `oncepay work` does: every event,
        // the payment's and the order's before it, reaches the audit database.
        QVERIFY(f.count("SELECT COUNT(*) FROM audit_outbox") > 0);
        QTRY_COMPARE_WITH_TIMEOUT(
            f.count("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at IS NULL"), 0, 20000);

        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(
            err.contains(QStringLiteral("access method=POST path=/webhooks/stripe status=200")),
            qPrintable(err.right(2000)));
        QVERIFY(!err.contains(QString::fromLatin1(kGwStripeSecret)));
        QVERIFY(!err.contains(QStringLiteral("\"object\""))); // no bodies in the log
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"), 1);
    }

    void aMalformedListenSettingExitsThree()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs);
        const Run r = runGateway(**dbs, "\n[gateway]\nlisten = localhost-8080\n", {});
        QVERIFY2(r.exitCode == 3, qPrintable(QString::number(r.exitCode) + u' ' + r.err));
        QVERIFY2(r.err.contains(QStringLiteral("[gateway] listen = 'localhost-8080' is not"
                                               " ADDR:PORT")),
                 qPrintable(r.err));
    }

    void aMalformedListenOptionExitsTwo()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs);
        const Run r =
            runGateway(**dbs, {}, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:99999")});
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + u' ' + r.err));
        QVERIFY2(r.err.contains(QStringLiteral("--listen needs ADDR:PORT")), qPrintable(r.err));
    }

    void anAddressInUseExitsFour()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs);
        QTcpServer holder; // another program on the address
        QVERIFY(holder.listen(QHostAddress::LocalHost, 0));
        const QString address = QStringLiteral("127.0.0.1:%1").arg(holder.serverPort());
        const Run r = runGateway(**dbs, {}, {QStringLiteral("--listen"), address});
        QVERIFY2(r.exitCode == 4, qPrintable(QString::number(r.exitCode) + u' ' + r.err));
        QVERIFY2(r.err.contains(QStringLiteral("cannot listen on ") + address), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TstGatewayCli)
#include "tst_gatewaycli.moc"
