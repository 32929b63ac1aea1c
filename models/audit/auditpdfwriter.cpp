#include "auditpdfwriter.h"

#include "common/labels.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

namespace OncePay {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("OncePay::AuditPdfWriter", text);
}

QString time(qint64 ms)
{
    return AuditFilter::formatTime(ms);
}

// Column x positions as fractions of the printable width.
constexpr double kColumns[] = {0.0, 0.06, 0.22, 0.36, 0.52, 0.66, 0.78, 0.88};

} // namespace

AuditPdfWriter::AuditPdfWriter() = default;
AuditPdfWriter::~AuditPdfWriter() = default;

QString AuditPdfWriter::description() const
{
    return QStringLiteral("PDF report, A4 landscape, one line per row with before/after");
}

Result<void> AuditPdfWriter::begin(QIODevice *out, const AuditExportHeader &header)
{
    m_header = header;
    m_pdf = std::make_unique<QPdfWriter>(out);
    m_pdf->setTitle(tr("OncePay audit trail report"));
    m_pdf->setCreator(QStringLiteral("OncePay"));
    m_pdf->setResolution(300);
    m_pdf->setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape,
                                     QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter));
    m_painter = std::make_unique<QPainter>();
    if (!m_painter->begin(m_pdf.get()))
        return makeError(ErrorCode::Unavailable, QStringLiteral("export: cannot start the PDF"),
                         QStringLiteral("pdf_failed"));
    m_body = QFont(QStringLiteral("DejaVu Sans"), 7);
    m_small = QFont(QStringLiteral("DejaVu Sans Mono"), 5);
    m_bold = m_body;
    m_bold.setBold(true);
    const QRect page = m_painter->viewport();
    m_width = page.width();
    m_height = page.height();
    m_page = 1;
    m_y = 0;

    QFont title = m_bold;
    title.setPointSize(13);
    line(tr("OncePay audit trail report"), title);
    const AuditHead &h = header.head;
    line(tr("Filter: %1").arg(Labels::auditFilter(header.filter)), m_body);
    line(tr("Chain head: seq %1, hash %2").arg(h.seq).arg(h.hash), m_body);
    if (h.seal)
        line(tr("Seal: checkpoint %1 at seq %2 (key %3, sealed %4 by %5); %6 row(s) after it")
                 .arg(h.seal->id)
                 .arg(h.seal->seq)
                 .arg(h.seal->keyId, time(h.seal->sealedAt), h.seal->sealedBy)
                 .arg(h.rowsAfterSeal()),
             m_body);
    else
        line(tr("Seal: none yet — the rows are covered by the hash chain only"), m_body);
    line(tr("Generated %1 by %2 (%3); export %4")
             .arg(time(header.generatedAt), header.generatedBy.id, header.generatedBy.role,
                  header.exportId),
         m_body);
    line(tr("Rows: %1. Amounts are integer minor units with their currency, as recorded.")
             .arg(header.expectedRows),
         m_body);
    m_y += QFontMetrics(m_body, m_pdf.get()).height();
    tableHeader();
    return {};
}

void AuditPdfWriter::line(const QString &text, const QFont &font, int indent)
{
    const QFontMetrics fm(font, m_pdf.get());
    if (m_y + fm.height() > m_height - 2 * fm.height())
        newPage();
    m_painter->setFont(font);
    m_painter->drawText(QPoint(indent, m_y + fm.ascent()),
                        fm.elidedText(text, Qt::ElideRight, m_width - indent));
    m_y += fm.height();
}

void AuditPdfWriter::tableHeader()
{
    const QStringList titles{tr("Seq"),    tr("Time (UTC)"), tr("Actor (role)"), tr("Action"),
                             tr("Entity"), tr("Order"),      tr("Callback"),     tr("Amount")};
    const QFontMetrics fm(m_bold, m_pdf.get());
    m_painter->setFont(m_bold);
    for (int i = 0; i < titles.size(); ++i)
        m_painter->drawText(QPoint(int(kColumns[i] * m_width), m_y + fm.ascent()), titles[i]);
    m_y += fm.height();
    m_painter->drawLine(0, m_y, m_width, m_y);
    m_y += fm.height() / 4;
}

void AuditPdfWriter::footer()
{
    const QFontMetrics fm(m_small, m_pdf.get());
    m_painter->setFont(m_small);
    m_painter->drawText(QPoint(0, m_height - fm.descent()),
                        tr("Page %1 · export %2 · chain head seq %3")
                            .arg(m_page)
                            .arg(m_header.exportId)
                            .arg(m_header.head.seq));
}

void AuditPdfWriter::newPage()
{
    footer();
    m_pdf->newPage();
    ++m_page;
    m_y = 0;
    tableHeader();
}

Result<void> AuditPdfWriter::write(const AuditLogRow &r)
{
    const QFontMetrics fm(m_body, m_pdf.get());
    const QFontMetrics sm(m_small, m_pdf.get());
    if (m_y + fm.height() + sm.height() > m_height - 2 * fm.height())
        newPage();
    const AuditAmount amount = auditRowAmount(r);
    const QStringList cells{
        QString::number(r.seq),
        time(r.occurredAt),
        QStringLiteral("%1 (%2)").arg(r.actor, r.actorRole),
        r.action,
        QStringLiteral("%1 %2").arg(r.entityKind, r.entityId),
        r.orderId.value_or(QString()),
        r.callbackId.value_or(QString()),
        amount.minor.isEmpty() ? QString() : amount.minor + QLatin1Char(' ') + amount.currency};
    m_painter->setFont(m_body);
    for (int i = 0; i < cells.size(); ++i) {
        const int x = int(kColumns[i] * m_width);
        const int next = i + 1 < cells.size() ? int(kColumns[i + 1] * m_width) : m_width;
        m_painter->drawText(
            QPoint(x, m_y + fm.ascent()),
            fm.elidedText(cells[i], Qt::ElideRight, next - x - fm.averageCharWidth()));
    }
    m_y += fm.height();
    QString detail = r.beforeJson.value_or(QStringLiteral("–")) + QStringLiteral("  →  ") +
                     r.afterJson.value_or(QStringLiteral("–"));
    if (r.reason)
        detail += QStringLiteral("   ") + tr("reason: %1").arg(*r.reason);
    m_painter->setFont(m_small);
    const int indent = int(kColumns[1] * m_width);
    m_painter->drawText(QPoint(indent, m_y + sm.ascent()),
                        sm.elidedText(detail, Qt::ElideRight, m_width - indent));
    m_y += sm.height() + sm.height() / 3;
    return {};
}

Result<void> AuditPdfWriter::finish(qint64 rowCount)
{
    m_y += QFontMetrics(m_body, m_pdf.get()).height();
    line(tr("End of report: %1 row(s).").arg(rowCount), m_bold);
    footer();
    if (!m_painter->end())
        return makeError(ErrorCode::Unavailable, QStringLiteral("export: cannot finish the PDF"),
                         QStringLiteral("pdf_failed"));
    m_painter.reset();
    m_pdf.reset();
    return {};
}

} // namespace OncePay
