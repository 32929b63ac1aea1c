// AuditTrailPage's long tasks (audittrailpage.h): Verify, Export and the verification of an
// export on a pool thread with progress and Cancel, Verify's on its own result line, and the
// row Verify named selected in the table. The filter bar, the table's loading and the amber line
// are in audittrailpage.cpp.

#include "audittrailpage.h"

#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditpdfwriter.h"
#include "audit/audittrailmodel.h"
#include "audit/sealkey.h"
#include "common/errortext.h"
#include "common/labels.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>

namespace OncePay {

namespace {

// Loading up to the row Verify named stops at this many rows in the table (beyond, the filter
// has to narrow it).
constexpr int kSeekMaxRows = 100000;

// The row of the trail that shows a problem Verify found: the row named, the row found after
// a gap, or the last row left when the chain was cut short.
qint64 brokenRowSeq(const AuditProblem &p)
{
    switch (p.kind) {
    case AuditProblem::Kind::Missing: return p.foundSeq > 0 ? p.foundSeq : p.seq;
    case AuditProblem::Kind::Truncated: return p.foundSeq > 0 ? p.foundSeq : p.seq;
    default: return p.seq;
    }
}

std::unique_ptr<AuditExportWriter> writerFor(const QString &format)
{
    if (format == u"pdf")
        return std::make_unique<AuditPdfWriter>();
    if (auto writer = makeAuditExportWriter(format))
        return writer;
    return std::make_unique<AuditCsvWriter>();
}

// What Verify found, in the reader's words (auditProblemKindName gives the code).
QString problemKindWord(AuditProblem::Kind kind)
{
    switch (kind) {
    case AuditProblem::Kind::Altered: return AuditTrailPage::tr("altered");
    case AuditProblem::Kind::Missing: return AuditTrailPage::tr("missing");
    case AuditProblem::Kind::Relinked: return AuditTrailPage::tr("reordered");
    case AuditProblem::Kind::Truncated: return AuditTrailPage::tr("truncated");
    case AuditProblem::Kind::SealMismatch: return AuditTrailPage::tr("seal does not match");
    case AuditProblem::Kind::BadSignature: return AuditTrailPage::tr("bad signature");
    case AuditProblem::Kind::NoPublicKey: return AuditTrailPage::tr("no public key");
    }
    return auditProblemKindName(kind);
}

} // namespace

void AuditTrailPage::showBrokenRow(qint64 seq)
{
    m_seekSeq = seq;
    setSeekNote({});
    continueSeek();
}

void AuditTrailPage::continueSeek()
{
    const qint64 seq = m_seekSeq;
    const int loaded = m_model->rowCount();
    // The rows are in seq order.
    int lo = 0, hi = loaded;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (m_model->rowAt(mid).seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < loaded && m_model->rowAt(lo).seq == seq) {
        m_seekSeq = 0;
        const QModelIndex index = m_model->index(lo, 0);
        m_table->setCurrentIndex(index);
        m_table->selectRow(lo);
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
        Q_EMIT brokenRowShown(seq, lo);
        return;
    }
    if (lo < loaded || m_model->atEnd()) {
        // Rows after it are loaded, or none follow: the filter leaves it out.
        m_seekSeq = 0;
        setSeekNote(tr("Row seq %1 is not among the rows the filter shows; clear the filter to"
                       " see it.")
                        .arg(seq));
        return;
    }
    if (loaded >= kSeekMaxRows) {
        m_seekSeq = 0;
        setSeekNote(tr("Row seq %1 is further down than the %2 rows loaded; narrow the filter"
                       " (From:, To:) to see it.")
                        .arg(seq)
                        .arg(loaded));
        return;
    }
    if (!m_model->loading()) // else the page on its way continues the search when it comes
        m_model->fetchMore({});
}

void AuditTrailPage::setSeekNote(const QString &note)
{
    if (m_verifyText.isEmpty())
        return;
    m_result->setText(note.isEmpty()
                          ? m_verifyText
                          : m_verifyText + QStringLiteral("<br>") + note.toHtmlEscaped());
}

void AuditTrailPage::startTask(QLabel *line, const QString &what)
{
    m_taskRunning = true;
    m_taskLine = line;
    m_verify->setEnabled(false);
    m_export->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_progress->show();
    line->setText(what.toHtmlEscaped());
    line->setToolTip({});
    line->show();
}

void AuditTrailPage::showProgress(qint64 done, qint64 total)
{
    m_progress->setValue(total > 0 ? int(done * 1000 / total) : 1000);
    m_progress->setFormat(tr("%1 of %2 rows").arg(done).arg(total));
}

void AuditTrailPage::finishTask()
{
    m_taskRunning = false;
    m_verify->setEnabled(true);
    m_export->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->hide();
    // Verify and Export audit themselves (a refusal, an export, a refused export): what waits
    // in the outbox has changed.
    countUnshipped();
}

AuditTrailPage::~AuditTrailPage()
{
    m_task.cancel();
}

void AuditTrailPage::cancelTask()
{
    if (!m_taskRunning)
        return;
    m_task.cancel();
    m_cancel->setEnabled(false);
    if (m_taskLine)
        m_taskLine->setText(tr("Cancelling…"));
}

void AuditTrailPage::verifyChain()
{
    if (m_taskRunning)
        return;
    m_seekSeq = 0;
    m_verifyText.clear();
    startTask(m_result, tr("Verifying the audit chain…"));
    const Actor actor = m_actor;
    const QString keyPath = SealKeyPaths::fromConfig(m_config).publicKey;
    const auto progress = [this](qint64 done, qint64 total) { showProgress(done, total); };
    m_task = runAuditTask<AuditVerifyReport>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-verify"),
        [actor, keyPath](const Connection &audit, const Connection &orders,
                         const AuditTaskProgress &report) -> Result<AuditVerifyReport> {
            std::optional<SealPublicKey> key;
            if (QFile::exists(keyPath)) {
                auto loaded = SealPublicKey::load(keyPath);
                if (!loaded)
                    return loaded.error();
                key = *loaded;
            }
            return AuditTrailQuery(audit, orders, Clock::system())
                .verify(key ? &*key : nullptr, report, actor);
        },
        progress,
        [this](const Result<AuditVerifyReport> &r, AuditTaskDatabase unopened) {
            finishTask();
            if (!r) {
                const QString why =
                    r.error().code == ErrorCode::Forbidden
                        ? errorText(r.error())
                        : databaseErrorText(r.error(), unopened == AuditTaskDatabase::None
                                                           ? AuditTaskDatabase::Audit
                                                           : unopened);
                m_result->setText(tr("<b>Not verified</b>: %1").arg(why.toHtmlEscaped()));
                m_result->setToolTip(r.error().message);
                Q_EMIT verified(false, r.error().message);
                return;
            }
            QString text;
            if (r->problem)
                text = tr("<b>The audit chain is broken</b> at row seq %1 (%2): %3")
                           .arg(r->problem->seq)
                           .arg(problemKindWord(r->problem->kind),
                                Labels::engineText(r->problem->message).toHtmlEscaped());
            else if (r->cancelled)
                text = tr("Verification cancelled after %1 of %2 rows.")
                           .arg(r->rowsChecked)
                           .arg(r->totalRows);
            else if (r->sealedSeq)
                text = tr("<b>The audit chain is valid</b>: %1 rows up to seq %2, %3 seal(s)"
                          " verified; sealed up to seq %4, %5 row(s) after the last seal.")
                           .arg(r->rowsChecked)
                           .arg(r->headSeq)
                           .arg(r->checkpointsChecked)
                           .arg(r->sealedSeq)
                           .arg(r->rowsAfterSeal());
            else
                text = tr("<b>The audit chain is valid</b>: %1 rows up to seq %2; no seal yet.")
                           .arg(r->rowsChecked)
                           .arg(r->headSeq);
            if (!r->problem && !r->cancelled && r->unshipped.count > 0)
                text += QLatin1Char(' ') +
                        tr("%n audited event(s) are not in the chain yet: they still wait in the"
                           " outbox (oldest %1).",
                           nullptr, int(qMin<qint64>(r->unshipped.count, INT_MAX)))
                            .arg(AuditFilter::formatTime(r->unshipped.oldestOccurredAt));
            m_verifyText = text;
            m_result->setText(text);
            m_result->setToolTip(r->summary());
            Q_EMIT verified(r->ok(), r->summary());
            if (r->problem)
                showBrokenRow(brokenRowSeq(*r->problem));
        });
}

