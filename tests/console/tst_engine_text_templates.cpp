// Every sentence in the engine's catalogue (models/common/enginetexttemplates) is recognised by
// engineText() when the engine writes it — with arguments of each kind filled in — and reads in
// 简体中文 once the language is switched. engineText() turns texts away by the words each
// template must start with and hold before it runs the template's expression; this is what
// shows that no sentence the engine writes is turned away. A text that is none stays as it is.

#include "common/enginetext.h"
#include "common/enginetexttemplates.h"
#include "common/language.h"

#include <QApplication>
#include <QRegularExpression>
#include <QTest>

using namespace OncePay;

namespace {

// A value the engine could write for an argument of `kind` (enginetexttemplates.cpp's letters).
QString sampleFor(char kind)
{
    switch (kind) {
    case 'v': return QStringLiteral("7");
    case 't': return QStringLiteral("12.00 USD");
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
    case 'X': return QStringLiteral("paid");
    case 'n':
    case 'N':
    case 'q': return QStringLiteral("callback names no order");
    case 'w': return QStringLiteral("my own words");
    case 'o': return QStringLiteral("agent");
    case 'a': return QStringLiteral("read orders");
    default: return QStringLiteral("x1");
    }
}

// The template's sentence with every %n filled in as the engine's QString::arg would.
QString sentence(const Labels::EngineTextTemplate &t)
{
    const QString source = QString::fromUtf8(t.source);
    const QByteArray kinds(t.args);
    QString out;
    for (qsizetype i = 0; i < source.size(); ++i) {
        if (source.at(i) == u'%' && i + 1 < source.size() && source.at(i + 1).isDigit()) {
            const int n = source.at(i + 1).digitValue();
            out += sampleFor(n >= 1 && n <= kinds.size() ? kinds.at(n - 1) : 'c');
            ++i;
            continue;
        }
        out += source.at(i);
    }
    return out;
}

} // namespace

class TstEngineTextTemplates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { Language::apply(QStringLiteral("en")); }

    // Recognised as its own template, not as a more general one listed before it (whose
    // translation would be another sentence).
    void everySentenceIsRecognisedAsItself()
    {
        const auto table = Labels::engineTextTemplateTable();
        QVERIFY(table.size() > 100);
        QStringList wrong;
        for (qsizetype i = 0; i < qsizetype(table.size()); ++i) {
            const QString s = sentence(table[i]);
            const std::optional<qsizetype> got = Labels::engineTemplateIndex(s);
            if (got != i)
                wrong << QStringLiteral("%1 → %2").arg(
                    s, got ? QString::fromUtf8(table[*got].source) : QStringLiteral("(none)"));
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("\n"))));
    }

    // Each template has its own Chinese sentence, and a sentence of it reads as that one.
    void everySentenceReadsInChinese()
    {
        QCOMPARE(Language::apply(QStringLiteral("zh_CN")).language(), QLocale::Chinese);
        QStringList untranslated;
        for (const Labels::EngineTextTemplate &t : Labels::engineTextTemplateTable()) {
            const QString words =
                QString::fromUtf8(t.source).remove(QRegularExpression(QStringLiteral("%\\d")));
            if (!words.contains(QRegularExpression(QStringLiteral("[A-Za-z]"))))
                continue; // no words to translate ("  %1", a line's indent)
            const QString zh = QCoreApplication::translate("OncePay::EngineText", t.source);
            const QString s = sentence(t);
            // The translated sentence's words outside its placeholders are in the text shown.
            const QString firstWords = zh.section(QRegularExpression(QStringLiteral("%\\d")), 0, 0);
            if (zh == QString::fromUtf8(t.source) || !Labels::engineText(s).startsWith(firstWords))
                untranslated << s;
        }
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(QStringLiteral("\n"))));
    }

    void otherTextStaysAsItIs()
    {
        QCOMPARE(Language::apply(QStringLiteral("zh_CN")).language(), QLocale::Chinese);
        for (const QString &s :
             {QStringLiteral("declined by the issuer"), QStringLiteral("unknown order"),
              QStringLiteral("x stale: callback names no order")}) {
            QVERIFY2(!Labels::isEngineText(s), qPrintable(s));
            QCOMPARE(Labels::engineText(s), s);
        }
    }
};

QTEST_MAIN(TstEngineTextTemplates)
#include "tst_engine_text_templates.moc"
