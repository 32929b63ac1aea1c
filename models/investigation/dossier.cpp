#include "dossier.h"

#include "common/enginetext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "ingest/headerredaction.h"
#include "investigation/ordermodels.h"

#include <QAbstractTextDocumentLayout>
#include <QBrush>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QTextFrame>

namespace OncePay::Dossier {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(OncePay::Dossier)
};

// Raw bodies are evidence, but a runaway payload must not make a 500-page dossier.
constexpr qsizetype kMaxRawChars = 8000;

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// One table with the model's own headers and display texts; refused rows keep the
// background the page gives them.
QString table(const QAbstractItemModel &m)
{
    if (m.rowCount() == 0)
        return QStringLiteral("<p><i>%1</i></p>").arg(esc(Text::tr("None.")));
    QString out = QStringLiteral(
        "<table border='1' cellspacing='0' cellpadding='3' width='100%' style='border-color:#999;'>"
        "<tr>");
    for (int c = 0; c < m.columnCount(); ++c)
        out += QStringLiteral("<th bgcolor='#e8e8e8' align='left'>%1</th>")
                   .arg(esc(m.headerData(c, Qt::Horizontal).toString()));
    out += QStringLiteral("</tr>");
    for (int r = 0; r < m.rowCount(); ++r) {
        const QVariant bg = m.index(r, 0).data(Qt::BackgroundRole);
        out += bg.canConvert<QBrush>()
                   ? QStringLiteral("<tr bgcolor='%1'>").arg(bg.value<QBrush>().color().name())
                   : QStringLiteral("<tr>");
        for (int c = 0; c < m.columnCount(); ++c)
            out += QStringLiteral("<td>%1</td>").arg(esc(m.index(r, c).data().toString()));
        out += QStringLiteral("</tr>");
    }
    return out + QStringLiteral("</table>");
}

template <typename Model, typename Rows> QString tableOf(const Rows &rows)
{
    Model model;
    model.setRows(rows);
    return table(model);
}

QString capped(const QString &text)
{
    if (text.size() <= kMaxRawChars)
        return text;
    return text.left(kMaxRawChars) + QLatin1Char('\n') +
           Text::tr("[… %1 more characters in the message table]").arg(text.size() - kMaxRawChars);
}

// Raw text as received, every character of it on the page: QTextDocument never wraps a plain
// <pre> and the PDF clips what runs past the margin (a 344-character PayPal signature showed
// 86), so each line wraps (pre-wrap: at a space, a '/', else anywhere) and its continuation
// is indented four characters past the line's own indentation, so a reader sees where a line
// goes on and a JSON line's continuation stays under its content. Each line is a paragraph of
// its own for that hanging indent.
QString rawBlock(const QString &text)
{
    // The advance of one character of the 8 pt monospace font in CSS pixels (DejaVu Sans Mono
    // and its kin: 0.6 em of 10.7 px); a wider font only shifts the continuations a little.
    constexpr double kCharPx = 6.6;
    QString out =
        QStringLiteral("<div style='font-family: monospace; white-space: pre-wrap; margin-top: 6px;"
                       " margin-bottom: 6px;'>");
    for (const QString &line : text.split(u'\n')) {
        qsizetype lead = 0;
        while (lead < line.size() && line[lead] == u' ')
            ++lead;
        const int hang = int((qMin<qsizetype>(lead, 40) + 4) * kCharPx);
        // An empty paragraph would be dropped: a space keeps the empty line.
        out += QStringLiteral("<p style='margin: 0; margin-left: %1px; text-indent: -%1px;'>%2</p>")
                   .arg(hang)
                   .arg(line.isEmpty() ? QStringLiteral(" ") : esc(line));
    }
    return out + QStringLiteral("</div>");
}

QPageLayout a4Layout()
{
    return QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15),
                       QPageLayout::Millimeter);
}

// Room kept at the foot of every page for its number, in the document's CSS pixels.
constexpr qreal kFooterPx = 18;