void AuditTrailPage::chooseExport(const QString &format)
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString suggested = QDir(dir).filePath(
        QStringLiteral("audit-trail-%1.%2")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")),
                 format));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the audit trail"), suggested,
                                     tr("%1 files (*.%2)").arg(format.toUpper(), format));
    if (!path.isEmpty())
        exportTo(format, path);
}

void AuditTrailPage::exportTo(const QString &format, const QString &path)
{
    if (m_taskRunning)
        return;
    AuditFilter filter;
    if (!readFilter(&filter)) {
        Q_EMIT failed(m_summary->text());
        return;
    }
    startTask(m_exportResult, tr("Exporting to %1…").arg(QDir::toNativeSeparators(path)));
    const Actor actor = m_actor;
    const auto progress = [this](qint64 done, qint64 total) { showProgress(done, total); };
    m_task = runAuditTask<AuditExportResult>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-export"),
        [actor, filter, format, path](const Connection &audit, const Connection &orders,
                                      const AuditTaskProgress &report) {
            const std::unique_ptr<AuditExportWriter> writer = writerFor(format);
            return AuditExporter(audit, orders, Clock::system())
                .run(filter, path, *writer, actor, report);
        },
        progress,
        [this](const Result<AuditExportResult> &r, AuditTaskDatabase unopened) {
            finishTask();
            if (!r) {
                // The exporter's refusal (a broken chain, rights, a bad filter) in its own
                // words; a database or file that failed as such.
                const Error &e = r.error();
                const bool refused =
                    unopened == AuditTaskDatabase::None &&
                    (e.code == ErrorCode::Corrupt || e.code == ErrorCode::Forbidden ||
                     e.code == ErrorCode::Invalid);
                const QString why = refused
                                        ? Labels::engineText(e.message)
                                        : databaseErrorText(e, unopened == AuditTaskDatabase::None
                                                                   ? AuditTaskDatabase::Audit
                                                                   : unopened);
                m_exportResult->setText(tr("<b>Not exported</b>: %1").arg(why.toHtmlEscaped()));
                m_exportResult->setToolTip(e.message);
                Q_EMIT failed(e.message);
                return;
            }
            if (r->cancelled) {
                m_exportResult->setText(tr("Export cancelled; no file was written."));
                return;
            }
            const AuditManifest &m = r->manifest;
            m_exportResult->setText(
                tr("Exported %1 row(s) to %2<br>Manifest: %3<br>SHA-256: <tt>%4</tt><br>Chain head"
                   " seq %5%6")
                    .arg(m.rowCount)
                    .arg(QDir::toNativeSeparators(r->path).toHtmlEscaped(),
                         QDir::toNativeSeparators(r->manifestPath).toHtmlEscaped(), m.sha256)
                    .arg(m.head.seq)
                    .arg(m.head.seal ? tr(", sealed at seq %1").arg(m.head.seal->seq)
                                     : tr(", not sealed yet")));
            m_exportResult->setToolTip({});
            Q_EMIT exported(r->path, r->manifestPath, m.sha256);
        });
}

