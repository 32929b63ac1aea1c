// A channel transaction id is unique only within its channel (PayPal, Stripe, KakaoPay and
// FedaPay each issue their own), on every engine: the same id paid on Stripe for one order and
// on KakaoPay for another. An order's page shows the callbacks and reconciliation exceptions of
// its own transactions on their own channels, never the other channel's; a search for the bare
// id answers both holders, each with its channel, and a ghost order's callback on one channel
// is not hidden by an order holding the same id on another.

#include "channels/kakaopay/kakaopayevents.h"
#include "channels/kakaopay/kakaopaysigner.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "scenario.h"

#include <QSet>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};
const QByteArray kKakaoSecret =
    QByteArrayLiteral("whsec_") + QByteArrayLiteral("txn-channel-kakaopay-key").toBase64();

// The fixture's engine with KakaoPay configured beside Stripe.
void addKakaoPay(EngineFixture &f)
{
    f.config.channels[QStringLiteral("kakaopay")][QStringLiteral("webhook_secret")] =
        QString::fromLatin1(kKakaoSecret);
    f.ingest.reset();
    f.channels = std::make_unique<ChannelRegistry>(f.config);
    f.ingest = std::make_unique<IngestService>(*f.orders, *f.channels, f.clock);
}

// The checkout's relay of a KakaoPay approval for `orderId`'s attempt, with KakaoPay's `tid`.
void deliverKakaoApproval(EngineFixture &f, const QString &orderId, const QString &attempt,
                          qint64 krw, const QString &tid, const QByteArray &webhookId)
{
    KakaoPayEvents::Params p;
    p.tid = tid;
    p.orderId = orderId;
    p.attemptId = attempt;
    p.amountTotal = krw;
    p.approvedAtMs = f.clock.nowMs();
    auto r = f.ingest->ingest(QStringLiteral("kakaopay"),
                              KakaoPaySigner::sign(KakaoPayEvents::approveResult(p), kKakaoSecret,
                                                   webhookId, f.clock.nowMs() / 1000));
    if (!r)
        qFatal("kakaopay ingest: %s", qPrintable(r.error().message));
}

void payOnKakao(EngineFixture &f, const QString &orderId, qint64 version, const QString &request)
{
    auto r = f.service->startPayment(orderId, QStringLiteral("kakaopay"), version, request,
                                     Actor::platform());
    if (!r)
        qFatal("pay on kakaopay: %s", qPrintable(r.error().message));
}

// A reconciliation exception as reconciliation writes it, without an order id (it names the
// transaction: a fee mismatch, say).
bool insertException(EngineFixture &f, const QString &channel, const QString &txn,
                     const QString &kind, const QString &currency)
{
    return Sql::exec(f.orders->db(),
                     "INSERT INTO discrepancies (discrepancy_key, kind, channel, channel_txn_id,"
                     " expected_minor, actual_minor, currency, status, detail, first_run_id,"
                     " last_run_id, opened_at) VALUES (?, ?, ?, ?, 100, 120, ?, 'open',"
                     " 'found by the test', 1, 1, ?)",
                     {QString(kind + u':' + channel + u':' + txn), kind, channel, txn, currency,
                      f.clock.nowMs()})
        .ok();
}

// The two orders that share a transaction id, one on each channel, paid through the engine.
void payTwoOrdersWithOneTxnId(EngineFixture &f)
{
    addKakaoPay(f);
    f.createOrder("ord-stripe", 2500);
    f.pay("ord-stripe", 1, "req-stripe-1");
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("ord-stripe", "req-stripe-1", 2500, "USD", "evt_stripe_paid", "T-SHARED")));
    f.drain();
    f.clock.advance(60 * 1000);
    f.createOrder("ord-kakao", 45000, "KRW");
    payOnKakao(f, "ord-kakao", 1, "req-kakao-1");
    deliverKakaoApproval(f, "ord-kakao", "req-kakao-1", 45000, "T-SHARED", "msg_kakao_paid");
    f.drain();
    if (f.order("ord-stripe").state != OrderState::Paid ||
        f.order("ord-kakao").state != OrderState::Paid)
        qFatal("the two orders did not reach paid");
}

QSet<QString> channelsOf(const QList<CallbackMessageRow> &messages)
{
    QSet<QString> out;
    for (const CallbackMessageRow &m : messages)
        out.insert(m.channel);
    return out;
}

