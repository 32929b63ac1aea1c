#pragma once

// Realistic KakaoPay API answers as the checkout service relays them (the layouts of
// KakaoPay's online payment reference: approve, cancel, order status), for the tests, the
// simulator and the benchmarks.
// Thread contract: pure functions; safe from any thread.

#include <QByteArray>
#include <QString>

namespace OncePay::KakaoPayEvents {

struct Params {
    QString tid = QStringLiteral("T6846ac3ee3d1f2a0b1c2");
    QString aid = QStringLiteral("A6846ac6a4c2e8f9d0e1");
    QString cid = QStringLiteral("TC0ONETIME");
    QString orderId;                                  // partner_order_id
    QString userId = QStringLiteral("customer-1001"); // partner_user_id
    QString attemptId;      // added by the relay as "attempt_id" when not empty
    qint64 amountTotal = 0; // KRW
    QString itemName = QStringLiteral("代购 order");
    qint64 approvedAtMs = 1719878400000; // rendered in KST without a zone, as KakaoPay does
};

QByteArray approveResult(const Params &p);
// A cancel answer for `cancelAmount` after `canceledBefore` was cancelled by earlier requests
// (all cancelled then → CANCEL_PAYMENT, less → PART_CANCEL_PAYMENT); `cancelAid` is the cancel
// request's own aid; canceled_amount is the running total, cancel_available_amount the rest.
QByteArray cancelResult(const Params &p, qint64 cancelAmount, const QString &cancelAid,
                        qint64 canceledAtMs, qint64 canceledBefore = 0);
// An order-status answer (SUCCESS_PAYMENT, FAIL_PAYMENT, QUIT_PAYMENT, READY, …;
// CANCEL_PAYMENT with all of amountTotal as canceled_amount; PART_CANCEL_PAYMENT with
// `canceledTotal`, the running total cancelled so far).
QByteArray statusResult(const Params &p, const QString &status, qint64 canceledTotal = 0);

} // namespace OncePay::KakaoPayEvents