// Paints `doc` (laid out by layOut()) page by page, each page's number "n / N" in its footer:
// the pages written are the layout's pages, one for one. The number of pages written; 0 when
// the writer refused one.
int printPages(QTextDocument &doc, QPagedPaintDevice &writer)
{
    QPainter painter(&writer);
    if (!painter.isActive())
        return 0;
    const QSizeF page = doc.pageSize();
    const int pages = doc.pageCount();
    const qreal toDevice = writer.logicalDpiY() / 96.0;
    QFont font = doc.defaultFont();
    font.setPointSizeF(8);
    painter.setFont(font);
    for (int n = 0; n < pages; ++n) {
        if (n > 0 && !writer.newPage())
            return 0;
        const QRectF view(0, n * page.height(), page.width(), page.height());
        painter.save();
        painter.translate(0, -view.top());
        painter.setClipRect(view);
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = view;
        context.palette.setColor(QPalette::Text, Qt::black);
        doc.documentLayout()->draw(&painter, context);
        painter.restore();
        painter.drawText(
            QRectF(0, page.height() - kFooterPx * toDevice, page.width(), kFooterPx * toDevice),
            Qt::AlignRight | Qt::AlignBottom, QStringLiteral("%1 / %2").arg(n + 1).arg(pages));
    }
    return pages;
}

QString section(const QString &title, const QString &body)
{
    return QStringLiteral("<h3>%1</h3>%2").arg(esc(title), body);
}

} // namespace

QString html(const OrderPicture &p, const QString &exportedBy, qint64 exportedAtMs)
{
    const Order &o = p.order;
    QString out = QStringLiteral("<html><body style='font-size:8pt;'>");
    out += QStringLiteral("<h2>%1</h2>")
               .arg(esc(Text::tr("Dispute dossier — order %1").arg(o.orderId)));
    const QList<std::pair<QString, QString>> facts{
        {Text::tr("Order"), o.orderId},
        {Text::tr("State"), Labels::orderState(orderStateName(o.state))},
        {Text::tr("Version"), QString::number(o.version)},
        {Text::tr("Amount"), Labels::money(o.amountMinor, o.currency)},
        {Text::tr("Amount in minor units"),
         QStringLiteral("%1 %2").arg(o.amountMinor).arg(o.currency)},
        {Text::tr("Customer"), o.customerRef},
        {Text::tr("Channel"), o.channel},
        {Text::tr("Channel transaction"), o.channelTxnId},
        {Text::tr("Current attempt"), o.currentRequestId},
        {Text::tr("Reason"), Labels::orderReason(o.stateReason, p.transitions)},
        {Text::tr("Created"), Labels::time(o.createdAt)},
        {Text::tr("Paid"), Labels::time(o.paidAt)},
        {Text::tr("Updated"), Labels::time(o.updatedAt)},
    };
    out += QStringLiteral("<table cellpadding='2'>");
    for (const auto &[k, v] : facts)
        out += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(esc(k), esc(v));
    out += QStringLiteral("</table>");

    QStringList path;
    if (!p.transitions.isEmpty())
        path << Labels::orderState(p.transitions.first().fromState);
    for (const OrderTransition &t : p.transitions)
        path << QStringLiteral("%1 (v%2)").arg(Labels::orderState(t.toState)).arg(t.newVersion);
    out += section(Text::tr("Path through the state machine"),
                   QStringLiteral("<p>%1</p>").arg(esc(path.join(QStringLiteral(" → ")))));
    {
        TimelineModel timeline;
        timeline.setAuditRows(p.audit); // whose words an audit row's reason is
        timeline.setRows(p.timeline);
        out += section(Text::tr("Timeline"), table(timeline));
    }
    out += section(Text::tr("Callbacks"), tableOf<MessageModel>(p.messages));
    out += section(Text::tr("Payments"), tableOf<PaymentModel>(p.payments));
    out += section(Text::tr("Ledger"), tableOf<LedgerModel>(p.ledger));
    out += section(Text::tr("Refunds due"), tableOf<RefundModel>(p.refunds));
    out += section(Text::tr("Requests"), tableOf<IdempotencyModel>(p.idempotency));
    out +=
        section(Text::tr("Purchase and logistics orders"), tableOf<FulfilmentModel>(p.fulfilment));
    if (p.auditVisible)
        out += section(Text::tr("Audit rows"), tableOf<AuditRowModel>(p.audit));

    QString raw;
    for (const CallbackMessageRow &m : p.messages)
        raw += QStringLiteral("<p><b>%1</b> — %2</p>%3%4")
                   .arg(esc(m.callbackId), esc(Labels::time(m.receivedAt)),
                        rawBlock(capped(callbackHeaderLines(m.headers).join(u'\n'))),
                        rawBlock(capped(callbackBodyText(m.rawBody))));
    out += section(Text::tr("Callbacks as received (headers, then body)"),
                   raw.isEmpty() ? QStringLiteral("<p><i>%1</i></p>").arg(esc(Text::tr("None.")))
                                 : raw);

    out += QStringLiteral("<hr/><p>%1</p>")
               .arg(esc(
                   Text::tr("Exported by %1 at %2. Amounts are exact, as recorded in minor units; "
                            "signatures were verified when each callback was received (unsigned or "
                            "wrongly signed requests are never stored).")
                       .arg(exportedBy, Labels::time(exportedAtMs))));
    return out + QStringLiteral("</body></html>");
}