void AuditTrailPage::chooseExportToVerify()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = QFileDialog::getOpenFileName(this, tr("Verify an audit export"), dir,
                                                      tr("Export manifests (*.manifest.json)"));
    if (!path.isEmpty())
        verifyExport(path);
}

void AuditTrailPage::verifyExport(const QString &manifestPath)
{
    if (m_taskRunning)
        return;
    startTask(m_exportResult,
              tr("Verifying the export %1…").arg(QDir::toNativeSeparators(manifestPath)));
    const Actor actor = m_actor;
    const auto progress = [this](qint64 done, qint64 total) { showProgress(done, total); };
    m_task = runAuditTask<AuditExportCheck>(
        this, m_config.audit, m_config.orders, QStringLiteral("audit-verify-export"),
        [actor, manifestPath](const Connection &audit, const Connection &orders,
                              const AuditTaskProgress &report) {
            return AuditExporter(audit, orders, Clock::system())
                .verify(manifestPath, actor, report);
        },
        progress,
        [this](const Result<AuditExportCheck> &r, AuditTaskDatabase unopened) {
            finishTask();
            if (!r) {
                // A manifest or file that cannot be read, or rights, in the engine's words; a
                // database away as such.
                const Error &e = r.error();
                const QString why = unopened != AuditTaskDatabase::None
                                        ? databaseErrorText(e, unopened)
                                    : e.code == ErrorCode::Unavailable
                                        ? errorText(e) // a read failed: which database is unknown
                                        : Labels::engineText(e.message);
                m_exportResult->setText(tr("<b>Not verified</b>: %1").arg(why.toHtmlEscaped()));
                m_exportResult->setToolTip(
                    Qt::convertFromPlainText(e.message, Qt::WhiteSpaceNormal));
                Q_EMIT exportVerified(false, e.message);
                return;
            }
            const AuditExportCheck &c = *r;
            QString text;
            if (c.cancelled) {
                text = tr("Verification of the export cancelled; nothing was concluded.");
            } else if (c.ok()) {
                text =
                    tr("<b>The export verifies</b>: %1 holds the %n row(s) its manifest"
                       " describes; chain head seq %2 is in the audit log unchanged",
                       nullptr, int(qMin<qint64>(c.manifest.rowCount, INT_MAX)))
                        .arg(c.manifest.file.toHtmlEscaped(), QString::number(c.manifest.head.seq));
                if (c.manifest.head.seal)
                    text += tr("; seal %1 (seq %2) unchanged")
                                .arg(c.manifest.head.seal->id)
                                .arg(c.manifest.head.seal->seq);
                text +=
                    c.record == AuditExportCheck::Record::InAuditLog
                        ? tr("; its audit row (seq %1) recorded this very file").arg(c.recordSeq)
                        : tr("; its audit event (not yet shipped into the audit log)"
                             " recorded this very file");
                if (c.rowsCompared >= 0)
                    text += tr("; every row is the same as in the audit log");
                else if (c.rowsRehashed >= 0)
                    text += tr("; every row's hash was recomputed");
                text += QLatin1Char('.');
            } else {
                QStringList lines;
                for (const QString &p : c.problems)
                    lines << Labels::engineText(p).toHtmlEscaped();
                text = tr("<b>The export does NOT verify</b>:") + QStringLiteral("<br>") +
                       lines.join(QStringLiteral("<br>"));
            }
            m_exportResult->setText(text);
            m_exportResult->setToolTip(Qt::convertFromPlainText(c.summary(), Qt::WhiteSpaceNormal));
            Q_EMIT exportVerified(c.ok(), c.summary());
        });
}

} // namespace OncePay
