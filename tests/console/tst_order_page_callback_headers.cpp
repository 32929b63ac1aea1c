// A callback's headers where people read them, on every engine: a request signed by Stripe
// that also carried Authorization, Cookie and an API key is verified and stored with those
// values masked and its signature whole; a row stored before ingest masked (its credentials in
// clear) shows them masked on the order page's Callbacks tab and in the dispute dossier; and
// the dossier's raw-callback lines wrap on the page (a 344-character PayPal signature used to
// run off it), every character of them kept. A callback's body is shown with its secrets masked
// (a Stripe payment intent's client_secret) on the tab and in the dossier while the stored body
// stays byte for byte what was signed; and the dossier's page count is the PDF's.

#include "channels/stripe/stripeadapter.h"
#include "consolefixture.h"
#include "ingest/headerredaction.h"
#include "investigation/dossier.h"
#include "orders/orderpage.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QPdfWriter>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
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

// The page objects of a PDF file ("/Type /Page", not the "/Type /Pages" tree above them).
int pdfPageObjects(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    static const QRegularExpression page(QStringLiteral(R"(/Type\s*/Page\b)"));
    int n = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(file.readAll())); it.hasNext(); it.next())
        ++n;
    return n;
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
        QBuffer pdfBuffer; // the layout measures at the PDF writer's resolution
        QPdfWriter device(&pdfBuffer);
        QTextDocument doc;
        Dossier::layOut(doc, html, device);
        QVERIFY(doc.pageCount() > 0); // laid out now, every block
        const QString plain = doc.toPlainText();
        QVERIFY(plain.contains(u"authorization: [redacted, 16 bytes]"));
        QVERIFY(plain.contains(u"authorization: [redacted, 29 bytes]"));
        QVERIFY(plain.contains(u"cookie: [redacted, 14 bytes]"));
        QVERIFY(plain.contains(u"stripe-signature: " + QString::fromLatin1(signature)));
        QVERIFY(plain.contains(u"\"href\": \"" + link + u'"'));
        // Frame margins are CSS pixels, scaled to the device when laid out.
        const qreal right = doc.textWidth() - doc.rootFrame()->frameFormat().rightMargin() *
                                                  device.logicalDpiX() / 96.0;
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
            const qreal scale = 2 * 96.0 / device.logicalDpiX(); // twice the screen's size
            for (int n = 0; n < doc.pageCount(); ++n) {
                QImage image((page * scale).toSize(), QImage::Format_RGB32);
                image.fill(Qt::white);
                QPainter painter(&image);
                painter.scale(scale, scale);
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

    // A Stripe payment intent carries its client_secret (Stripe: never to be logged or shown
    // to anyone but the customer). Ingest verifies and stores the body byte for byte — the
    // stored body still verifies against the stored signature — and the Callbacks tab and the
    // dossier show it with the secret masked, the ids whole.
    void bodySecretsMaskedWhereBodiesAreShown_data() { addEngineRows(); }
    void bodySecretsMaskedWhereBodiesAreShown()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("ord-body", 1500);
        f.pay("ord-body", 1, "req-body-1");
        const QByteArray body = StripeEvents::paymentIntentSucceeded(
            f.params("ord-body", "req-body-1", 1500, "USD", "evt_body_1", "pi_body"));
        const QString secret = QStringLiteral("pi_body_secret_Xyz");
        QVERIFY(body.contains(secret.toLatin1()));
        auto stored = f.ingest->ingest("stripe", f.stripe(body));
        QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().message));
        QCOMPARE(stored->status, IngestStatus::Stored);
        f.drain();

        // The evidence as stored: the body byte for byte, and it verifies again.
        auto storedBody = [&] {
            auto v = Sql::scalar(f.orders->db(),
                                 "SELECT raw_body FROM callback_messages WHERE callback_id = ?",
                                 {stored->callbackId});
            return v.ok() ? v->toString().toUtf8() : QByteArray();
        };
        QCOMPARE(storedBody(), body);
        auto headers = Sql::scalar(f.orders->db(),
                                   "SELECT headers FROM callback_messages WHERE callback_id = ?",
                                   {stored->callbackId});
        QVERIFY(headers.ok());
        InboundRequest again;
        again.body = storedBody();
        for (const HeaderRedaction::StoredHeader &h :
             HeaderRedaction::read(headers->toString()).headers)
            again.addHeader(h.name.toLatin1(), h.value.toUtf8());
        QVERIFY(!again.header(StripeAdapter::kSignatureHeader).isEmpty());
        ChannelSettings settings;
        settings.secrets = {QString::fromLatin1(kStripeSecret)};
        const StripeAdapter stripe(settings);
        const auto verified = stripe.verify(again, f.clock.nowMs());
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().message));
        InboundRequest masked = again; // a body shown masked would no longer verify
        masked.body = HeaderRedaction::bodyForDisplay(QString::fromUtf8(body)).toUtf8();
        QVERIFY(!stripe.verify(masked, f.clock.nowMs()).ok());

        const QString marker =
            QStringLiteral("\"client_secret\": \"[redacted, %1 characters]\"").arg(secret.size());
        StaffService staff(*f.orders, Clock::system());
        QVERIFY(staff.add({"agent", QString(), StaffRole::Agent}, "agent-demo-pw", kAdmin).ok());
        OrderPage page(f.config.orders, account("agent", StaffRole::Agent).actor());
        page.resize(1000, 700);
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-body");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QCOMPARE(page.picture().messages.size(), 1);
        QCOMPARE(page.picture().messages.first().rawBody.toUtf8(), body); // read whole
        auto *raw = page.findChild<QPlainTextEdit *>(QStringLiteral("rawCallback"));
        QVERIFY(raw);
        page.showCallback(0);
        const QString tab = raw->toPlainText();
        QVERIFY2(!tab.contains(u"_secret_"), qPrintable(tab));
        QVERIFY2(tab.contains(marker), qPrintable(tab));
        for (const char *id :
             {"\"id\": \"evt_body_1\"", "\"id\": \"pi_body\"", "\"latest_charge\": \"ch_body\"",
              "\"idempotency_key\": \"req-body-1\""})
            QVERIFY2(tab.contains(QLatin1String(id)), id);

        const QString html = Dossier::html(page.picture(), "agent", 0);
        QVERIFY2(!html.contains(u"_secret_"), qPrintable(html));
        QBuffer pdfBuffer;
        QPdfWriter device(&pdfBuffer);
        QTextDocument doc;
        Dossier::layOut(doc, html, device);
        const QString plain = doc.toPlainText();
        QVERIFY2(!plain.contains(u"_secret_"), qPrintable(plain));
        QVERIFY2(plain.contains(marker) && plain.contains(u"\"id\": \"pi_body\""),
                 qPrintable(plain));
        QCOMPARE(storedBody(), body); // showing it changed nothing
    }

    // "Dossier saved to … (N page(s))": N is the number of pages in the PDF written, for a short
    // order and a long one (a count from a layout at screen resolution said 4 for a PDF of 3).
    void pdfPageCountIsTheWrittenPages_data()
    {
        QTest::addColumn<int>("callbacks");
        QTest::newRow("short") << 1;
        QTest::newRow("long") << 24;
    }
    void pdfPageCountIsTheWrittenPages()
    {
        QFETCH(int, callbacks);
        OrderPicture picture;
        picture.order.orderId = QStringLiteral("ord-pages");
        picture.order.amountMinor = 1500;
        picture.order.currency = QStringLiteral("USD");
        picture.order.channel = QStringLiteral("stripe");
        StripeEvents::Params p;
        p.orderId = picture.order.orderId;
        p.amountMinor = 1500;
        p.currency = QStringLiteral("usd");
        p.createdSeconds = 1767225600;
        for (int i = 0; i < callbacks; ++i) {
            p.attemptId = QStringLiteral("req-pages-%1").arg(i);
            p.eventId = QStringLiteral("evt_pages_%1").arg(i);
            p.paymentIntentId = QStringLiteral("pi_pages_%1").arg(i);
            p.chargeId = QStringLiteral("ch_pages_%1").arg(i);
            CallbackMessageRow m;
            m.id = i + 1;
            m.callbackId = QStringLiteral("stripe:") + p.eventId;
            m.channel = QStringLiteral("stripe");
            m.status = QStringLiteral("completed");
            m.receivedAt = 1767225600000 + i * 1000;
            m.headers = QStringLiteral(R"([["content-type","application/json"],)"
                                       R"(["stripe-signature","t=1767225600,v1=%1"]])")
                            .arg(QString(64, u'a'));
            m.rawBody = QString::fromUtf8(StripeEvents::paymentIntentSucceeded(p));
            picture.messages << m;
        }
        const QString html = Dossier::html(picture, "agent", 0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dossier.pdf"));
        auto written = Dossier::writePdf(html, picture.order.orderId, path);
        QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error().message));
        const int inFile = pdfPageObjects(path);
        QCOMPARE(written->pages, inFile);
        QVERIFY(inFile >= 1);
        if (callbacks > 1)
            QVERIFY2(inFile >= 3, "the long order runs over several pages");
        // layOut() is that layout: the tests that measure it measure what prints.
        QBuffer buffer;
        QPdfWriter device(&buffer);
        QTextDocument doc;
        Dossier::layOut(doc, html, device);
        QCOMPARE(doc.pageCount(), inFile);
        if (qEnvironmentVariableIsSet("ONCEPAY_SHOT_DIR"))
            QFile::copy(path, QDir(qEnvironmentVariable("ONCEPAY_SHOT_DIR"))
                                  .filePath(QStringLiteral("dossier-pages-%1.pdf").arg(callbacks)));
    }
};

QTEST_MAIN(TstOrderPageCallbackHeaders)
#include "tst_order_page_callback_headers.moc"
