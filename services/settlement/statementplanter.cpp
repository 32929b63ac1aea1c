#include "statementplanter.h"

#include "feeschedule.h"
#include "formats/statementformat.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>

namespace OncePay {

namespace {

constexpr qint64 kMinute = 60 * 1000;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;
constexpr qint64 kWeek = 7 * kDay;
constexpr qint64 kSkew = 12 * 60 * kMinute; // twice reconcile.capture_skew_minutes by default

struct Rng {
    quint64 state;
    quint64 next()
    {
        quint64 z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    qint64 below(qint64 n) { return n > 0 ? qint64(next() % quint64(n)) : 0; }
};

// What the channels charge (list prices, rounded): percentage in ppm and fixed minor units.
std::pair<qint64, qint64> baseRate(const QString &channel, const QString &currency)
{
    if (channel == u"stripe")
        return currency == u"JPY"   ? std::pair{36000LL, 0LL}
               : currency == u"CNY" ? std::pair{34000LL, 0LL}
                                    : std::pair{29000LL, 30LL};
    if (channel == u"paypal")
        return currency == u"JPY" ? std::pair{36000LL, 40LL} : std::pair{34900LL, 49LL};
    if (channel == u"kakaopay")
        return {22000, 0};
    if (channel == u"fedapay")
        return {35000, 0};
    return {30000, 0};
}

// When the channel settles a capture: Stripe's available_on (T+2), KakaoPay's 정산일 (D+3,
// a date in KST), PayPal and FedaPay at once.
qint64 settleAt(const QString &channel, qint64 at)
{
    if (channel == u"stripe")
        return at + 2 * kDay;
    if (channel == u"kakaopay") {
        const qint64 kst = 9 * 60 * kMinute;
        return (at + 3 * kDay + kst) / kDay * kDay - kst;
    }
    return at + kMinute;
}

QString otherCurrency(const QString &c)
{
    static const QHash<QString, QString> swap{{QStringLiteral("USD"), QStringLiteral("EUR")},
                                              {QStringLiteral("EUR"), QStringLiteral("USD")},
                                              {QStringLiteral("CNY"), QStringLiteral("USD")},
                                              {QStringLiteral("JPY"), QStringLiteral("KRW")},
                                              {QStringLiteral("KRW"), QStringLiteral("JPY")},
                                              {QStringLiteral("XOF"), QStringLiteral("XAF")}};
    return swap.value(c, QStringLiteral("USD"));
}

QString unknownTxnId(const QString &channel, quint64 n)
{
    if (channel == u"stripe")
        return QStringLiteral("pi_3Unk%1").arg(n, 16, 16, QLatin1Char('0'));
    if (channel == u"paypal")
        return QStringLiteral("9UNK%1").arg(n, 13, 10, QLatin1Char('0'));
    if (channel == u"kakaopay")
        return QStringLiteral("Tunk%1").arg(n, 16, 16, QLatin1Char('0'));
    return QString::number(95000000000ull + n);
}

Result<void> writeFile(const QString &path, const QByteArray &data)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit())
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

struct Planned {
    SettlementLine line;
    QString defect; // empty for a faithful line
};

} // namespace

qint64 StatementPlanter::feeChangeAtMs(const StatementPlan &plan)
{
    const qint64 startDay = plan.startMs / kDay * kDay;
    return startDay + std::max(1, plan.days / 2) * kDay;
}

Result<PlantedStatements> StatementPlanter::plant(const StatementPlan &plan)
{
    Rng rng{plan.seed ^ 0x5E771E5E771Eull};
    const qint64 startDay = plan.startMs / kDay * kDay;
    const qint64 change = feeChangeAtMs(plan);

    // The fee schedule: list price since a month before, +0.05 points from `change`.
    QList<FeeRule> rules;
    QMap<QString, QSet<QString>> currencies;
    for (const ChannelCapture &c : plan.captures)
        currencies[c.channel].insert(c.currency);
    qint64 ruleId = 0;
    for (auto it = currencies.cbegin(); it != currencies.cend(); ++it) {
        QStringList list(it->begin(), it->end());
        list.sort();
        for (const QString &cur : list) {
            const auto [ppm, fixed] = baseRate(it.key(), cur);
            rules << FeeRule{++ruleId,
                             it.key(),
                             cur,
                             startDay - 30 * kDay,
                             ppm,
                             fixed,
                             QStringLiteral("list price")};
            rules << FeeRule{++ruleId,
                             it.key(),
                             cur,
                             change,
                             ppm + kFeeChangePpm,
                             fixed,
                             QStringLiteral("rate change announced by the channel")};
        }
    }
    const FeeSchedule schedule(rules);

    // Faithful lines first.
    QHash<QString, int> perOrder;
    for (const ChannelCapture &c : plan.captures)
        ++perOrder[c.orderId];
    QList<Planned> lines;
    QList<qsizetype> candidates;  // captures a defect may be planted on
    QList<qsizetype> refundLines; // the refund lines of refunded captures
    QJsonArray naturals;
    for (const ChannelCapture &c : plan.captures) {
        Planned p;
        SettlementLine &l = p.line;
        l.channelTxnId = c.channelTxnId;
        l.kind = SettlementKind::Charge;
        l.grossMinor = c.amountMinor;
        const FeeRule *rule = schedule.ruleAt(c.channel, c.currency, c.capturedAtMs);
        l.feeMinor = rule ? Fees::feeFor(c.amountMinor, *rule) : 0;
        l.netMinor = l.grossMinor - l.feeMinor;
        l.currency = c.currency;
        l.settledAtMs = settleAt(c.channel, c.capturedAtMs);
        l.reference = c.orderId;
        l.transactedAtMs = c.capturedAtMs;
        l.raw = c.channel; // carried to the grouping below
        const bool ghost = c.orderId.startsWith(QStringLiteral("ghost-"));
        if (ghost)
            naturals << QJsonObject{{QStringLiteral("kind"), QStringLiteral("unknown_settlement")},
                                    {QStringLiteral("channel"), c.channel},
                                    {QStringLiteral("channel_txn_id"), c.channelTxnId},
                                    {QStringLiteral("story"),
                                     QStringLiteral("capture for an order that does not exist")}};
        // Not within hours of the fee change: our captured_at may fall on its other side.
        const bool nearChange = qAbs(c.capturedAtMs - change) < kSkew;
        if (!ghost && !c.refunded && perOrder.value(c.orderId) == 1 && !nearChange)
            candidates << lines.size();
        lines << p;
        if (c.refunded) {
            Planned r = p;
            r.line.kind = SettlementKind::Refund;
            r.line.grossMinor = -c.amountMinor;
            r.line.feeMinor = 0;
            r.line.netMinor = -c.amountMinor;
            r.line.settledAtMs = std::max(settleAt(c.channel, c.refundedAtMs), l.settledAtMs);
            r.line.transactedAtMs = c.refundedAtMs;
            if (!ghost && perOrder.value(c.orderId) == 1)
                refundLines << lines.size();
            lines << r;
        }
    }
    for (qsizetype i = candidates.size() - 1; i > 0; --i)
        std::swap(candidates[i], candidates[rng.below(i + 1)]);
    for (qsizetype i = refundLines.size() - 1; i > 0; --i)
        std::swap(refundLines[i], refundLines[rng.below(i + 1)]);

    // Plant: each capture carries at most one defect.
    const qsizetype perKind = std::max<qsizetype>(1, candidates.size() / 120);
    QMap<QString, qint64> counts;
    QJsonArray manifest;
    QList<Planned> extra;
    auto record = [&](const QString &kind, const QString &status, const SettlementLine &l,
                      const QString &note) {
        ++counts[kind == u"fee_mismatch" && status == u"auto_fixed"
                     ? QStringLiteral("fee_explained")
                     : kind];
        manifest << QJsonObject{{QStringLiteral("kind"), kind},
                                {QStringLiteral("channel"), l.raw},
                                {QStringLiteral("channel_txn_id"), l.channelTxnId},
                                {QStringLiteral("expected_status"), status},
                                {QStringLiteral("note"), note}};
    };
    QList<qsizetype> pool = candidates;
    auto take = [&](const QString &name, auto &&fits, auto &&apply) {
        qsizetype planted = 0;
        for (qsizetype i = 0; i < pool.size() && planted < perKind;) {
            Planned &p = lines[pool[i]];
            if (!fits(p.line)) {
                ++i;
                continue;
            }
            p.defect = name;
            apply(p.line);
            pool.removeAt(i);
            ++planted;
        }
    };
    auto ruleFor = [&](const SettlementLine &l, qint64 at) {
        return schedule.ruleAt(l.raw, l.currency, at);
    };
    // A channel fixes its fee when it makes the charge (the line's transaction time), and the
    // fee rule (fee.schedule_change v2) judges it there. Explained: a charge the channel made
    // an hour before the fee change at the old rate, whose callback reached OncePay late (its
    // captured_at at least kSkew after the change): OncePay's books expect the new rate, the
    // known change explains the old one, and the difference is corrected automatically.
    take(
        QStringLiteral("fee_explained"),
        [&](const SettlementLine &l) {
            const FeeRule *a = ruleFor(l, change - kHour), *b = ruleFor(l, l.transactedAtMs);
            // Booked at least kSkew after the change and at most 72 h after the charge (the
            // rule's kFeeExplainMaxLagMs): a lag the rule can explain.
            if (!a || !b || a->id == b->id || l.transactedAtMs < change + kSkew ||
                l.transactedAtMs > change - kHour + 3 * kDay)
                return false;
            const qint64 diff =
                qAbs(Fees::feeFor(l.grossMinor, *b) - Fees::feeFor(l.grossMinor, *a));
            return diff > 0 && diff * 1000000 <= 1000 * l.grossMinor;
        },
        [&](SettlementLine &l) {
            l.transactedAtMs = change - kHour;
            l.settledAtMs = settleAt(l.raw, l.transactedAtMs);
            l.feeMinor = Fees::feeFor(l.grossMinor, *ruleFor(l, l.transactedAtMs));
            l.netMinor = l.grossMinor - l.feeMinor;
            record(QStringLiteral("fee_mismatch"), QStringLiteral("auto_fixed"), l,
                   QStringLiteral("charged before the fee change at the old rate, booked by"
                                  " OncePay after it"));
        });
    // Not explained: the new rate on a charge made before the change that settled after it —
    // what rule v1 accepted by the settlement date's schedule (a wrong basis).
    take(
        QStringLiteral("fee_new_rate_early"),
        [&](const SettlementLine &l) {
            const FeeRule *a = ruleFor(l, l.transactedAtMs), *b = ruleFor(l, l.settledAtMs);
            if (!a || !b || a->id == b->id || ruleFor(l, l.transactedAtMs - kSkew) != a)
                return false;
            const qint64 diff =
                qAbs(Fees::feeFor(l.grossMinor, *b) - Fees::feeFor(l.grossMinor, *a));
            return diff > 0 && diff * 1000000 <= 1000 * l.grossMinor;
        },
        [&](SettlementLine &l) {
            l.feeMinor = Fees::feeFor(l.grossMinor, *ruleFor(l, l.settledAtMs));
            l.netMinor = l.grossMinor - l.feeMinor;
            record(QStringLiteral("fee_mismatch"), QStringLiteral("open"), l,
                   QStringLiteral("new-rate fee on a charge made before the fee change"));
        });
    take(
        QStringLiteral("fee_beyond"), [](const SettlementLine &) { return true; },
        [&](SettlementLine &l) {
            l.feeMinor += l.grossMinor / 100 + 1;
            l.netMinor = l.grossMinor - l.feeMinor;
            record(QStringLiteral("fee_mismatch"), QStringLiteral("open"), l,
                   QStringLiteral("fee 1 % too high"));
        });
    take(
        QStringLiteral("fee_unexplained"),
        [&](const SettlementLine &l) {
            const FeeRule *a = ruleFor(l, l.transactedAtMs), *b = ruleFor(l, l.settledAtMs);
            return a && b && a->id == b->id && ruleFor(l, l.transactedAtMs - kSkew) == a &&
                   l.grossMinor >= 2000;
        },
        [&](SettlementLine &l) {
            l.feeMinor += 1;
            l.netMinor = l.grossMinor - l.feeMinor;
            record(QStringLiteral("fee_mismatch"), QStringLiteral("open"), l,
                   QStringLiteral("within tolerance, but no fee change explains it"));
        });
    take(
        QStringLiteral("not_settled"), [](const SettlementLine &) { return true; },
        [&](SettlementLine &l) {
            record(QStringLiteral("not_settled"), QStringLiteral("open"), l,
                   QStringLiteral("left out of the statement"));
        });
    take(
        QStringLiteral("duplicate"), [](const SettlementLine &) { return true; },
        [&](SettlementLine &l) {
            Planned copy{l, QString()};
            extra << copy;
            record(QStringLiteral("duplicate_settlement"), QStringLiteral("open"), l,
                   QStringLiteral("the same settlement twice"));
        });
    take(
        QStringLiteral("currency"), [](const SettlementLine &) { return true; },
        [&](SettlementLine &l) {
            l.currency = otherCurrency(l.currency);
            record(QStringLiteral("currency_mismatch"), QStringLiteral("open"), l,
                   QStringLiteral("settled in the wrong currency"));
        });
    take(
        QStringLiteral("amount"), [](const SettlementLine &l) { return l.grossMinor > 20; },
        [&](SettlementLine &l) {
            l.grossMinor -= std::max<qint64>(1, l.grossMinor / 20);
            const FeeRule *rule = ruleFor(l, l.transactedAtMs);
            l.feeMinor = rule ? Fees::feeFor(l.grossMinor, *rule) : 0;
            l.netMinor = l.grossMinor - l.feeMinor;
            record(QStringLiteral("amount_mismatch"), QStringLiteral("open"), l,
                   QStringLiteral("settled 5 % less than captured"));
        });
    take(
        QStringLiteral("refund_unbooked"), [](const SettlementLine &) { return true; },
        [&](SettlementLine &l) {
            Planned r{l, QString()};
            r.line.kind = SettlementKind::Refund;
            r.line.grossMinor = -l.grossMinor;
            r.line.feeMinor = 0;
            r.line.netMinor = r.line.grossMinor;
            r.line.settledAtMs = l.settledAtMs + kDay;
            r.line.transactedAtMs = l.transactedAtMs + kDay;
            extra << r;
            record(QStringLiteral("unknown_settlement"), QStringLiteral("open"), l,
                   QStringLiteral("the channel refunded a payment nobody refunded"));
        });
    // A refund OncePay booked that the channel's statements leave out.
    for (qsizetype i = 0; i < std::min(perKind, refundLines.size()); ++i) {
        Planned &p = lines[refundLines[i]];
        p.defect = QStringLiteral("not_settled");
        record(QStringLiteral("refund_not_settled"), QStringLiteral("open"), p.line,
               QStringLiteral("refund left out of the statement"));
    }
    const QStringList channels = currencies.keys();
    for (qsizetype i = 0; i < perKind && !channels.isEmpty(); ++i) {
        Planned p;
        SettlementLine &l = p.line;
        l.raw = channels[rng.below(channels.size())];
        QStringList curs(currencies[l.raw].begin(), currencies[l.raw].end());
        curs.sort();
        l.currency = curs[rng.below(curs.size())];
        l.channelTxnId = unknownTxnId(l.raw, rng.next() >> 20);
        l.kind = SettlementKind::Charge;
        l.grossMinor = 1000 + rng.below(50000);
        l.feeMinor = Fees::feeFor(l.grossMinor, *schedule.ruleAt(l.raw, l.currency, startDay));
        l.netMinor = l.grossMinor - l.feeMinor;
        l.transactedAtMs = plan.startMs + rng.below(std::max(1, plan.days) * kDay);
        l.settledAtMs = settleAt(l.raw, l.transactedAtMs);
        l.reference = QStringLiteral("unknown-%1").arg(i + 1);
        extra << p;
        record(QStringLiteral("unknown_settlement"), QStringLiteral("open"), l,
               QStringLiteral("a settlement for a transaction nobody made"));
    }
    lines << extra;

    // One statement per channel and week of settlement; a FedaPay refund rides on its charge.
    QMap<QString, QMap<qint64, QList<SettlementLine>>> files;
    QHash<QString, qint64> chargeWeek;
    for (const Planned &p : lines)
        if (p.line.kind == SettlementKind::Charge && p.defect != u"not_settled")
            chargeWeek.insert(p.line.raw + u'/' + p.line.channelTxnId,
                              (p.line.settledAtMs - startDay) / kWeek);
    for (const Planned &p : lines) {
        if (p.defect == u"not_settled")
            continue;
        qint64 week = (p.line.settledAtMs - startDay) / kWeek;
        if (p.line.raw == u"fedapay" && p.line.kind == SettlementKind::Refund)
            week = chargeWeek.value(p.line.raw + u'/' + p.line.channelTxnId, week);
        files[p.line.raw][week] << p.line;
    }
    PlantedStatements out;
    const QDir dir(plan.outDir);
    if (!dir.mkpath(QStringLiteral("statements")))
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("cannot create %1/statements").arg(plan.outDir));
    for (auto ch = files.cbegin(); ch != files.cend(); ++ch) {
        const StatementFormat *format = StatementFormat::forChannel(ch.key());
        if (!format)
            continue;
        for (auto wk = ch->cbegin(); wk != ch->cend(); ++wk) {
            QList<SettlementLine> body = wk.value();
            std::stable_sort(body.begin(), body.end(),
                             [](const SettlementLine &a, const SettlementLine &b) {
                                 return a.settledAtMs < b.settledAtMs;
                             });
            StatementWriteContext ctx;
            ctx.periodFromMs = startDay + wk.key() * kWeek;
            ctx.periodToMs = ctx.periodFromMs + kWeek;
            ctx.sequence = int(wk.key()) + 1;
            const QString path =
                dir.filePath(QStringLiteral("statements/") + format->fileName(ctx));
            if (auto r = writeFile(path, format->write(body, ctx)); !r)
                return r.error();
            out.files << path;
        }
    }
    out.feeScheduleFile = dir.filePath(QStringLiteral("fee_schedule.csv"));
    if (auto r = writeFile(out.feeScheduleFile, Fees::toCsv(rules)); !r)
        return r.error();
    out.plantedManifest = dir.filePath(QStringLiteral("planted_defects.json"));
    const QJsonObject doc{{QStringLiteral("seed"), QString::number(plan.seed)},
                          {QStringLiteral("fee_change_at"), QString::number(change)},
                          {QStringLiteral("fee_change_ppm"), kFeeChangePpm},
                          {QStringLiteral("tolerance_ppm_assumed"), 1000},
                          {QStringLiteral("defects"), manifest},
                          {QStringLiteral("story_findings"), naturals}};
    if (auto r = writeFile(out.plantedManifest, QJsonDocument(doc).toJson(QJsonDocument::Indented));
        !r)
        return r.error();
    out.defects = counts;
    return out;
}

} // namespace OncePay