QStringList exceptionKeys(const QList<OrderExceptionRow> &rows)
{
    QStringList out;
    for (const OrderExceptionRow &d : rows)
        out << d.channel + u' ' + d.channelTxnId + u' ' + d.kind + u' ' + d.expectedCurrency;
    out.sort();
    return out;
}

} // namespace

class TstTxnChannel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each order's page: its own callbacks and exceptions, the other channel's not — also a
    // callback that names only the transaction, which is found on its own channel.
    void orderPageReadsItsTransactionsOnTheirChannel_data() { addEngineRows(); }
    void orderPageReadsItsTransactionsOnTheirChannel()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        payTwoOrdersWithOneTxnId(f);
        // A KakaoPay result that names only its transaction (no order), as stored.
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO callback_messages (callback_id, channel, event_kind,"
                          " channel_txn_id, raw_body, headers, status, attempts, next_attempt_at,"
                          " received_at, updated_at) VALUES ('kakaopay:msg_txn_only', 'kakaopay',"
                          " 'other', 'T-SHARED', '{}', '{}', 'skipped', 1, ?, ?, ?)",
                          {f.clock.nowMs(), f.clock.nowMs(), f.clock.nowMs()})
                    .ok());
        QVERIFY(insertException(f, "stripe", "T-SHARED", "fee_mismatch", "USD"));
        QVERIFY(insertException(f, "kakaopay", "T-SHARED", "amount_mismatch", "KRW"));

        auto stripe = OrderPictureQuery(*f.orders).load("ord-stripe", kAgent);
        QVERIFY2(stripe.ok(), qPrintable(stripe.ok() ? QString() : stripe.error().message));
        QVERIFY(!stripe->messages.isEmpty());
        QCOMPARE(channelsOf(stripe->messages), QSet<QString>{QStringLiteral("stripe")});
        QCOMPARE(exceptionKeys(stripe->discrepancies),
                 QStringList{"stripe T-SHARED fee_mismatch USD"});
        QCOMPARE(openExceptions(*stripe).size(), 1);

        auto kakao = OrderPictureQuery(*f.orders).load("ord-kakao", kAgent);
        QVERIFY(kakao.ok());
        QCOMPARE(channelsOf(kakao->messages), QSet<QString>{QStringLiteral("kakaopay")});
        QStringList ids;
        for (const CallbackMessageRow &m : std::as_const(kakao->messages))
            ids << m.callbackId;
        QCOMPARE(ids, (QStringList{"kakaopay:msg_kakao_paid", "kakaopay:msg_txn_only"}));
        QCOMPARE(exceptionKeys(kakao->discrepancies),
                 QStringList{"kakaopay T-SHARED amount_mismatch KRW"});
        for (const TimelineEntry &e : std::as_const(kakao->timeline))
            if (e.kind == TimelineKind::CallbackReceived)
                QVERIFY2(e.causeId.startsWith(u"kakaopay:"), qPrintable(e.causeId));
    }

    // An order whose attempts were on two channels (rolled back after Stripe, paid on
    // KakaoPay) reads each of its payments' transactions on that payment's channel.
    void anOrderPaidOnTwoChannelsReadsBoth_data() { addEngineRows(); }
    void anOrderPaidOnTwoChannelsReadsBoth()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        addKakaoPay(f);
        f.createOrder("ord-switch", 30000, "KRW");
        f.pay("ord-switch", 1, "req-switch-1");
        // Stripe captured less than the order: confirmation refused, rolled back.
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("ord-switch", "req-switch-1", 29000, "KRW", "evt_switch", "T-FIRST")));
        f.drain();
        const Order unconfirmed = f.order("ord-switch");
        QCOMPARE(unconfirmed.state, OrderState::PaidUnconfirmed);
        QVERIFY(f.service->rollback("ord-switch", unconfirmed.version, CauseKind::Request,
                                    "rb-switch", Actor::platform(), "amount short"));
        payOnKakao(f, "ord-switch", unconfirmed.version + 1, "req-switch-2");
        deliverKakaoApproval(f, "ord-switch", "req-switch-2", 30000, "T-SECOND", "msg_switch");
        f.drain();
        QCOMPARE(f.order("ord-switch").state, OrderState::Paid);
        QCOMPARE(f.order("ord-switch").channel, QStringLiteral("kakaopay"));

        for (const auto &[channel, txn] :
             {std::pair{"stripe", "T-FIRST"}, std::pair{"kakaopay", "T-FIRST"},
              std::pair{"stripe", "T-SECOND"}, std::pair{"kakaopay", "T-SECOND"}})
            QVERIFY(insertException(f, channel, txn, "fee_mismatch", "KRW"));
        auto p = OrderPictureQuery(*f.orders).load("ord-switch", kAgent);
        QVERIFY(p.ok());
        QCOMPARE(p->payments.size(), 2);
        QCOMPARE(exceptionKeys(p->discrepancies), (QStringList{"kakaopay T-SECOND fee_mismatch KRW",
                                                               "stripe T-FIRST fee_mismatch KRW"}));
    }

    // A bare transaction id held on two channels: both orders, each labelled with its channel.
    // A ghost order's callback on KakaoPay carrying an id that a Stripe order holds is answered
    // beside that order, and found by its own callback id.
    void searchAnswersEveryChannelHoldingTheTxnId_data() { addEngineRows(); }
    void searchAnswersEveryChannelHoldingTheTxnId()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        payTwoOrdersWithOneTxnId(f);
        OrderSearch search(*f.orders);
        auto both = search.search("T-SHARED", kAgent);
        QVERIFY(both.ok());
        QStringList found;
        for (const OrderHit &h : *both) {
            QCOMPARE(h.matchedBy, MatchKind::ChannelTxn);
            QCOMPARE(h.matchedValue, QStringLiteral("T-SHARED"));
            found << h.order.orderId + u'@' + h.matchedChannel;
        }
        found.sort();
        QCOMPARE(found, (QStringList{"ord-kakao@kakaopay", "ord-stripe@stripe"}));

        // A Stripe order holds T-GHOSTED; a KakaoPay approval for an order nobody created
        // carries the same id, retried until it is a dead letter.
        f.createOrder("ord-held", 700);
        f.pay("ord-held", 1, "req-held-1");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("ord-held", "req-held-1", 700, "USD", "evt_held", "T-GHOSTED")));
        f.drain();
        deliverKakaoApproval(f, "ord-nobody", "a1", 9900, "T-GHOSTED", "msg_ghost");
        for (int i = 0; i < 8; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        auto mixed = search.search("T-GHOSTED", kAgent);
        QVERIFY(mixed.ok());
        QCOMPARE(mixed->size(), 2);
        QCOMPARE(mixed->at(0).matchedBy, MatchKind::ChannelTxn);
        QCOMPARE(mixed->at(0).order.orderId, QStringLiteral("ord-held"));
        QCOMPARE(mixed->at(0).matchedChannel, QStringLiteral("stripe"));
        QCOMPARE(mixed->at(1).matchedBy, MatchKind::UnknownOrderCallback);
        QCOMPARE(mixed->at(1).matchedChannel, QStringLiteral("kakaopay"));
        QCOMPARE(mixed->at(1).callback.callbackId, QStringLiteral("kakaopay:msg_ghost"));
        QCOMPARE(mixed->at(1).callback.orderRef, QStringLiteral("ord-nobody"));
        QCOMPARE(mixed->at(1).callback.status, QStringLiteral("dead"));

        for (const char *term : {"kakaopay:msg_ghost", "msg_ghost", "ord-nobody"}) {
            auto ghost = search.search(QString::fromLatin1(term), kAgent);
            QVERIFY2(ghost.ok(), term);
            QCOMPARE(ghost->size(), 1);
            QCOMPARE(ghost->first().matchedBy, MatchKind::UnknownOrderCallback);
            QCOMPARE(ghost->first().callback.channelTxnId, QStringLiteral("T-GHOSTED"));
        }
        // The order's own search is unchanged: found by its callback, with that callback's
        // channel.
        auto own = search.search("evt_held", kAgent);
        QVERIFY(own.ok());
        QCOMPARE(own->size(), 1);
        QCOMPARE(own->first().matchedBy, MatchKind::CallbackId);
        QCOMPARE(own->first().order.orderId, QStringLiteral("ord-held"));
        QCOMPARE(own->first().matchedChannel, QStringLiteral("stripe"));
    }
};

QTEST_GUILESS_MAIN(TstTxnChannel)
#include "tst_txn_channel.moc"
