#include "feeschedule.h"

#include "csvreader.h"
#include "formats/statementtable.h"

#include "audit/auditoutbox.h"
#include "core/money.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QDateTime>

#include <algorithm>

namespace OncePay {

namespace Fees {

__extension__ typedef __int128 Int128; // |gross| * ppm can pass 2^63

qint64 feeFor(qint64 gross, qint64 ratePpm, qint64 fixedMinor)
{
    const Int128 magnitude = gross < 0 ? -Int128(gross) : Int128(gross);
    const Int128 variable = (magnitude * ratePpm + 500000) / 1000000;
    return qint64(variable) + fixedMinor;
}

Result<qint64> parsePercent(const QString &raw)
{
    const QString text = raw.trimmed();
    const qsizetype dot = text.indexOf(u'.');
    const QString whole = dot < 0 ? text : text.left(dot);
    const QString fraction = dot < 0 ? QString() : text.mid(dot + 1);
    auto digits = [](const QString &s) {
        return std::all_of(s.begin(), s.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    };
    if (whole.isEmpty() || !digits(whole) || !digits(fraction) || fraction.size() > 4 ||
        whole.size() > 3 || (dot >= 0 && fraction.isEmpty()))
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("'%1' is not a percentage with at most four decimals").arg(raw));
    const qint64 ppm = whole.toLongLong() * 10000 + fraction.leftJustified(4, u'0').toLongLong();
    if (ppm > 1000000)
        return makeError(ErrorCode::Invalid, QStringLiteral("'%1' is above 100 %").arg(raw));
    return ppm;
}

QString formatPercent(qint64 ppm)
{
    QString s =
        QString::number(ppm / 10000) + u'.' + QString::number(ppm % 10000).rightJustified(4, u'0');
    while (s.endsWith(u'0') && !s.endsWith(QStringLiteral(".0")))
        s.chop(1);
    return s;
}

Result<QList<FeeRule>> parseCsv(const QByteArray &data)
{
    auto records = Csv::read(data);
    if (!records)
        return records.error();
    const QStringList required{QStringLiteral("channel"), QStringLiteral("currency"),
                               QStringLiteral("effective_from"), QStringLiteral("rate_percent"),
                               QStringLiteral("fixed")};
    auto header = StatementTable::findHeader(*records, required, 5);
    if (!header)
        return header.error();
    QList<FeeRule> rules;
    for (qsizetype i = header->recordIndex + 1; i < records->size(); ++i) {
        const StatementTable::Row row{records->at(i), *header};
        FeeRule r;
        auto channel = row.text(QStringLiteral("channel"));
        if (!channel)
            return channel.error();
        r.channel = channel->toLower();
        if (r.channel.isEmpty())
            return row.error(QStringLiteral("channel"), QStringLiteral("empty"));
        auto currency = StatementTable::currency(row, QStringLiteral("currency"));
        if (!currency)
            return currency.error();
        r.currency = *currency;
        auto date = row.text(QStringLiteral("effective_from"));
        if (!date)
            return date.error();
        const QDate d = QDate::fromString(*date, Qt::ISODate);
        if (!d.isValid() || date->size() != 10)
            return row.error(QStringLiteral("effective_from"),
                             QStringLiteral("'%1' is not YYYY-MM-DD").arg(*date));
        r.effectiveFromMs = QDateTime(d, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
        auto rate = row.text(QStringLiteral("rate_percent"));
        if (!rate)
            return rate.error();
        auto ppm = parsePercent(*rate);
        if (!ppm)
            return row.error(QStringLiteral("rate_percent"), ppm.error().message);
        r.ratePpm = *ppm;
        auto fixed = row.amount(QStringLiteral("fixed"), r.currency, false);
        if (!fixed)
            return fixed.error();
        if (*fixed < 0)
            return row.error(QStringLiteral("fixed"), QStringLiteral("negative"));
        r.fixedMinor = *fixed;
        r.note = row.optional(QStringLiteral("note"));
        rules << r;
    }
    return rules;
}

QByteArray toCsv(const QList<FeeRule> &rules)
{
    QString out = QStringLiteral("channel,currency,effective_from,rate_percent,fixed,note\n");
    for (const FeeRule &r : rules)
        out +=
            Csv::join(
                {r.channel, r.currency,
                 StatementTable::formatUtc(r.effectiveFromMs, QStringLiteral("yyyy-MM-dd")),
                 formatPercent(r.ratePpm),
                 Currency::formatAmount(r.fixedMinor, Currency::exponent(r.currency).value_or(2)),
                 r.note}) +
            u'\n';
    return out.toUtf8();
}

} // namespace Fees

FeeSchedule::FeeSchedule(QList<FeeRule> rules)
{
    for (FeeRule &r : rules)
        m_byKey[r.channel + u'/' + r.currency] << std::move(r);
    for (auto &list : m_byKey)
        std::sort(list.begin(), list.end(), [](const FeeRule &a, const FeeRule &b) {
            return a.effectiveFromMs < b.effectiveFromMs;
        });
}

const QList<FeeRule> *FeeSchedule::rulesFor(const QString &channel, const QString &currency) const
{
    const auto it = m_byKey.constFind(channel + u'/' + currency);
    return it == m_byKey.constEnd() ? nullptr : &*it;
}

const FeeRule *FeeSchedule::ruleAt(const QString &channel, const QString &currency,
                                   qint64 atMs) const
{
    const auto it = m_byKey.constFind(channel + u'/' + currency);
    if (it == m_byKey.constEnd())
        return nullptr;
    const FeeRule *found = nullptr;
    for (const FeeRule &r : *it) {
        if (r.effectiveFromMs > atMs)
            break;
        found = &r;
    }
    return found;
}

Result<FeeImportReport> FeeScheduleStore::import(const QList<FeeRule> &rules,
                                                 const Actor &actor) const
{
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<FeeImportReport> {
        FeeImportReport report;
        for (const FeeRule &r : rules) {
            auto q = Sql::exec(
                m_c.db(),
                QStringLiteral("SELECT rate_ppm, fixed_minor FROM fee_schedules WHERE channel = ?"
                               " AND currency = ? AND effective_from = ?"),
                {r.channel, r.currency, r.effectiveFromMs});
            if (!q)
                return q.error();
            if (q->next()) {
                if (q->value(0).toLongLong() != r.ratePpm ||
                    q->value(1).toLongLong() != r.fixedMinor)
                    return makeError(
                        ErrorCode::Conflict,
                        QStringLiteral(
                            "%1 %2 from %3 is already %4 %% + %5; a schedule is not edited")
                            .arg(r.channel, r.currency,
                                 StatementTable::formatUtc(r.effectiveFromMs,
                                                           QStringLiteral("yyyy-MM-dd")),
                                 Fees::formatPercent(q->value(0).toLongLong()),
                                 Currency::format(q->value(1).toLongLong(), r.currency)));
                ++report.unchanged;
                continue;
            }
            auto id = Sql::insert(
                m_c.db(), m_c.dialect(),
                QStringLiteral(
                    "INSERT INTO fee_schedules (channel, currency, effective_from, rate_ppm,"
                    " fixed_minor, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                {r.channel, r.currency, r.effectiveFromMs, r.ratePpm, r.fixedMinor,
                 Sql::nullIfEmpty(r.note), m_clock.nowMs()});
            if (!id)
                return id.error();
            AuditEvent e;
            e.actor = actor.id;
            e.actorRole = actor.role;
            e.action = QStringLiteral("fees.imported");
            e.entityKind = QStringLiteral("fee_schedule");
            e.entityId = QString::number(*id);
            e.after = {{QStringLiteral("channel"), r.channel},
                       {QStringLiteral("currency"), r.currency},
                       {QStringLiteral("effective_from"), QString::number(r.effectiveFromMs)},
                       {QStringLiteral("rate_ppm"), QString::number(r.ratePpm)},
                       {QStringLiteral("fixed_minor"), QString::number(r.fixedMinor)}};
            if (auto a = AuditOutbox::record(m_c.db(), e, m_clock); !a)
                return a.error();
            ++report.inserted;
        }
        return report;
    });
}

Result<QList<FeeRule>> FeeScheduleStore::list() const
{
    auto q = Sql::exec(
        m_c.db(),
        QStringLiteral("SELECT id, channel, currency, effective_from, rate_ppm, fixed_minor,"
                       " note FROM fee_schedules ORDER BY channel, currency, effective_from"));
    if (!q)
        return q.error();
    QList<FeeRule> out;
    while (q->next())
        out << FeeRule{q->value(0).toLongLong(), q->value(1).toString(),   q->value(2).toString(),
                       q->value(3).toLongLong(), q->value(4).toLongLong(), q->value(5).toLongLong(),
                       q->value(6).toString()};
    return out;
}

} // namespace OncePay
