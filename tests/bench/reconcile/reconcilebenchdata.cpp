#include "reconcilebenchdata.h"

#include "db/sql.h"
#include "db/transaction.h"
#include "settlement/feeschedule.h"
#include "settlement/formats/statementformat.h"

#include <QDir>
#include <QFile>
#include <QSqlError>
#include <QSqlQuery>

namespace OncePay::Bench {

namespace {

const QStringList kChannels{QStringLiteral("stripe"), QStringLiteral("paypal"),
                            QStringLiteral("kakaopay"), QStringLiteral("fedapay")};

QString currencyOf(const QString &channel)
{
    return channel == u"kakaopay"  ? QStringLiteral("KRW")
           : channel == u"fedapay" ? QStringLiteral("XOF")
                                   : QStringLiteral("USD");
}

QString txnOf(const QString &channel, qint64 i)
{
    if (channel == u"stripe")
        return QStringLiteral("pi_3B%1").arg(i, 12, 10, QLatin1Char('0'));
    if (channel == u"paypal")
        return QStringLiteral("P%1").arg(i, 16, 10, QLatin1Char('0'));
    if (channel == u"kakaopay")
        return QStringLiteral("T%1").arg(i, 19, 10, QLatin1Char('0'));
    return QString::number(100000000 + i);
}

qint64 amountOf(qint64 i)
{
    return 1000 + (i * 7919) % 90000;
}

} // namespace

Result<void> seedPayments(const Connection &c, qint64 n, qint64 startMs)
{
    return inTransaction(c.db(), Transaction::Mode::Immediate, [&]() -> Result<void> {
        QSqlQuery o(c.db()), p(c.db());
        o.prepare(QStringLiteral(
            "INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state, version,"
            " channel, channel_txn_id, paid_at, created_at, updated_at)"
            " VALUES (?, 'cust', ?, ?, 'paid', 4, ?, ?, ?, ?, ?)"));
        p.prepare(QStringLiteral(
            "INSERT INTO payments (order_id, channel, channel_txn_id, callback_id, amount_minor,"
            " currency, status, captured_at) VALUES (?, ?, ?, ?, ?, ?, 'captured', ?)"));
        for (qint64 i = 0; i < n; ++i) {
            const QString ch = kChannels[i % 4];
            const QString id = QStringLiteral("b-%1").arg(i);
            const qint64 at = startMs + (i * 2592000000LL) / n; // spread over 30 days
            for (const QVariant &v :
                 {QVariant(id), QVariant(amountOf(i)), QVariant(currencyOf(ch)), QVariant(ch),
                  QVariant(txnOf(ch, i)), QVariant(at), QVariant(at), QVariant(at)})
                o.addBindValue(v);
            if (!o.exec())
                return Sql::classify(o.lastError(), QStringLiteral("seed order"));
            for (const QVariant &v : {QVariant(id), QVariant(ch), QVariant(txnOf(ch, i)),
                                      QVariant(QStringLiteral("cb-") + id), QVariant(amountOf(i)),
                                      QVariant(currencyOf(ch)), QVariant(at)})
                p.addBindValue(v);
            if (!p.exec())
                return Sql::classify(p.lastError(), QStringLiteral("seed payment"));
        }
        auto f = Sql::exec(
            c.db(),
            QStringLiteral(
                "INSERT INTO fee_schedules (channel, currency, effective_from,"
                " rate_ppm, fixed_minor, created_at) VALUES"
                " ('stripe', 'USD', 0, 29000, 30, 0), ('paypal', 'USD', 0, 34900, 49, 0),"
                " ('kakaopay', 'KRW', 0, 22000, 0, 0), ('fedapay', 'XOF', 0, 35000, 0, 0)"));
        if (!f)
            return f.error();
        return {};
    });
}

Result<BenchFiles> writeStatements(const QString &dir, qint64 n, qint64 startMs,
                                   int filesPerChannel)
{
    BenchFiles out;
    const qint64 kDay = 86400000;
    for (const QString &ch : kChannels) {
        const StatementFormat *format = StatementFormat::forChannel(ch);
        QList<QList<SettlementLine>> files(filesPerChannel);
        for (qint64 i = kChannels.indexOf(ch); i < n; i += 4) {
            SettlementLine l;
            l.channelTxnId = txnOf(ch, i);
            l.kind = SettlementKind::Charge;
            l.currency = currencyOf(ch);
            l.grossMinor = amountOf(i);
            const auto [ppm, fixed] = ch == u"stripe"     ? std::pair{29000LL, 30LL}
                                      : ch == u"paypal"   ? std::pair{34900LL, 49LL}
                                      : ch == u"kakaopay" ? std::pair{22000LL, 0LL}
                                                          : std::pair{35000LL, 0LL};
            l.feeMinor = Fees::feeFor(l.grossMinor, ppm, fixed);
            if (i % 997 == 0)
                l.feeMinor += 1; // an unexplained fee difference now and then
            if (i % 1009 == 0)
                continue; // a missing settlement
            l.netMinor = l.grossMinor - l.feeMinor;
            l.transactedAtMs = startMs + (i * 2592000000LL) / n;
            const qint64 kst = 9 * 3600000LL;
            l.settledAtMs = ch == u"kakaopay"
                                ? (l.transactedAtMs + 3 * kDay + kst) / kDay * kDay - kst
                                : l.transactedAtMs + 2 * kDay;
            l.reference = QStringLiteral("b-%1").arg(i);
            files[int((i / 4) * filesPerChannel / ((n + 3) / 4))] << l;
        }
        for (int k = 0; k < filesPerChannel; ++k) {
            StatementWriteContext ctx{startMs, startMs + 40 * kDay, QStringLiteral("bench"), k + 1};
            const QString path = QDir(dir).filePath(
                QStringLiteral("%1-%2-%3").arg(ch).arg(k).arg(format->fileName(ctx)));
            const QByteArray data = format->write(files[k], ctx);
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
                return makeError(ErrorCode::Unavailable, QStringLiteral("cannot write ") + path);
            out.statements << std::pair{ch, path};
            out.lines += files[k].size();
            out.bytes += data.size();
        }
    }
    return out;
}

} // namespace OncePay::Bench
