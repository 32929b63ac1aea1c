#pragma once

// The PDF report of an audit export for auditors (DESIGN.md §6): a cover block (filter, chain
// head and the seal covering it, who generated it and when), then one line per row in seq
// order — time, actor and role, action, entity, order, callback, exact amount, reason — with
// the before → after JSON beneath in a smaller face, page numbers and the export id in each
// footer, and the row count at the end. Drawn page by page with QPainter on a QPdfWriter, so
// memory stays flat for long trails.
//
// Needs QtGui and so a QGuiApplication (the console has one; `oncepay audit export --format
// pdf` gets one on the offscreen platform). Thread contract: see auditexportwriter.h; QPainter
// on a QPdfWriter may run on a worker thread.

#include "audit/auditexportwriter.h"

#include <QFont>

#include <memory>

class QPainter;
class QPdfWriter;

namespace OncePay {

class AuditPdfWriter : public AuditExportWriter {
public:
    AuditPdfWriter();
    ~AuditPdfWriter() override;

    QString format() const override { return QStringLiteral("pdf"); }
    QString description() const override;
    Result<void> begin(QIODevice *out, const AuditExportHeader &header) override;
    Result<void> write(const AuditLogRow &row) override;
    Result<void> finish(qint64 rowCount) override;

private:
    void newPage();
    void footer();
    void line(const QString &text, const QFont &font, int indent = 0);
    void tableHeader();

    std::unique_ptr<QPdfWriter> m_pdf;
    std::unique_ptr<QPainter> m_painter;
    AuditExportHeader m_header;
    QFont m_body;
    QFont m_small;
    QFont m_bold;
    int m_y = 0;
    int m_page = 0;
    int m_width = 0;
    int m_height = 0;
};

} // namespace OncePay
