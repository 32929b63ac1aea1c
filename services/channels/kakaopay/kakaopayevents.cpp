#include "kakaopayevents.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

namespace OncePay::KakaoPayEvents {

namespace {

QString kst(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone(9 * 3600))
        .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
}

QJsonObject amount(qint64 total)
{
    // VAT is included in total (1/11 of it); tax_free and the rest are zero here.
    return QJsonObject{{"total", total}, {"tax_free", 0}, {"vat", total / 11},
                       {"point", 0},     {"discount", 0}, {"green_deposit", 0}};
}

QJsonObject common(const Params &p)
{
    QJsonObject o{
        {"tid", p.tid},
        {"cid", p.cid},
        {"partner_order_id", p.orderId},
        {"partner_user_id", p.userId},
        {"payment_method_type", "MONEY"},
        {"item_name", p.itemName},
        {"quantity", 1},
        {"amount", amount(p.amountTotal)},
        {"created_at", kst(p.approvedAtMs - 25'000)},
    };
    if (!p.attemptId.isEmpty())
        o.insert("attempt_id", p.attemptId);
    return o;
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

QByteArray approveResult(const Params &p)
{
    QJsonObject o = common(p);
    o.insert("aid", p.aid);
    o.insert("approved_at", kst(p.approvedAtMs));
    return json(o);
}

QByteArray cancelResult(const Params &p, qint64 cancelAmount, const QString &cancelAid,
                        qint64 canceledAtMs, qint64 canceledBefore)
{
    const qint64 canceled = canceledBefore + cancelAmount;
    QJsonObject o = common(p);
    o.insert("aid", cancelAid);
    o.insert("status", canceled >= p.amountTotal ? "CANCEL_PAYMENT" : "PART_CANCEL_PAYMENT");
    o.insert("approved_cancel_amount", amount(cancelAmount));
    o.insert("canceled_amount", amount(canceled));
    o.insert("cancel_available_amount", amount(p.amountTotal - canceled));
    o.insert("approved_at", kst(p.approvedAtMs));
    o.insert("canceled_at", kst(canceledAtMs));
    return json(o);
}

QByteArray statusResult(const Params &p, const QString &status, qint64 canceledTotal)
{
    QJsonObject o = common(p);
    o.insert("status", status);
    const bool cancelled =
        status == QLatin1String("CANCEL_PAYMENT") || status == QLatin1String("PART_CANCEL_PAYMENT");
    if (status == QLatin1String("SUCCESS_PAYMENT") || cancelled)
        o.insert("approved_at", kst(p.approvedAtMs));
    if (cancelled) { // as a running total: all of it for CANCEL_PAYMENT
        const qint64 total =
            status == QLatin1String("CANCEL_PAYMENT") ? p.amountTotal : canceledTotal;
        o.insert("canceled_amount", amount(total));
        o.insert("cancel_available_amount", amount(p.amountTotal - total));
    }
    return json(o);
}

} // namespace OncePay::KakaoPayEvents
