// Every console model over real engine data passes QAbstractItemModelTester, and shows what
// matters: refused rows flagged, money formatted exactly, the order of each row known.

#include "auth/permissions.h"
#include "auth/staffservice.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/language.h"
#include "common/reasontext.h"
#include "connections/connectionstatusmodel.h"
#include "db/healthcheck.h"
#include "fixes/adminmodels.h"
#include "fixes/fixmodels.h"
#include "investigation/discrepancymodel.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "investigation/stuckmodel.h"
#include "scenario.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kFinance{QStringLiteral("fin"), QStringLiteral("finance")};

template <typename Model, typename Rows> void exercise(Rows rows)
{
    Model model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(rows);
    QCOMPARE(model.rowCount(), int(rows.size()));
    QVERIFY(model.columnCount() > 0);
    for (int c = 0; c < model.columnCount(); ++c)
        QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::BackgroundRole),
                             SortRole, RefusedRole, OrderIdRole})
                (void)model.data(model.index(r, c), role);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    for (int c = 0; c < model.columnCount(); ++c)
        proxy.sort(c, Qt::DescendingOrder);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    model.setRows(rows);
}

// The Latin words left in a text shown in 简体中文. Identifiers (they carry digits, '_', '-',
// ':', '.' or '/'), currency codes, channel names and the product's name are data, not words.
QStringList englishWords(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[\\s，。：；（）()“”、→,;:]+"));
    static const QRegularExpression identifier(QStringLiteral("[0-9_\\-:./]"));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    static const QRegularExpression currency(QStringLiteral("\\A[A-Z]{3}\\z"));
    static const QStringList data{"stripe", "paypal", "kakaopay", "fedapay", "OncePay"};
    QStringList out;
    for (const QString &token : text.split(separators, Qt::SkipEmptyParts))
        if (!identifier.match(token).hasMatch() && !currency.match(token).hasMatch() &&
            !data.contains(token) && word.match(token).hasMatch())
            out << token;
    return out;
}

// Every cell of the given columns reads as 简体中文: no Latin word left, and something Chinese
// whenever the cell shows anything but data.
template <typename Model, typename Rows>
void expectChinese(const Rows &rows, const QStringList &columns, const QStringList &kept = {})
{
    Model model;
    model.setRows(rows);
    QVERIFY(model.rowCount() > 0);
    static const QRegularExpression han(QStringLiteral("\\p{Han}"));
    for (int c = 0; c < model.columnCount(); ++c) {
        const QString title = model.headerData(c, Qt::Horizontal).toString();
        QVERIFY2(han.match(title).hasMatch(), qPrintable(title));
    }
    for (const QString &column : columns) {
        int c = 0;
        while (c < model.columnCount() && model.headerData(c, Qt::Horizontal).toString() != column)
            ++c;
        QVERIFY2(c < model.columnCount(), qPrintable(column));
        for (int r = 0; r < model.rowCount(); ++r) {
            const QString shown = model.index(r, c).data().toString();
            if (kept.contains(shown))
                continue; // a person's or the platform's own words: kept as written
            // Someone's own words are shown quoted, as written, after a translated lead-in.
            QString words = shown;
            for (const QString &k : kept)
                words.remove(Labels::quoted(k));
            const QStringList left = englishWords(words);
            QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("%1 row %2: '%3' (%4)")
                                                    .arg(column)
                                                    .arg(r)
                                                    .arg(shown, left.join(u' '))));
        }
    }
}

// The real 简体中文 translation (the .qm compiled into the views library), for one test.
class Chinese {
public:
    Chinese() { m_ok = Language::apply(QStringLiteral("zh_CN")).language() == QLocale::Chinese; }
    ~Chinese() { Language::apply(QStringLiteral("en")); }
    bool ok() const { return m_ok; }

private:
    bool m_ok = false;
};

} // namespace

class TstConsoleModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dbs.ok());
        m_fixture = std::make_unique<EngineFixture>(*m_dbs.value());
        buildScenario(*m_fixture);
    }

    void allModelsPassTheTester()
    {
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-rb", kFinance);
        QVERIFY(rb.ok());
        exercise<TimelineModel>(rb->timeline);
        exercise<MessageModel>(rb->messages);
        exercise<PaymentModel>(rb->payments);
        exercise<LedgerModel>(rb->ledger);
        exercise<IdempotencyModel>(rb->idempotency);
        exercise<AuditRowModel>(rb->audit);
        QVERIFY(!rb->refunds.isEmpty()); // the stale late success: money to refund
        exercise<RefundModel>(rb->refunds);
        auto paid = OrderPictureQuery(*m_fixture->orders).load("ord-paid", kFinance);
        QVERIFY(paid.ok());
        QCOMPARE(paid->fulfilment.size(), 2); // purchase and logistics orders
        exercise<FulfilmentModel>(paid->fulfilment);
        auto hits = OrderSearch(*m_fixture->orders).search("cust-ord-rb", kFinance);
        QVERIFY(hits.ok());
        exercise<OrderHitModel>(*hits);
        auto stuck = StuckQuery(*m_fixture->orders, m_fixture->clock).load({}, kFinance);
        QVERIFY(stuck.ok());
        QVERIFY(!stuck->records.isEmpty());
        exercise<StuckModel>(stuck->records);
        exercise<DiscrepancyTotalModel>(
            QList<DiscrepancyTotal>{{"stripe", "USD", 2, 12345}, {"paypal", "", 1, 7}});
        exercise<TimelineModel>(QList<TimelineEntry>{});
    }

    // The administration's staff list, a fix's change and the Databases view's statuses.
    void staffChangeAndConnectionModelsPassTheTester()
    {
        const Actor setup = Actor::system(QStringLiteral("setup"));
        StaffService staff(*m_fixture->orders, Clock::system());
        for (const auto &[name, role] :
             {std::pair{"amy", StaffRole::Agent}, std::pair{"fin", StaffRole::Finance}})
            QVERIFY(
                staff.add({name, QString(), role}, QString::fromLatin1(name) + "-demo-pw", setup)
                    .ok());
        auto accounts = staff.list(setup);
        QVERIFY(accounts.ok());
        QCOMPARE(accounts->size(), 2);
        exercise<StaffModel>(*accounts);

        ChangeModel change;
        change.setChange(QJsonDocument::fromJson(R"({"after":{"attempts":"0","status":"pending"},
                                                    "before":{"attempts":"12","status":"dead"},
                                                    "target":"message:stripe:evt_1"})")
                             .object());
        QVERIFY(change.rowCount() >= 2);
        exercise<ChangeModel>(change.rows());

        ConnectionStatusModel statuses;
        QAbstractItemModelTester tester(&statuses,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QList<RoleStatus> checked = HealthCheck::checkAll(m_fixture->config);
        statuses.setStatuses(checked);
        QCOMPARE(statuses.rowCount(), 3);
        QCOMPARE(statuses.index(0, ConnectionStatusModel::Status).data().toString(),
                 QStringLiteral("OK"));
        for (int r = 0; r < statuses.rowCount(); ++r)
            for (int c = 0; c < statuses.columnCount(); ++c)
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole),
                                 int(Qt::ForegroundRole), int(Qt::BackgroundRole)})
                    (void)statuses.index(r, c).data(role);
        statuses.setStatuses({});
        QCOMPARE(statuses.rowCount(), 0);
        QCOMPARE(statuses.worstHealth(), Health::Down); // nothing checked is not healthy
        statuses.setStatuses(checked);
        QCOMPARE(statuses.rowCount(), 3);
    }

    // The payments tab reads words, not the engine's codes: a captured payment that no
    // reconciliation has matched yet is "not settled yet", not "pending".
    void paymentsShowWordsNotCodes()
    {
        auto paid = OrderPictureQuery(*m_fixture->orders).load("ord-paid", kFinance);
        QVERIFY(paid.ok());
        QVERIFY(!paid->payments.isEmpty());
        QCOMPARE(paid->payments.first().settlementStatus, QStringLiteral("pending"));
        PaymentModel model;
        model.setRows(paid->payments);
        QHash<QString, QString> cell;
        for (int c = 0; c < model.columnCount(); ++c)
            cell.insert(model.headerData(c, Qt::Horizontal).toString(),
                        model.index(0, c).data().toString());
        QCOMPARE(cell.value("Status"), QStringLiteral("captured"));
        QCOMPARE(cell.value("Settlement"), QStringLiteral("not settled yet"));
    }

    // What the engine wrote (reasons, outcomes, dead letters, refund reasons) and its codes
    // (audit actions, roles, entity kinds, event kinds, operations) read as 简体中文 on every tab
    // of the order page and in the stuck list, over the real engine's scenario. The platform's
    // own words for a rollback ("new attempt") stay as written, and so does the stored text,
    // in the tooltip.
    void zhShowsWordsNotEngineText()
    {
        Chinese zh;
        QVERIFY(zh.ok());
        QStringList orders{"ord-paid", "ord-rb", "ord-ref", "ord-wait", "ord-stuck"};
        for (const QString &id : orders) {
            auto p = OrderPictureQuery(*m_fixture->orders).load(id, kFinance);
            QVERIFY2(p.ok(), qPrintable(id));
            expectChinese<TimelineModel>(p->timeline, {"版本", "事件", "详情", "起因"},
                                         {"new attempt"});
            if (!p->messages.isEmpty())
                expectChinese<MessageModel>(p->messages, {"事件", "状态", "原因 / 最近错误"});
            if (!p->payments.isEmpty())
                expectChinese<PaymentModel>(p->payments, {"状态", "结算"});
            if (!p->ledger.isEmpty())
                expectChinese<LedgerModel>(p->ledger, {"类型"});
            if (!p->idempotency.isEmpty())
                expectChinese<IdempotencyModel>(p->idempotency, {"操作", "状态", "结果"});
            if (!p->refunds.isEmpty())
                expectChinese<RefundModel>(p->refunds, {"原因"});
            if (!p->fulfilment.isEmpty())
                expectChinese<FulfilmentModel>(p->fulfilment, {"类型", "状态"});
            QVERIFY(p->auditVisible);
            QVERIFY(!p->audit.isEmpty());
            expectChinese<AuditRowModel>(p->audit, {"操作", "对象", "原因"}, {"new attempt"});
        }
        auto stuck = StuckQuery(*m_fixture->orders, m_fixture->clock).load({}, kFinance);
        QVERIFY(stuck.ok());
        expectChinese<StuckModel>(stuck->records, {"类型", "状态", "原因 / 最近错误"});

        // The stale late success of ord-rb, word for word, and its stored text as the tooltip.
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-rb", kFinance);
        QVERIFY(rb.ok());
        QVERIFY(!rb->refunds.isEmpty());
        RefundModel refunds;
        refunds.setRows(rb->refunds);
        const QString stored = rb->refunds.first().reason;
        QCOMPARE(stored,
                 QStringLiteral("attempt req-rb-1 is not the current attempt of order ord-rb"
                                " (v4, pending_payment)"));
        QCOMPARE(
            refunds.index(0, 4).data().toString(),
            QStringLiteral("支付尝试 req-rb-1 不是订单 ord-rb 的当前支付尝试（版本 4，待支付）"));
        QCOMPARE(refunds.index(0, 4).data(Qt::ToolTipRole).toString(), stored);
        TimelineModel timeline;
        timeline.setRows(rb->timeline);
        QStringList details;
        for (int r = 0; r < timeline.rowCount(); ++r)
            details << timeline.index(r, TimelineModel::Detail).data().toString();
        QVERIFY2(details.contains(QStringLiteral("stripe 通知支付失败")),
                 qPrintable(details.join('|')));
        QVERIFY(details.contains(QStringLiteral("金额与币种核对无误")));
        // The platform's words, quoted as written after a translated lead-in.
        QVERIFY2(details.contains(Labels::givenReason("new attempt", Labels::ReasonAuthor::Shop)),
                 qPrintable(details.join('|')));
        // A callback: its kind as words, the channel's own name of the event kept.
        QVERIFY2(details.contains(QStringLiteral("支付失败（payment_intent.payment_failed）")),
                 qPrintable(details.join('|')));
        QVERIFY(details.contains(QStringLiteral("支付成功（payment_intent.succeeded）")));
    }

    // Each mapping on its own, in 简体中文 and in English, and every engine template translated.
    void engineTextAndCodesInBothLanguages()
    {
        const QString stale = QStringLiteral(
            "stale: attempt a-1 is not the current attempt of order o-1 (v7, paid); captured "
            "money flagged for refund");
        const QString mismatch =
            QStringLiteral("paid_unconfirmed at v3: amount 898.74 CNY differs "
                           "from the order's 998.59 CNY; waiting for a person");
        {
            Chinese zh;
            QVERIFY(zh.ok());
            static const QRegularExpression words(QStringLiteral("[A-Za-z]{2,}"));
            for (const QString &t : Labels::engineTemplates())
                if (words.match(t).hasMatch()) // "  %1" and "%1: %2" have nothing to translate
                    QVERIFY2(
                        QCoreApplication::translate("OncePay::EngineText", qPrintable(t)) != t,
                        qPrintable(QStringLiteral("no 简体中文 for the engine's '%1'").arg(t)));
            QCOMPARE(
                Labels::engineText(stale),
                QStringLiteral("过时：支付尝试 a-1 不是订单 o-1 的当前支付尝试（版本 7，已支付）；"
                               "已收款项已标记为待退款"));
            QCOMPARE(Labels::engineText(mismatch),
                     QStringLiteral("已付款待确认（版本 3）：金额 898.74 CNY 与订单金额 998.59 CNY "
                                    "不一致；等待人工处理"));
            QCOMPARE(Labels::engineText("paid at v4"), QStringLiteral("已支付（版本 4）"));
            // A truncated chain, whose sentence names one row twice.
            QCOMPARE(Labels::engineText("chain truncated: checkpoint 1 seals seq 18977 but the "
                                        "chain ends at seq 18900 (rows 18901..18977 are missing)"),
                     QStringLiteral("链被截断：检查点 1 封印到序号 18977，但链止于序号 18900"
                                    "（序号 18901..18977 的行缺失）"));
            // A settings refusal and an export refused on a broken chain, as the services word
            // them (settingsservice.cpp, auditexporter.cpp).
            QCOMPARE(Labels::engineText("worker.backoff_base_ms (5000) may not be above "
                                        "worker.backoff_max_ms (1000)"),
                     QStringLiteral("worker.backoff_base_ms（5000）不得大于 "
                                    "worker.backoff_max_ms（1000）"));
            QCOMPARE(Labels::engineText("the audit chain is broken: row seq 100 is reordered or "
                                        "relinked (its prev_hash is not the hash of seq 99); "
                                        "nothing was exported (run `oncepay audit verify` or "
                                        "Verify chain)"),
                     QStringLiteral("审计链已损坏：序号 100 的行被重排或重新链接（其 prev_hash "
                                    "不是序号 99 的哈希）；未导出任何内容（请运行 `oncepay audit "
                                    "verify` 或“校验链”）"));
            // A callback refused for its amount, after the channel's name (channeljson.cpp,
            // stripeadapter.cpp): the Stripe sentence names each value once, so it is matched.
            QCOMPARE(Labels::engineText("stripe: 1050 is not a whole number of ISK: Stripe counts "
                                        "this currency in hundredths, always ending in 00"),
                     QStringLiteral("stripe：1050 不是 ISK 的整数：Stripe 以百分之一计这种货币，"
                                    "末两位总是 00"));
            QCOMPARE(Labels::engineText("paypal: amount.value is negative"),
                     QStringLiteral("paypal：amount.value 为负数"));
            // A fix's evidence: amounts as the currency writes them, what was captured.
            QCOMPARE(Labels::engineText("order o-1: paid_unconfirmed at version 3, 294.88 USD"),
                     QStringLiteral("订单 o-1：已付款待确认，版本 3，294.88 USD"));
            QCOMPARE(Labels::engineText("  captured 317700 KRW in total: 35300 KRW less than the "
                                        "order's 353000 KRW"),
                     QStringLiteral("  共收款 317700 KRW：比订单金额 353000 KRW 少 35300 KRW"));
            // A refusal the engine worded reads as words in a page's error line too.
            for (ErrorCode code : {ErrorCode::Conflict, ErrorCode::Stale, ErrorCode::Invalid}) {
                const QString said = errorText(makeError(code, "unknown order ghost-1", "x"));
                QVERIFY2(said.contains(u"未知订单 ghost-1") && !said.contains(u"unknown"),
                         qPrintable(said));
            }
            QCOMPARE(Labels::engineText("unknown order ghost-1"),
                     QStringLiteral("未知订单 ghost-1"));
            // A refusal of rights, for every right: the role and what it may not do in words.
            for (Action a : {Action::ReadOrders, Action::ProposeFix, Action::DecideFix,
                             Action::ReadAudit, Action::ManageStaff, Action::ManageSettings}) {
                const QString said =
                    Labels::engineText(QStringLiteral("amy (agent) may not %1").arg(actionName(a)));
                QVERIFY2(said.startsWith(u"amy（客服）") && !said.contains(actionName(a)),
                         qPrintable(said));
            }
            QCOMPARE(Labels::engineText("amy (finance) may not manage settings: the staff "
                                        "account's role is now auditor"),
                     QStringLiteral("amy（财务）无权管理设置：该员工账户的角色现为审计"));
            QCOMPARE(Labels::engineText("a reason is required"), QStringLiteral("必须填写原因"));
            QCOMPARE(Labels::engineText("the period ends before it starts"),
                     QStringLiteral("期间的结束早于开始"));
            // A staff refusal, its role code as the role's word.
            QCOMPARE(Labels::engineText("amy already has the role finance"),
                     QStringLiteral("amy 已是财务角色"));
            QCOMPARE(
                Labels::engineText("boss is the last enabled administrator and keeps the role"),
                QStringLiteral("boss 是最后一位启用的管理员，保留其角色"));
            QCOMPARE(Labels::engineText("settled 62700 XOF, order 66000 XOF"),
                     QStringLiteral("结算金额 62700 XOF，订单金额 66000 XOF"));
            QCOMPARE(Labels::engineText("confirm_payment proposed (payment_verified: seen)"),
                     QStringLiteral("已提议修复“确认付款”（已向渠道核实付款：seen）"));
            // A fix's evidence, line by line.
            QCOMPARE(Labels::engineText("  last error: unknown order ghost-1"),
                     QStringLiteral("  最近错误：未知订单 ghost-1"));
            QCOMPARE(Labels::engineText(
                         "order ghost-1 does not exist (yet): a callback for it cannot be applied"),
                     QStringLiteral("订单 ghost-1（尚）不存在：无法应用针对它的回调"));
            QCOMPARE(Labels::engineText("  v2 pending_payment → paying by checkout (request r-1) "
                                        "payment attempt on stripe"),
                     QStringLiteral("  版本 2：待支付 → 支付中，操作者 checkout（请求 r-1）"
                                    "通过 stripe 发起支付"));
            // A fix refused, as the propose dialog lists it ("target: why").
            QCOMPARE(
                Labels::engineText(
                    "ord-1: order ord-1 is paid; confirm_payment takes paid_unconfirmed orders"),
                QStringLiteral(
                    "ord-1：订单 ord-1 为“已支付”；“确认付款”只适用于已付款待确认的订单"));
            // Not the engine's: as written.
            QCOMPARE(Labels::engineText("customer cancelled"),
                     QStringLiteral("customer cancelled"));
            QCOMPARE(Labels::engineText("stripe: the dog ate it"),
                     QStringLiteral("stripe: the dog ate it"));
            QCOMPARE(Labels::auditAction("order.transition"), QStringLiteral("订单状态变更"));
            QCOMPARE(Labels::auditAction("callback.dead_lettered"), QStringLiteral("回调转入死信"));
            QCOMPARE(Labels::actorRole("platform"), QStringLiteral("平台"));
            QCOMPARE(Labels::actorRole("system"), QStringLiteral("系统"));
            QCOMPARE(Labels::entityKind("order"), QStringLiteral("订单"));
            QCOMPARE(Labels::callbackEvent("payment_succeeded", "APPROVE"),
                     QStringLiteral("支付成功（APPROVE）"));
            QCOMPARE(Labels::requestOperation("pay"), QStringLiteral("发起支付"));
            QCOMPARE(Labels::requestOutcome(R"({"state":"paying","version":2})"),
                     QStringLiteral("支付中，版本 2"));
            QCOMPARE(Labels::fulfilmentStatus("created"), QStringLiteral("已创建"));
            QCOMPARE(Labels::auditFilter({}), QStringLiteral("全部记录"));

            // A fix's change: field names and values as words; a value's tooltip is its words
            // with the stored code beside them, a field's its code.
            ChangeModel change;
            change.setChange(QJsonDocument::fromJson(
                                 R"({"after":{"attempts":"0","status":"pending"},
                                     "before":{"attempts":"12","status":"dead"},
                                     "target":"message:stripe:evt_1"})")
                                 .object());
            QHash<QString, QStringList> rows;
            for (int r = 0; r < change.rowCount(); ++r)
                rows.insert(change.index(r, 0).data(Qt::ToolTipRole).toString(),
                            {change.index(r, 0).data().toString(),
                             change.index(r, 1).data().toString(),
                             change.index(r, 2).data().toString(),
                             change.index(r, 2).data(Qt::ToolTipRole).toString()});
            QCOMPARE(rows.value("status"),
                     QStringList({"状态", "死信", "待处理", "待处理 (pending)"}));
            QCOMPARE(rows.value("attempts").value(0), QStringLiteral("尝试次数"));
        }
        QCOMPARE(Labels::engineText("stripe reports success"),
                 QStringLiteral("stripe reports success"));
        QCOMPARE(Labels::auditAction("order.transition"), QStringLiteral("order state changed"));
        QCOMPARE(Labels::engineText(mismatch), mismatch); // English: as the engine wrote it
    }

    // Every audit action the engine writes reads as words in both languages (the audit tab,
    // the audit trail and the dossier show Labels::auditAction): found in the services' sources
    // as written — a literal "<entity>.<verb>" or "logout" — plus the two built from a status
    // (worker.cpp: "callback." + completed/skipped; reconciliationwriter.cpp:
    // "reconciliation." + failed/cancelled). An action added without words fails here.
    void everyAuditActionTheEngineWritesHasWords()
    {
        static const QRegularExpression literal(
            QStringLiteral(R"re(QStringLiteral\("((?:order|payment|callback|fix|login|staff|)re"
                           R"re(setting|settlement|fees|reconciliation|audit|export)\.[a-z_]+|)re"
                           R"re(logout)"\))re"));
        QSet<QString> actions{"callback.completed", "callback.skipped", "reconciliation.failed",
                              "reconciliation.cancelled"};
        QDirIterator files(QStringLiteral(ONCEPAY_SERVICES_DIR), {"*.cpp", "*.h"}, QDir::Files,
                           QDirIterator::Subdirectories);
        int scanned = 0;
        while (files.hasNext()) {
            QFile f(files.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            ++scanned;
            for (const auto &m : literal.globalMatch(QString::fromUtf8(f.readAll())))
                actions.insert(m.captured(1));
        }
        QVERIFY2(scanned > 100, "the services' sources were not found");
        actions.remove(QStringLiteral("audit.db")); // the audit database's file name
        QVERIFY2(actions.size() > 35, qPrintable(QStringList(actions.values()).join(u' ')));
        for (const QString &a : actions)
            QVERIFY2(Labels::auditAction(a) != a, qPrintable(a + " has no words"));
        Chinese zh;
        QVERIFY(zh.ok());
        static const QRegularExpression latin(QStringLiteral("[A-Za-z]"));
        for (const QString &a : actions)
            QVERIFY2(!latin.match(Labels::auditAction(a)).hasMatch(),
                     qPrintable(a + " has no 简体中文: " + Labels::auditAction(a)));
    }

    void timelineShowsVersionsCausesAndRefusals()
    {
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-rb", kFinance);
        TimelineModel model;
        model.setRows(rb->timeline);
        int refused = 0;
        QStringList versions;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, 0).data(RefusedRole).toBool()) {
                ++refused;
                QVERIFY(model.index(r, 0).data(Qt::BackgroundRole).isValid());
            }
            const QString v = model.index(r, TimelineModel::Version).data().toString();
            if (v.startsWith(u'v'))
                versions << v;
        }
        QCOMPARE(refused, 3);
        QCOMPARE(versions, QStringList({"v2", "v3", "v4", "v5", "v6", "v7"}));
        bool sawStale = false;
        for (int r = 0; r < model.rowCount(); ++r)
            sawStale |=
                model.index(r, TimelineModel::Event).data().toString().startsWith(u"Refused:");
        QVERIFY(sawStale);
    }

    void moneyIsExact()
    {
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-ref", kFinance);
        LedgerModel model;
        model.setRows(rb->ledger);
        QStringList amounts;
        for (int r = 0; r < model.rowCount(); ++r)
            amounts << model.index(r, 2).data().toString();
        QVERIFY2(amounts.contains(u"45000 KRW") || amounts.join(u',').contains(u"45000"),
                 qPrintable(amounts.join(u',')));
        QCOMPARE(model.index(0, 2).data(SortRole).toString(),
                 Labels::moneySortKey(45000, QStringLiteral("KRW")));
    }

    // Sorting by Amount never compares minor units of two currencies: 1,300 JPY is not more
    // than 9.34 EUR. Rows sort by currency, then by amount within it, negatives first.
    void amountsSortWithinTheirCurrency()
    {
        const QList<std::pair<qint64, QString>> amounts{
            {130000000, "KRW"}, {934, "EUR"},  {1300, "JPY"}, {900000, "USD"},
            {5300, "JPY"},      {-250, "EUR"}, {1474, "USD"}, {12, "EUR"}};
        QList<StuckRecord> rows;
        for (const auto &[minor, currency] : amounts) {
            StuckRecord r;
            r.kind = StuckKind::DeadLetter;
            r.orderId = QStringLiteral("ord-%1-%2").arg(currency).arg(minor);
            r.hasAmount = true;
            r.amountMinor = minor;
            r.currency = currency;
            rows << r;
        }
        StuckModel model;
        model.setRows(rows);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SortRole);
        proxy.sort(StuckModel::Amount, Qt::AscendingOrder);
        QStringList sorted;
        for (int r = 0; r < proxy.rowCount(); ++r)
            sorted << proxy.index(r, StuckModel::Amount).data().toString();
        QCOMPARE(sorted, QStringList({"-2.50 EUR", "0.12 EUR", "9.34 EUR", "1300 JPY", "5300 JPY",
                                      "130000000 KRW", "14.74 USD", "9000.00 USD"}));
    }

    // Money in a currency OncePay does not know (a row written around the checks) is the
    // count of minor units, never with a guessed decimal point, said in the reader's language.
    void unknownCurrencyIsACountInBothLanguages()
    {
        QCOMPARE(Labels::money(12345, QStringLiteral("XXX")),
                 QStringLiteral("12345 XXX minor units (unknown currency)"));
        QCOMPARE(Labels::money(-2100, QString()),
                 QStringLiteral("-2100 minor units (no currency)"));
        QCOMPARE(Labels::money(12345, QStringLiteral("USD")), QStringLiteral("123.45 USD"));
        Chinese zh;
        QVERIFY(zh.ok());
        const QString unknown = Labels::money(12345, QStringLiteral("XXX"));
        QVERIFY2(unknown.startsWith(u"12345 XXX") && !unknown.contains(u"unknown") &&
                     !unknown.contains(u'.'),
                 qPrintable(unknown));
        const QString none = Labels::money(2100, QString());
        QVERIFY2(none.startsWith(u"2100") && !none.contains(u"currency"), qPrintable(none));
    }

    void stuckRowsKnowTheirOrder()
    {
        auto stuck = StuckQuery(*m_fixture->orders, m_fixture->clock).load({}, kFinance);
        StuckModel model;
        model.setRows(stuck->records);
        QStringList orders;
        for (int r = 0; r < model.rowCount(); ++r)
            orders << model.index(r, StuckModel::Kind).data(OrderIdRole).toString();
        QVERIFY(orders.contains(u"ord-ghost"));
        QVERIFY(orders.contains(u"ord-rb"));
        QVERIFY(orders.contains(u"ord-wait"));
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstConsoleModels)
#include "tst_console_models.moc"
