// A callback's headers where people read them, on every engine: a request signed by Stripe
// that also carried Authorization, Cookie and an API key is verified and stored with those
// values masked and its signature whole; a row stored before ingest masked (its credentials in
// clear) shows them masked on the order page's Callbacks tab and in the dispute dossier; and
// the dossier's raw-callback lines wrap on the page (a 344-character PayPal signature used to
// run off it), every character of them kept.

#include "consolefixture.h"
#include "investigation/dossier.h"
#include "orders/orderpage.h"

#include <QAbstractTextDocumentLayout>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const QStringList kSecrets{"SUPERSECRET123", "session=abc",    "apikey-TOPSECRET",
                           "OLDSECRET",      "old-cookie-val", "old-api-key-val"};

QString firstSecretIn(const QString &text)
{
    for (const QString &s : kSecrets)
        if (text.contains(s))
            return s;
    return {};
}

// A PayPal transmission signature is 344 base64 characters; a webhook event link as long.
QString longSignature()
{
    QString sig;
    const QString alphabet =
        QStringLiteral("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    for (int i = 0; i < 342; ++i)
        sig += alphabet[(i * 7 + 3) % alphabet.size()];
    return sig + QStringLiteral("==");
}

} // namespace

class TstOrderPageCallbackHeaders : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void credentialsMaskedWhereverHeadersAreRead_data() { addEngineRows(); }
    void credentialsMaskedWhereverHeadersAreRead()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("ord-hdr", 1500);
        const Order o = f.pay("ord-hdr", 1, "req-hdr-1");

        // A signed request with credentials a proxy added: verified (the signature check saw
        // the request as received), stored with the credentials masked.
        InboundRequest req = f.stripe(StripeEvents::paymentIntentSucceeded(
            f.params("ord-hdr", "req-hdr-1", 1500, "USD", "evt_hdr_new", "pi_hdr")));
        const QByteArray signature = req.header("stripe-signature");
        QVERIFY(!signature.isEmpty());
        req.addHeader("Authorization", "Bearer sk_live_SUPERSECRET123");
        req.addHeader("Cookie", "session=abc");
        req.addHeader("X-Api-Key", "apikey-TOPSECRET");
        auto stored = f.ingest->ingest("stripe", req);
        QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().message));
        QCOMPARE(stored->status, IngestStatus::Stored);
        auto row = Sql::scalar(f.orders->db(),
                               "SELECT headers FROM callback_messages WHERE callback_id = ?",
                               {stored->callbackId});
        QVERIFY(row.ok());
        const QString storedHeaders = row->toString();
        QVERIFY2(firstSecretIn(storedHeaders).isEmpty(), qPrintable(storedHeaders));
        QVERIFY2(storedHeaders.contains(u"[\"authorization\",\"[redacted, 29 bytes]\"]") &&
                     storedHeaders.contains(u"[\"cookie\",\"[redacted, 11 bytes]\"]") &&
                     storedHeaders.contains(u"[\"x-api-key\",\"[redacted, 16 bytes]\"]"),
                 qPrintable(storedHeaders));
        QVERIFY2(storedHeaders.contains(QStringLiteral("[\"stripe-signature\",\"%1\"]")
                                            .arg(QString::fromLatin1(signature))),
                 qPrintable(storedHeaders));
        f.drain();

        // A row stored before ingest masked: its credentials in clear, and a long signature.
        const QString sig = longSignature();
        const QByteArray oldHeaders =
            QJsonDocument(QJsonArray{QJsonArray{"content-type", "application/json"},
                                     QJsonArray{"authorization", "Bearer OLDSECRET"},
                                     QJsonArray{"paypal-transmission-sig", sig},
                                     QJsonArray{"cookie", "old-cookie-val"},
                                     QJsonArray{"x-api-key", "old-api-key-val"}})
                .toJson(QJsonDocument::Compact);
        QCOMPARE(f.deliver(StripeEvents::paymentIntentSucceeded(
                     f.params("ord-hdr", "req-hdr-1", 1500, "USD", "evt_hdr_old", "pi_hdr"))),
                 IngestStatus::Stored);
        const QString link = QStringLiteral("https://api.paypal.com/v1/notifications/"
                                            "webhooks-events/WH-") +
                             QString(160, u'7') + QStringLiteral("Q");
        const QString oldBody =
            QStringLiteral(R"({"id": "evt_hdr_old", "links": [{"href": "%1"}]})").arg(link);
        auto updated = Sql::update(
            f.orders->db(),
            "UPDATE callback_messages SET headers = ?, raw_body = ? WHERE callback_id = ?",
            {QString::fromUtf8(oldHeaders), oldBody, QStringLiteral("stripe:evt_hdr_old")});
        QVERIFY(updated.ok());
        QCOMPARE(*updated, 1);

        StaffService staff(*f.orders, Clock::system());
        QVERIFY(staff.add({"agent", QString(), StaffRole::Agent}, "agent-demo-pw", kAdmin).ok());
        OrderPage page(f.config.orders, account("agent", StaffRole::Agent).actor());
        page.resize(1000, 700);
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-hdr");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        const QList<CallbackMessageRow> &messages = page.picture().messages;
        QCOMPARE(messages.size(), 2);
        auto *raw = page.findChild<QPlainTextEdit *>(QStringLiteral("rawCallback"));
        QVERIFY(raw);
        for (int i = 0; i < messages.size(); ++i) {
            page.showCallback(i);
            const QString text = raw->toPlainText();
            QVERIFY2(firstSecretIn(text).isEmpty(), qPrintable(text));
            QVERIFY2(text.contains(u"\ncookie: [redacted, "), qPrintable(text));
            QVERIFY2(text.contains(u"\nx-api-key: [redacted, "), qPrintable(text));
            if (messages[i].callbackId == u"stripe:evt_hdr_old") {
                QVERIFY2(text.contains(u"\nauthorization: [redacted, 16 bytes]\n") &&
                             text.contains(u"\npaypal-transmission-sig: " + sig + u'\n'),
                         qPrintable(text));
            } else {
                QVERIFY2(text.contains(u"\nauthorization: [redacted, 29 bytes]\n") &&
                             text.contains(u"\nstripe-signature: " +
                                           QString::fromLatin1(signature) + u'\n'),
                         qPrintable(text));
            }
            if (qEnvironmentVariableIsSet("ONCEPAY_SHOT_DIR") && dialect == int(Dialect::Sqlite))
                page.grab().save(QDir(qEnvironmentVariable("ONCEPAY_SHOT_DIR"))
                                     .filePath(QStringLiteral("callback-headers-%1.png").arg(i)));
        }

        // The dossier: the same lines, masked; each header line whole on its wrapped lines.
        const QString html = Dossier::html(page.picture(), "agent", 0);
        QVERIFY2(firstSecretIn(html).isEmpty(), qPrintable(html));
        QTextDocument doc;
        Dossier::layOut(doc, html);
        QVERIFY(doc.pageCount() > 0); // laid out now, every block
        const QString plain = doc.toPlainText();
        QVERIFY(plain.contains(u"authorization: [redacted, 16 bytes]"));
        QVERIFY(plain.contains(u"authorization: [redacted, 29 bytes]"));
        QVERIFY(plain.contains(u"cookie: [redacted, 14 bytes]"));
        QVERIFY(plain.contains(u"stripe-signature: " + QString::fromLatin1(signature)));
        QVERIFY(plain.contains(u"\"href\": \"" + link + u'"'));
        const qreal right = doc.textWidth() - doc.rootFrame()->frameFormat().rightMargin();
        bool sigWrapped = false;
        for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
            if (QTextCursor(b).currentTable() || b.text().isEmpty())
                continue; // cells are laid out in their table's coordinates; a rule is no text
            const QTextLayout *layout = b.layout();
            for (int l = 0; l < layout->lineCount(); ++l) {
                const QTextLine line = layout->lineAt(l);
                const qreal end = layout->position().x() + line.x() + line.naturalTextWidth();
                QVERIFY2(end <= right + 0.5,
                         qPrintable(QStringLiteral("line %1 of \"%2\" ends at %3, the page at %4")
                                        .arg(l)
                                        .arg(b.text().left(60))
                                        .arg(end)
                                        .arg(right)));
            }
            if (b.text() == u"paypal-transmission-sig: " + sig) {
                sigWrapped = layout->lineCount() > 1;
                // Continuation lines are indented under the line's start.
                QVERIFY(sigWrapped && layout->lineAt(1).x() > layout->lineAt(0).x());
            }
        }
        QVERIFY2(sigWrapped, "the long signature is one block of its own, wrapped");

        // Stored text that is not ingest's [name, value] pairs: not shown, and said so.
        const QStringList odd =
            Dossier::callbackHeaderLines(R"({"authorization": "Bearer OLDSECRET"})");
        QCOMPARE(odd.size(), 1);
        QVERIFY2(firstSecretIn(odd.first()).isEmpty() && odd.first().contains(u"not shown"),
                 qPrintable(odd.first()));

        if (qEnvironmentVariableIsSet("ONCEPAY_SHOT_DIR") && dialect == int(Dialect::Sqlite)) {
            // The laid-out pages as pictures, for a look (no PDF rasteriser in Qt 6.4's base).
            const QSizeF page = doc.pageSize();
            for (int n = 0; n < doc.pageCount(); ++n) {
                QImage image((page * 2).toSize(), QImage::Format_RGB32);
                image.fill(Qt::white);
                QPainter painter(&image);
                painter.scale(2, 2);
                painter.translate(0, -n * page.height());
                doc.drawContents(&painter, QRectF(QPointF(0, n * page.height()), page));
                painter.end();
                image.save(QDir(qEnvironmentVariable("ONCEPAY_SHOT_DIR"))
                               .filePath(QStringLiteral("dossier-page-%1.png").arg(n + 1)));
            }
        }

        const QString pdf = QDir(dbs->tempPath()).filePath("dossier-hdr.pdf");
        auto written = Dossier::writePdf(html, "ord-hdr", pdf);
        QVERIFY(written.ok());
        if (qEnvironmentVariableIsSet("ONCEPAY_SHOT_DIR") && dialect == int(Dialect::Sqlite))
            QFile::copy(pdf, QDir(qEnvironmentVariable("ONCEPAY_SHOT_DIR"))
                                 .filePath(QStringLiteral("dossier-hdr.pdf")));
        Q_UNUSED(o);
    }
};

QTEST_MAIN(TstOrderPageCallbackHeaders)
#include "tst_order_page_callback_headers.moc"