QStringList callbackHeaderLines(const QString &storedHeaders)
{
    const HeaderRedaction::StoredHeaders stored = HeaderRedaction::read(storedHeaders);
    if (!stored.readable)
        return {Text::tr("[%1 characters of headers not shown: they are not the name and value "
                         "pairs OncePay stores, so a credential among them could not be masked]")
                    .arg(stored.storedChars)};
    QStringList lines;
    lines.reserve(stored.headers.size());
    for (const HeaderRedaction::StoredHeader &h : stored.headers)
        lines << h.name + QStringLiteral(": ") +
                     (h.redacted ? Text::tr("[redacted, %1 bytes]").arg(h.redactedBytes) : h.value);
    return lines;
}

QString callbackBodyText(const QString &rawBody)
{
    return HeaderRedaction::bodyForDisplay(rawBody, [](qsizetype characters) {
        return Text::tr("[redacted, %1 characters]").arg(characters);
    });
}

void layOut(QTextDocument &doc, const QString &html, QPagedPaintDevice &device)
{
    device.setPageLayout(a4Layout());
    doc.setHtml(html);
    // Laid out on the device itself, so fonts and margins are measured at its resolution and
    // pageCount() is what prints (a layout at screen resolution broke pages elsewhere: 4 pages
    // reported for a PDF of 3).
    doc.documentLayout()->setPaintDevice(&device);
    QTextFrameFormat root = doc.rootFrame()->frameFormat();
    root.setBottomMargin(root.bottomMargin() + kFooterPx);
    doc.rootFrame()->setFrameFormat(root);
    doc.setPageSize(QSizeF(device.width(), device.height()));
}

Result<WrittenFile> writePdf(const QString &html, const QString &title, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    int pages = 0;
    {
        QPdfWriter writer(&file);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("OncePay"));
        QTextDocument doc;
        layOut(doc, html, writer);
        pages = printPages(doc, writer);
    }
    if (pages <= 0) {
        file.cancelWriting();
        return makeError(ErrorCode::Invalid, QStringLiteral("cannot write %1: the PDF writer "
                                                            "refused a page")
                                                 .arg(path));
    }
    if (!file.commit())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    QFile written(path);
    if (!written.open(QIODevice::ReadOnly))
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("cannot read back %1: %2").arg(path, written.errorString()));
    QCryptographicHash sha(QCryptographicHash::Sha256);
    sha.addData(&written);
    return WrittenFile{path, QString::fromLatin1(sha.result().toHex()), written.size(), pages};
}

} // namespace OncePay::Dossier
