#include "enginetext.h"
#include "enginetexttemplates.h"

#include "auth/permissions.h"
#include "common/labels.h"
#include "fixes/fixlabels.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <optional>
#include <vector>

namespace OncePay::Labels {

namespace {

struct Compiled {
    const EngineTextTemplate *t;
    QRegularExpression re;
    QList<int> order; // the %n of each capture group, in the order they appear
    // What a text must hold to be this template, checked before the expression: the words
    // before its first placeholder (what the text starts with) and its longest words between
    // placeholders (somewhere in the text). Most texts are turned away by these, so that most
    // expressions are never run — nor compiled, which the first run of each does (~0.1 ms, ~30
    // ms for all of them on the GUI thread at the first stuck list).
    QString prefix;
    QString longest;
};

QString groupFor(char kind)
{
    switch (kind) {
    case 'c': return QStringLiteral("(\\S+)");
    case 'v': return QStringLiteral("(-?\\d+)");
    case 's':
    case 'k':
    case 'f':
    case 'r':
    case 'e':
    case 'm':
    case 'K':
    case 'D':
    case 'S':
    case 'P':
    case 'X': return QStringLiteral("([a-z_]+)");
    default: return QStringLiteral("(.*?)");
    }
}

const std::vector<Compiled> &compiled()
{
    static const std::vector<Compiled> all = [] {
        std::vector<Compiled> out;
        static const QRegularExpression placeholder(QStringLiteral("%(\\d)"));
        for (const EngineTextTemplate &t : engineTextTemplateTable()) {
            const QString source = QString::fromUtf8(t.source);
            const QString args = QString::fromLatin1(t.args);
            Compiled c{&t, {}, {}, {}, {}};
            QString pattern = QStringLiteral("\\A");
            qsizetype at = 0;
            const auto literal = [&c](const QString &words) {
                if (c.order.isEmpty()) // before the first placeholder
                    c.prefix = words;
                if (words.size() > c.longest.size())
                    c.longest = words;
            };
            for (auto it = placeholder.globalMatch(source); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                const int n = m.captured(1).toInt();
                literal(source.mid(at, m.capturedStart() - at));
                pattern += QRegularExpression::escape(source.mid(at, m.capturedStart() - at));
                pattern += groupFor(n >= 1 && n <= args.size() ? args.at(n - 1).toLatin1() : 't');
                c.order << n;
                at = m.capturedEnd();
            }
            literal(source.mid(at));
            pattern += QRegularExpression::escape(source.mid(at)) + QStringLiteral("\\z");
            c.re = QRegularExpression(pattern, QRegularExpression::DotMatchesEverythingOption);
            Q_ASSERT(c.re.isValid());
            out.push_back(std::move(c));
        }
        return out;
    }();
    return all;
}

// %1..%9 of `text` replaced in one pass, so an argument that contains "%2" stays as it is.
QString fill(const QString &text, const QStringList &args)
{
    QString out;
    out.reserve(text.size() + 32);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u'%' && i + 1 < text.size() && text.at(i + 1).isDigit()) {
            const int n = text.at(i + 1).digitValue();
            if (n >= 1 && n <= args.size()) {
                out += args.at(n - 1);
                ++i;
                continue;
            }
        }
        out += text.at(i);
    }
    return out;
}

std::optional<QString> translated(const QString &raw, int depth, qsizetype *matched = nullptr);

// One argument as the interface shows it; nullopt when a required sentence is not one.
std::optional<QString> argument(char kind, const QString &value, int depth)
{
    switch (kind) {
    case 's': return orderState(value);
    case 'k': return settlementKind(value);
    case 'f': return fixKind(value);
    case 'r': return fixReason(value);
    case 'e': return callbackEvent(value, QString());
    case 'm': return messageStatus(value);
    case 'K': return causeKind(value);
    case 'D': return discrepancyKind(value);
    case 'S': return discrepancyStatus(value);
    case 'P': return paymentStatus(value);
    case 'X': return fixStatus(value);
    case 'a': {
        static const char *const actions[] = {
            QT_TRANSLATE_NOOP("OncePay::EngineText", "read orders"),
            QT_TRANSLATE_NOOP("OncePay::EngineText", "propose a fix"),
            QT_TRANSLATE_NOOP("OncePay::EngineText", "approve or reject a fix"),
            QT_TRANSLATE_NOOP("OncePay::EngineText", "read the audit trail"),
            QT_TRANSLATE_NOOP("OncePay::EngineText", "manage staff accounts"),
            QT_TRANSLATE_NOOP("OncePay::EngineText", "manage settings")};
        for (const char *a : actions)
            if (value == QLatin1String(a))
                return QCoreApplication::translate("OncePay::EngineText", a);
        return std::nullopt;
    }
    case 'o': {
        const auto role = parseStaffRole(value);
        return role ? Labels::role(*role) : value;
    }
    case 'q': return translated(value, depth + 1).value_or(quoted(value));
    case 'w': return quoted(value);
    case 'n': return translated(value, depth + 1).value_or(value);
    case 'N': return translated(value, depth + 1);
    default: return value;
    }
}

std::optional<QString> translated(const QString &raw, int depth, qsizetype *matched)
{
    if (raw.isEmpty() || depth > 3)
        return std::nullopt;
    for (const Compiled &c : compiled()) {
        if (!raw.startsWith(c.prefix) || !raw.contains(c.longest))
            continue; // cannot be this template (Compiled)
        const QRegularExpressionMatch m = c.re.match(raw);
        if (!m.hasMatch())
            continue;
        const QString kinds = QString::fromLatin1(c.t->args);
        QStringList args(kinds.size());
        bool ok = true;
        for (int g = 0; g < c.order.size() && ok; ++g) {
            const int n = c.order.at(g);
            if (n < 1 || n > kinds.size())
                continue;
            const auto shown = argument(kinds.at(n - 1).toLatin1(), m.captured(g + 1), depth);
            if (shown)
                args[n - 1] = *shown;
            else
                ok = false;
        }
        if (!ok)
            continue;
        if (matched)
            *matched = &c - compiled().data();
        return fill(QCoreApplication::translate("OncePay::EngineText", c.t->source), args);
    }
    return std::nullopt;
}

} // namespace

QString engineText(const QString &raw)
{
    return translated(raw, 0).value_or(raw);
}

bool isEngineText(const QString &raw)
{
    return translated(raw, 0).has_value();
}

std::optional<qsizetype> engineTemplateIndex(const QString &raw)
{
    qsizetype matched = -1;
    if (!translated(raw, 0, &matched))
        return std::nullopt;
    return matched;
}

QString quoted(const QString &words)
{
    return u'\u201C' + words + u'\u201D';
}

QStringList engineTemplates()
{
    QStringList out;
    for (const EngineTextTemplate &t : engineTextTemplateTable())
        out << QString::fromUtf8(t.source);
    return out;
}

} // namespace OncePay::Labels
