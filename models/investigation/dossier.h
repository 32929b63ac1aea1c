#pragma once

// The dossier of one order for a dispute (DESIGN.md §6): the order's facts, the path it
// took, the timeline, the callbacks as received (body and headers), payments, ledger,
// refunds due, requests, purchase and logistics orders and — for roles that may read it —
// the audit rows, with exact amounts, who exported it and when. The text is built from the
// order page's own table models, so the dossier says what the page says, in the same words.
// Thread contract: html() on the GUI thread (translated labels, QObject models);
// writePdf() on any thread — it touches nothing but its arguments.

#include "core/result.h"
#include "investigation/orderpicture.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

class QPagedPaintDevice;
class QTextDocument;

namespace OncePay::Dossier {

struct WrittenFile {
    QString path;
    QString sha256Hex;
    qint64 bytes = 0;
    int pages = 0;
};

QString html(const OrderPicture &picture, const QString &exportedBy, qint64 exportedAtMs);

// A stored callback's headers (callback_messages.headers) as the dossier and the order page's
// Callbacks tab show them: "name: value", one per line, in arrival order, every credential's
// value masked (HeaderRedaction::read: rows stored before ingest masked them too). Stored text
// that is not the [name, value] pairs ingest writes is not shown: one line says so.
QStringList callbackHeaderLines(const QString &storedHeaders);

// A stored callback body (callback_messages.raw_body) as the dossier and the order page's
// Callbacks tab show it: JSON pretty-printed, every secret's value masked ("[redacted, N
// characters]", translated; HeaderRedaction::bodyForDisplay decides); any other text as it is.
// The stored body itself is never changed: it is the signed evidence.
QString callbackBodyText(const QString &rawBody);

// `html` laid out for `device` exactly as writePdf lays it out and prints it: the device's page
// layout set to A4 with 15 mm margins, the document paginated at the device's resolution on its
// paint rectangle (in device pixels), a footer kept free on each page for the page number.
// doc.pageCount() is the number of pages writePdf writes. `device` must outlive doc's layout.
void layOut(QTextDocument &doc, const QString &html, QPagedPaintDevice &device);

// A4 PDF written atomically (a failed export leaves no half file); `title` goes into the
// PDF's metadata (the order id, so a viewer's title bar and a search find it).
Result<WrittenFile> writePdf(const QString &html, const QString &title, const QString &path);

} // namespace OncePay::Dossier
