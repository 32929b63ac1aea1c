// How the console words reasons and engine sentences, in English, through a marking
// translator and in 简体中文: a reason code reads as its word, the engine's sentences are
// translated, a shop's and people's own words are quoted as written and never translated —
// even when they read word for word as an engine sentence; each channel's signature scheme.
// (What fits on screen: tst_console_layout.)

#include "audit/audittrailmodel.h"
#include "channels/channelregistry.h"
#include "common/enginetext.h"
#include "common/labels.h"
#include "common/language.h"
#include "common/reasontext.h"
#include "consolefixture.h"
#include "enginesentencewords.h"
#include "fixes/fixlabels.h"
#include "investigation/dossier.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "orders/orderpage.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QTranslator>

#include <memory>
#include <tuple>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// A translation of everything the console asks to translate in the given contexts: "⟪source⟫".
// What is shown through it and not marked was not asked for a translation.
class WordingMarkingTranslator : public QTranslator {
public:
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        const QLatin1String c(context);
        if (c == QLatin1String("OncePay::EngineText") || c == QLatin1String("OncePay::Labels"))
            return u'⟪' + QString::fromUtf8(source) + u'⟫';
        return {};
    }
};

} // namespace

class TstConsoleWording : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpConsoleTest(m_dbs, m_fixture)); }
    void cleanup() { Language::apply(QStringLiteral("en")); }

    // A reason code at the start of an audit row's reason reads as its word, the code kept in
    // parentheses; a person's comment and a shop's reason are quoted as written.
    void auditReasonCodesReadAsWords()
    {
        const QString verified = Labels::fixReason("payment_verified");
        QVERIFY(verified != u"payment_verified");
        QCOMPARE(Labels::auditReason("fix.proposed", "agent", "payment_verified: seen it"),
                 QStringLiteral("%1 (payment_verified): “seen it”").arg(verified));
        QCOMPARE(Labels::auditReason("fix.applied", "finance", "channel_outage"),
                 QStringLiteral("%1 (channel_outage)").arg(Labels::fixReason("channel_outage")));
        QCOMPARE(Labels::auditReason("fix.rejected", "finance", "wrong_amount: too much: really"),
                 QStringLiteral("%1 (wrong_amount): “too much: really”")
                     .arg(Labels::rejectionReason("wrong_amount")));
        QCOMPARE(Labels::auditReason("login.failed", "agent", "wrong_password"),
                 QStringLiteral("Wrong password (wrong_password)"));
        // Not a code of that action: as any other reason.
        QCOMPARE(Labels::auditReason("fix.proposed", "agent", "payment_verifiedx: a"),
                 QStringLiteral("payment_verifiedx: a"));
        QCOMPARE(Labels::auditReason("fix.approved", "finance", "checked the log"),
                 QStringLiteral("Staff comment: “checked the log”"));
        QCOMPARE(Labels::auditReason("order.rollback", "platform", "declined; try again"),
                 QStringLiteral("Shop's reason: “declined; try again”"));
        // The engine's sentences stay sentences, whoever the actor.
        QCOMPARE(Labels::auditReason("order.transition", "platform", "payment attempt on stripe"),
                 QStringLiteral("payment attempt on stripe"));
        QCOMPARE(Labels::auditReason("fix.failed", "finance", "fix #3 was decided meanwhile"),
                 QStringLiteral("fix #3 was decided meanwhile"));
        QCOMPARE(Labels::auditReason("export.dossier", "finance", "dispute dossier"),
                 QStringLiteral("dispute dossier"));
    }

    // In another language the lead-ins and the engine's sentences are translated, the shop's
    // and people's own words never are: they are shown quoted as written. On ord-rb's timeline
    // the platform's rollback reason ("new attempt") follows a translated lead-in.
    void ownWordsAreQuotedNotTranslated()
    {
        WordingMarkingTranslator marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        const auto removeMarking =
            qScopeGuard([&marking] { QCoreApplication::removeTranslator(&marking); });
        QCOMPARE(Labels::auditReason("order.rollback", "platform", "new attempt"),
                 QStringLiteral("⟪Shop's reason: “new attempt”⟫"));
        QCOMPARE(Labels::auditReason("order.rollback", "", "new attempt"),
                 QStringLiteral("⟪Reason given: “new attempt”⟫"));
        QCOMPARE(Labels::engineText("rolled back after capture: declined"),
                 QStringLiteral("⟪rolled back after capture: “declined”⟫"));
        QCOMPARE(Labels::engineText("rolled back after capture: stripe reports failure"),
                 QStringLiteral("⟪rolled back after capture: ⟪stripe reports failure⟫⟫"));
        // A fix's comment is its proposer's words, even when they read as an engine sentence.
        const QString fixed =
            Labels::engineText("fix #3 (channel_outage) proposed by amy: stripe reports failure");
        QVERIFY2(fixed.startsWith(u"⟪fix #3") && fixed.endsWith(u"“stripe reports failure”⟫") &&
                     !fixed.contains(u"⟪stripe reports failure"),
                 qPrintable(fixed));
        auto rb = OrderPictureQuery(*m_fixture->orders)
                      .load("ord-rb", account("finance", StaffRole::Finance).actor());
        QVERIFY(rb.ok());
        TimelineModel timeline;
        timeline.setRows(rb->timeline);
        int shop = 0, given = 0;
        for (int r = 0; r < timeline.rowCount(); ++r) {
            const QString d = timeline.index(r, TimelineModel::Detail).data().toString();
            QVERIFY2(!d.contains(u"⟪new attempt"), qPrintable(d));
            shop += d == u"⟪Shop's reason: “new attempt”⟫";
            given += d == u"⟪Reason given: “new attempt”⟫";
        }
        QCOMPARE(shop, 1);  // the transition, asked for by the platform's request
        QCOMPARE(given, 1); // its audit row, whose author the timeline was not told
        // Told the audit rows' roles (as the order page does), the audit row says it too.
        timeline.setAuditRows(rb->audit);
        QStringList details;
        for (int r = 0; r < timeline.rowCount(); ++r)
            details << timeline.index(r, TimelineModel::Detail).data().toString();
        QCOMPARE(details.count(QStringLiteral("⟪Shop's reason: “new attempt”⟫")), 2);
    }

    // In the real 简体中文: the lead-in reads in Chinese, the words stay as written.
    void ownWordsInChinese()
    {
        QCOMPARE(Language::apply(QStringLiteral("zh_CN")).language(), QLocale::Chinese);
        static const QRegularExpression han(QStringLiteral("\\A\\p{Han}"));
        for (const auto &[action, role] :
             {std::pair{"order.rollback", "platform"}, std::pair{"fix.approved", "finance"},
              std::pair{"order.rollback", ""}}) {
            const QString shown = Labels::auditReason(action, role, "declined; new attempt");
            QVERIFY2(han.match(shown).hasMatch() && shown.endsWith(u"“declined; new attempt”"),
                     qPrintable(shown));
        }
        const QString coded = Labels::auditReason("fix.proposed", "agent", "payment_verified: ok");
        QVERIFY2(coded.startsWith(Labels::fixReason("payment_verified")) &&
                     han.match(coded).hasMatch() && coded.contains(u"payment_verified") &&
                     coded.endsWith(u"“ok”"),
                 qPrintable(coded));
    }

    // Someone's own words are shown as written even when they are word for word one of the
    // engine's sentences; only what the engine wrote is translated (in 简体中文, where the two
    // differ). In a shop's or a staff member's name the engine writes two sentences only: the
    // payment attempt a shop asked for and a fix applied in the approver's name.
    void ownWordsThatReadAsEngineSentencesStayAsWritten()
    {
        QCOMPARE(Language::apply(QStringLiteral("zh_CN")).language(), QLocale::Chinese);
        const QString attempt = QStringLiteral("payment attempt on stripe");
        const QString fixLine = QStringLiteral("fix #3 (channel_outage) proposed by agent: ok");
        for (const QString &s : {kRejectComment, kApproveComment, attempt, fixLine})
            QVERIFY2(Labels::engineText(s) != s, qPrintable(s)); // the engine's: translated
        QCOMPARE(Labels::auditReason("order.transition", "platform", attempt),
                 Labels::engineText(attempt));
        QCOMPARE(Labels::auditReason("order.rollback", "finance", fixLine),
                 Labels::engineText(fixLine));
        QCOMPARE(Labels::givenReason(fixLine, Labels::ReasonAuthor::Staff),
                 Labels::engineText(fixLine));
        const std::tuple<const char *, const char *, QString> own[] = {
            {"order.rollback", "platform", kRejectComment},
            {"order.rollback", "platform", attempt},
            {"order.transition", "platform", kApproveComment},
            {"fix.approved", "finance", kRejectComment},
            {"fix.approved", "finance", fixLine},
            {"fix.approved", "", kRejectComment},
            {"setting.changed", "admin", kApproveComment},
            {"staff.disabled", "admin", kRejectComment}};
        for (const auto &[action, role, words] : own) {
            const QString shown = Labels::auditReason(action, role, words);
            QVERIFY2(shown.endsWith(Labels::quoted(words)) &&
                         !shown.contains(Labels::engineText(words)),
                     qPrintable(QStringLiteral("%1 %2: %3").arg(action, role, shown)));
        }
        // On the real engine: a shop rolls an order back and cancels it in engine sentences.
        EngineFixture &f = *m_fixture;
        f.createOrder("ord-words", 3100);
        f.pay("ord-words", 1, "req-w-1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("ord-words", "req-w-1", 3100, "USD", "evt_w_fail", "pi_w1")));
        f.drain();
        QVERIFY(f.service->rollback("ord-words", 3, CauseKind::Request, "rb-w", Actor::platform(),
                                    kRejectComment));
        QVERIFY(f.service->cancel("ord-words", 4, CauseKind::Request, "cn-w", Actor::platform(),
                                  kApproveComment));
        auto p = OrderPictureQuery(*f.orders).load("ord-words",
                                                   account("finance", StaffRole::Finance).actor());
        QVERIFY(p.ok());
        TimelineModel timeline;
        timeline.setRows(p->timeline);
        timeline.setAuditRows(p->audit);
        AuditRowModel audit;
        audit.setRows(p->audit);
        QStringList shown;
        for (int r = 0; r < timeline.rowCount(); ++r)
            shown << timeline.index(r, TimelineModel::Detail).data().toString();
        for (int r = 0; r < audit.rowCount(); ++r)
            for (int c = 0; c < audit.columnCount(); ++c)
                shown << audit.index(r, c).data().toString();
        const QString all = shown.join(u'|');
        for (const QString &words : {kRejectComment, kApproveComment}) {
            // The transition, its audit row on the timeline and on the audit tab.
            QVERIFY2(shown.count(Labels::givenReason(words, Labels::ReasonAuthor::Shop)) == 3 &&
                         !all.contains(Labels::engineText(words)),
                     qPrintable(all));
        }
        QVERIFY2(shown.contains(Labels::engineText(attempt)), qPrintable(all));
        // The order's present reason — set by the shop's rollback, kept by the cancellation —
        // is its words too: in the page's facts and in the dossier, quoted, not translated.
        const QString given = Labels::givenReason(kRejectComment, Labels::ReasonAuthor::Shop);
        QCOMPARE(p->order.stateReason, kRejectComment);
        QCOMPARE(Labels::orderReason(p->order.stateReason, p->transitions), given);
        // A reason that no transition gives is the engine's: a failed payment's channel event
        // type quoted as stored, a sentence in words — no one's "reason given".
        const QList<OrderTransition> failed{{0, "o", "paying", "payment_failed", 3, "callback",
                                             "cb", "worker",
                                             "stripe reports"
                                             " failure",
                                             0}};
        QCOMPARE(Labels::orderReason("payment_intent.payment_failed", failed),
                 Labels::quoted("payment_intent.payment_failed"));
        QCOMPARE(Labels::orderReason(kRejectComment, failed), Labels::engineText(kRejectComment));
        OrderPage page(f.config.orders, account("finance", StaffRole::Finance).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-words");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        const QString facts = page.findChild<QLabel *>(QStringLiteral("orderFacts"))->text();
        QVERIFY2(facts.contains(given) && !facts.contains(Labels::engineText(kRejectComment)),
                 qPrintable(facts));
        const QString dossier = Dossier::html(*p, QStringLiteral("finance"), 0);
        // The dossier: the order's reason, the rollback and its audit row on the timeline, the
        // audit row in the audit rows' table.
        QVERIFY2(dossier.count(given.toHtmlEscaped()) == 4 &&
                     !dossier.contains(Labels::engineText(kRejectComment).toHtmlEscaped()),
                 qPrintable(dossier));
    }

    // Each channel's signature scheme is an engine sentence the console translates, its header
    // names kept; the order page's callback tab shows it so.
    void signatureSchemesAreTranslated()
    {
        WordingMarkingTranslator marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        const auto removeMarking =
            qScopeGuard([&marking] { QCoreApplication::removeTranslator(&marking); });
        for (const char *channel : {"stripe", "fedapay", "kakaopay", "paypal"}) {
            const QString scheme = ChannelRegistry::signatureScheme(channel);
            QVERIFY2(Labels::isEngineText(scheme), qPrintable(scheme));
            const QString shown = Labels::engineText(scheme);
            QVERIFY2(shown.startsWith(u'⟪') && shown.endsWith(u'⟫'), qPrintable(shown));
            QCOMPARE(shown.mid(1, shown.size() - 2), scheme); // the headers put back as they were
        }
        OrderPage page(m_fixture->config.orders, account("finance", StaffRole::Finance).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        page.showCallback(0);
        const QString raw = page.findChild<QPlainTextEdit *>("rawCallback")->toPlainText();
        QVERIFY2(raw.contains(Labels::engineText(ChannelRegistry::signatureScheme("stripe"))),
                 qPrintable(raw));
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstConsoleWording)
#include "tst_console_wording.moc"
