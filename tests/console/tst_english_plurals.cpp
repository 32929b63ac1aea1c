// English plural forms (resources/translations/oncepay_en.ts, compiled into the console): the
// English console says "1 refused attempt" and "3 refused attempts", not "attempt(s)". Every
// message counted with %n that the 简体中文 translation has (lupdate keeps that one complete)
// has its two English forms, finished, with the source's placeholders; the console in English
// uses them and in 简体中文 does not.

#include "common/language.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QXmlStreamReader>

using namespace OncePay;

namespace {

struct Numerus {
    QString context, source, comment;
    QStringList forms;
    bool finished = true;
};

// The numerus messages of a .ts file.
QList<Numerus> numerusOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QXmlStreamReader xml(&file);
    QList<Numerus> all;
    QString context;
    bool inNumerus = false;
    Numerus m;
    while (xml.readNext() != QXmlStreamReader::Invalid && !xml.atEnd()) {
        if (xml.isEndElement() && xml.name() == u"message" && inNumerus) {
            all << m;
            inNumerus = false;
        }
        if (!xml.isStartElement())
            continue;
        const QString name = xml.name().toString();
        if (name == u"context") {
            context.clear();
        } else if (name == u"name" && context.isEmpty()) {
            context = xml.readElementText();
        } else if (name == u"message") {
            inNumerus = xml.attributes().value(QStringLiteral("numerus")) == u"yes";
            m = Numerus{context, {}, {}, {}, true};
        } else if (inNumerus && name == u"source") {
            m.source = xml.readElementText();
        } else if (inNumerus && name == u"comment") {
            m.comment = xml.readElementText();
        } else if (inNumerus && name == u"translation") {
            m.finished = xml.attributes().value(QStringLiteral("type")).isEmpty();
        } else if (inNumerus && name == u"numerusform") {
            m.forms << xml.readElementText();
        }
    }
    if (xml.hasError())
        qFatal("%s: %s", qPrintable(path), qPrintable(xml.errorString()));
    return all;
}

QStringList placeholders(const QString &text)
{
    static const QRegularExpression arg(QStringLiteral("%(n|\\d+)"));
    QStringList found;
    for (auto it = arg.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    found.sort();
    found.removeDuplicates();
    return found;
}

const QString kDir = QStringLiteral(ONCEPAY_TRANSLATIONS_DIR);

} // namespace

class TstEnglishPlurals : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyCountedMessageHasItsTwoEnglishForms()
    {
        const QList<Numerus> zh = numerusOf(kDir + QStringLiteral("/oncepay_zh_CN.ts"));
        const QList<Numerus> en = numerusOf(kDir + QStringLiteral("/oncepay_en.ts"));
        QVERIFY(zh.size() >= 20);
        auto keyOf = [](const Numerus &m) -> QString {
            return m.context + u'|' + m.source + u'|' + m.comment;
        };
        QSet<QString> english;
        for (const Numerus &m : en) {
            english << keyOf(m);
            QVERIFY2(m.finished, qPrintable(m.source));
            QCOMPARE(m.forms.size(), 2); // English: one, other
            for (const QString &form : m.forms) {
                QVERIFY2(!form.isEmpty() && !form.contains(u"(s)") && !form.contains(u"(es)"),
                         qPrintable(form));
                QCOMPARE(placeholders(form), placeholders(m.source));
            }
        }
        QSet<QString> chinese;
        for (const Numerus &m : zh) {
            chinese << keyOf(m);
            QVERIFY2(english.contains(keyOf(m)),
                     qPrintable(QStringLiteral("no English forms for %1 “%2”: run lupdate"
                                               " -pluralonly (resources/translations/README.md)")
                                    .arg(m.context, m.source)));
        }
        QCOMPARE(english, chinese); // none left over from a message that is gone
    }

    void theEnglishConsoleCountsInWords()
    {
        Language::apply(QStringLiteral("en"));
        auto refused = [](int n) {
            return QCoreApplication::translate("OncePay::OrderPage", "%n refused attempt(s)",
                                               nullptr, n);
        };
        QCOMPARE(refused(1), QStringLiteral("1 refused attempt"));
        QCOMPARE(refused(3), QStringLiteral("3 refused attempts"));
        QCOMPARE(refused(0), QStringLiteral("0 refused attempts"));
        // Every message, as the English console shows it: its forms, by count.
        for (const Numerus &m : numerusOf(kDir + QStringLiteral("/oncepay_en.ts"))) {
            const QByteArray context = m.context.toUtf8(), source = m.source.toUtf8(),
                             comment = m.comment.toUtf8();
            const char *disambiguation = m.comment.isEmpty() ? nullptr : comment.constData();
            QCOMPARE(QCoreApplication::translate(context, source, disambiguation, 1),
                     QString(m.forms[0]).replace(QStringLiteral("%n"), QStringLiteral("1")));
            QCOMPARE(QCoreApplication::translate(context, source, disambiguation, 2),
                     QString(m.forms[1]).replace(QStringLiteral("%n"), QStringLiteral("2")));
        }
        Language::apply(QStringLiteral("zh_CN"));
        QCOMPARE(refused(3), QStringLiteral("3 次被拒绝的尝试"));
        Language::apply(QStringLiteral("en"));
        QCOMPARE(refused(2), QStringLiteral("2 refused attempts"));
    }
};

QTEST_MAIN(TstEnglishPlurals)
#include "tst_english_plurals.moc"
