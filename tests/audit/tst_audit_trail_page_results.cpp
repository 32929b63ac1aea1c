// The audit trail page's results (QA findings A3, A4), offscreen over a chain made by the real
// shipper: after Verify finds a break the row it names is selected and scrolled to, loading the
// pages up to it, or the verify line says the filter leaves it out; Verify's result stays on
// screen through an Export, whose result (a file, or the exporter's refusal of a broken chain)
// has its own line; the amber count of events waiting in the outbox follows the events Verify
// and Export audit; and a database that is not migrated, or whose outbox cannot be read, is
// named (audit or orders), once.
// ONCEPAY_SCREENSHOT_DIR=dir also saves PNGs of the page in English and 简体中文.

#include "audit/auditexporter.h"
#include "audit/auditexportformats.h"
#include "audit/auditoutbox.h"
#include "audit/auditsealer.h"
#include "audit/auditshipper.h"
#include "audit/audittrailmodel.h"
#include "audit/audittrailpage.h"
#include "audit/sealkey.h"
#include "audittestutil.h"
#include "common/enginetext.h"
#include "common/language.h"
#include "common/taskpool.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "testdatabases.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const qint64 kStart = 1'700'000'000'000;
const Actor kAuditor{QStringLiteral("alice"), QStringLiteral("auditor")};
constexpr int kRows = 2500;
constexpr qint64 kBroken = 2300; // far beyond the first page of 200 rows

void record(const Connection &orders, ManualClock &clock, int i)
{
    AuditEvent e;
    e.actor = i % 4 == 0 ? QStringLiteral("fin") : QStringLiteral("worker:1");
    e.actorRole = i % 4 == 0 ? QStringLiteral("finance") : QStringLiteral("system");
    e.action = i % 2 ? QStringLiteral("order.transition") : QStringLiteral("ledger.credit");
    e.entityKind = QStringLiteral("order");
    e.entityId = e.orderId = QStringLiteral("o-%1").arg(i % 17);
    e.after = {{QStringLiteral("state"), QStringLiteral("paid")}};
    clock.advance(1000);
    auto r = inTransaction(orders.db(), Transaction::Mode::Deferred,
                           [&] { return AuditOutbox::record(orders.db(), e, clock); });
    if (!r)
        qFatal("outbox: %s", qPrintable(r.error().message));
}

void seedChain(const AppConfig &config, ManualClock &clock)
{
    Connection orders = openOrDie(config.orders);
    Connection audit = openOrDie(config.audit);
    for (int i = 1; i <= kRows; ++i)
        record(orders, clock, i);
    if (!AuditShipper(orders, audit, clock).shipAll())
        qFatal("ship failed");
    addAuditStaff(orders);
    auto key = SealKey::loadOrCreate(SealKeyPaths::fromConfig(config));
    if (!key || !AuditSealer(audit, *key, clock).seal(QStringLiteral("alice")))
        qFatal("seal failed");
}

// A SQLite scratch pair with the chain seedChain() makes (the test stops if it cannot be made).
std::unique_ptr<ScratchDatabases> seededScratch(ManualClock &clock)
{
    auto created = ScratchDatabases::create(Dialect::Sqlite);
    if (!created)
        qFatal("scratch databases: %s", qPrintable(created.error().message));
    auto dbs = std::move(created).value();
    seedChain(dbs->config(), clock);
    return dbs;
}

// Holds every thread of the console's pool busy until released (at the latest when it goes
// out of scope): a task started meanwhile waits, so what the test does to it before release()
// happens before the task begins.
class PoolHold {
public:
    PoolHold()
    {
        for (int i = 0; i < kConsoleTaskThreads; ++i)
            consoleTaskPool()->start([this] {
                m_started.release();
                m_gate.acquire();
            });
        if (!m_started.tryAcquire(kConsoleTaskThreads, 10000))
            qFatal("the console's pool did not start its threads");
    }
    ~PoolHold() { release(); }
    void release()
    {
        if (!m_released)
            m_gate.release(kConsoleTaskThreads);
        m_released = true;
    }

private:
    QSemaphore m_started, m_gate;
    bool m_released = false;
};

// The two languages a page test runs in.
void addLanguageRows()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

void shoot(QWidget *page, const QString &name)
{
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    page->show();
    QVERIFY(QTest::qWaitForWindowExposed(page));
    QTest::qWait(50);
    page->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// How many of the page's visible lines say `text`.
int linesSaying(AuditTrailPage &page, const QString &text)
{
    int n = 0;
    for (QLabel *l : {page.unshippedBanner(), page.summary(), page.result(), page.exportResult()})
        if (l->isVisible() && l->text().contains(text, Qt::CaseInsensitive))
            n += int(l->text().count(text, Qt::CaseInsensitive));
    return n;
}

} // namespace

class TstAuditTrailPageResults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { Language::apply(QStringLiteral("en")); }

    void brokenRowShownVerifyResultKept_data() { addLanguageRows(); }
    void brokenRowShownVerifyResultKept()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        ManualClock clock(kStart);
        const auto dbs = seededScratch(clock);
        const AppConfig config = dbs->config();
        {
            Connection audit = openOrDie(config.audit);
            QVERIFY(tamper(audit, {QStringLiteral("UPDATE audit_log SET actor = 'mallory' WHERE"
                                                  " seq = %1")
                                       .arg(kBroken)})
                        .ok());
        }

        AuditTrailPage page(config, kAuditor);
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy counted(&page, &AuditTrailPage::unshippedCounted);
        QSignalSpy verified(&page, &AuditTrailPage::verified);
        QSignalSpy shown(&page, &AuditTrailPage::brokenRowShown);
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowCount() >= 200 && !page.model()->loading(),
                                 20000);
        QTRY_VERIFY_WITH_TIMEOUT(counted.size() >= 1, 20000);
        QCOMPARE(counted.last().at(0).toLongLong(), 0);
        QVERIFY(!page.unshippedBanner()->isVisible());
        QVERIFY(page.model()->rowCount() < kBroken); // the broken row is not loaded yet
        // The Seq column fits the longest seq loaded, not only those on screen (in 简体中文 its
        // header is narrower than "200").
        const int lastRow = page.model()->rowCount() - 1;
        QVERIFY(page.table()->columnWidth(AuditTrailModel::Seq) >=
                page.table()
                    ->sizeHintForIndex(page.model()->index(lastRow, AuditTrailModel::Seq))
                    .width());
        shoot(&page, QStringLiteral("results-0-loaded-") + lang);

        // Verify: the break is named, and its row is loaded, current, selected and on screen.
        page.verifyButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, 60000);
        QVERIFY(!verified.at(0).at(0).toBool());
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 60000);
        QCOMPARE(shown.at(0).at(0).toLongLong(), kBroken);
        const int row = shown.at(0).at(1).toInt();
        QCOMPARE(page.model()->rowAt(row).seq, kBroken);
        QCOMPARE(page.table()->currentIndex().row(), row);
        QVERIFY(page.table()->selectionModel()->isRowSelected(row, {}));
        QTest::qWait(50); // the scroll is applied with the next layout
        // Its seq is whole on screen (the Seq column grew with the longer seqs loaded).
        QVERIFY(
            page.table()->columnWidth(AuditTrailModel::Seq) >=
            page.table()->sizeHintForIndex(page.model()->index(row, AuditTrailModel::Seq)).width());
        const QRect rect = page.table()->visualRect(page.model()->index(row, 0));
        QVERIFY2(page.table()->viewport()->rect().contains(rect.center()),
                 qPrintable(QStringLiteral("row %1 at y %2 of %3")
                                .arg(row)
                                .arg(rect.center().y())
                                .arg(page.table()->viewport()->height())));
        QVERIFY(page.detail()->toPlainText().startsWith(QStringLiteral("seq %1").arg(kBroken)) ||
                page.detail()->toPlainText().contains(QString::number(kBroken)));
        const QString brokenLine = page.result()->text();
        // The row it names, and what happened to it, in the page's language.
        QVERIFY2(brokenLine.contains(lang == u"en"
                                         ? QStringLiteral("seq %1 (altered)").arg(kBroken)
                                         : QStringLiteral("序号 %1 的行（篡改）").arg(kBroken)),
                 qPrintable(brokenLine));
        shoot(&page, QStringLiteral("results-1-verify-broken-") + lang);

        // Export (all rows): the exporter refuses the broken chain and says so on its own
        // line; Verify's line stays; the refusal it audited is counted in the amber line.
        const QDir out(dbs->tempPath());
        QSignalSpy failed(&page, &AuditTrailPage::failed);
        const qsizetype countedBefore = counted.size();
        page.exportTo(QStringLiteral("csv"), out.filePath(QStringLiteral("all.csv")));
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 1, 60000);
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("all.csv"))));
        QVERIFY(page.exportResult()->isVisible());
        QVERIFY2(page.exportResult()->text().contains(
                     (lang == u"en" ? QStringLiteral("seq %1") : QStringLiteral("序号 %1"))
                         .arg(kBroken)),
                 qPrintable(page.exportResult()->text()));
        QVERIFY2(page.exportResult()->text().contains(lang == u"en"
                                                          ? QStringLiteral("nothing was exported")
                                                          : QStringLiteral("未导出任何内容")),
                 qPrintable(page.exportResult()->text()));
        QCOMPARE(page.result()->text(), brokenLine);
        QTRY_VERIFY_WITH_TIMEOUT(counted.size() > countedBefore, 20000);
        QCOMPARE(counted.last().at(0).toLongLong(), 1);
        QVERIFY(page.unshippedBanner()->isVisible());
        shoot(&page, QStringLiteral("results-2-export-refused-") + lang);

        // An export the break is not in goes through: its file on the export line, the break
        // still on Verify's, and the export's own audit row counted.
        page.actorEdit()->setText(QStringLiteral("fin"));
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowCount() > 0 && !page.model()->loading(), 20000);
        QSignalSpy exported(&page, &AuditTrailPage::exported);
        const qsizetype countedBefore2 = counted.size();
        page.exportTo(QStringLiteral("csv"), out.filePath(QStringLiteral("fin.csv")));
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 60000);
        QVERIFY(page.exportResult()->text().contains(exported.at(0).at(2).toString()));
        QCOMPARE(page.result()->text(), brokenLine);
        QTRY_VERIFY_WITH_TIMEOUT(
            counted.size() > countedBefore2 && counted.last().at(0).toLongLong() == 2, 20000);
        shoot(&page, QStringLiteral("results-3-export-done-") + lang);

        // Verify again with the filter on: the broken row is not among the rows shown, and the
        // verify line says so.
        page.verifyButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 2, 60000);
        // (the note follows the verify text after a line break, naming the row)
        QTRY_VERIFY_WITH_TIMEOUT(page.result()->text().contains(QStringLiteral("<br>")), 20000);
        QVERIFY(page.result()
                    ->text()
                    .section(QStringLiteral("<br>"), 1)
                    .contains(QString::number(kBroken)));
        QCOMPARE(shown.size(), 1);
        QVERIFY(page.model()->atEnd());
        if (lang == u"en")
            QVERIFY2(
                page.result()->text().contains(QStringLiteral("Row seq %1 is not among the rows"
                                                              " the filter shows")
                                                   .arg(kBroken)),
                qPrintable(page.result()->text()));
    }

    // Verify an export from the page (Export ▸ Verify an export…): an intact export verifies,
    // an edited one (its manifest's digest made to fit) does not, and the line says which row
    // and column changed — in the page's language, the engine's summary in the tooltip.
    void exportVerifiedOnThePage_data() { addLanguageRows(); }
    void exportVerifiedOnThePage()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        ManualClock clock(kStart);
        const auto dbs = seededScratch(clock);
        const AppConfig config = dbs->config();
        AuditTrailPage page(config, kAuditor);
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.actorEdit()->setText(QStringLiteral("fin"));
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowCount() > 0 && !page.model()->loading(), 20000);
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("fin.csv"));
        QSignalSpy exported(&page, &AuditTrailPage::exported);
        page.exportTo(QStringLiteral("csv"), path);
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 60000);
        const QString manifest = exported.at(0).at(1).toString();

        QSignalSpy checked(&page, &AuditTrailPage::exportVerified);
        page.verifyExport(manifest);
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, 60000);
        QVERIFY2(checked.at(0).at(0).toBool(), qPrintable(checked.at(0).at(1).toString()));
        QVERIFY2(page.exportResult()->text().contains(lang == u"en"
                                                          ? QStringLiteral("The export verifies")
                                                          : QStringLiteral("导出文件校验通过")),
                 qPrintable(page.exportResult()->text()));
        QVERIFY(!page.cancelButton()->isEnabled());
        shoot(&page, QStringLiteral("results-4-export-verified-") + lang);

        // Cancel (the README's promise): asked before the first row is checked, the
        // verification stops and concludes nothing. The console's pool is held busy until
        // Cancel is pressed, so the verification cannot begin before it.
        {
            PoolHold hold;
            page.verifyExport(manifest);
            QVERIFY(page.cancelButton()->isEnabled());
            page.cancelButton()->click();
        }
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 2, 60000);
        QVERIFY(!checked.at(1).at(0).toBool());
        QCOMPARE(checked.at(1).at(1).toString(),
                 QStringLiteral("export verification cancelled: nothing was concluded"));
        QVERIFY2(page.exportResult()->text().contains(
                     lang == u"en" ? QStringLiteral("cancelled; nothing was concluded")
                                   : QStringLiteral("已取消；未得出任何结论")),
                 qPrintable(page.exportResult()->text()));
        checked.clear();

        // Row 1 (seq 4, fin's first row) edited, and the manifest made to fit the file.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        const qsizetype at = bytes.indexOf(",fin,");
        QVERIFY(at > 0);
        bytes.replace(at, 5, ",eve,");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        QFile m(manifest);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(m.readAll()).object();
        m.close();
        o.insert(QStringLiteral("sha256"),
                 QString::fromLatin1(
                     QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        QVERIFY(m.open(QIODevice::WriteOnly | QIODevice::Truncate));
        m.write(QJsonDocument(o).toJson());
        m.close();

        page.verifyExport(manifest);
        QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, 60000);
        QVERIFY(!checked.at(0).at(0).toBool());
        const QString line = page.exportResult()->text();
        QVERIFY2(line.contains(lang == u"en" ? QStringLiteral("The export does NOT verify")
                                             : QStringLiteral("导出文件校验未通过")),
                 qPrintable(line));
        QVERIFY2(line.contains(lang == u"en"
                                   ? QStringLiteral("row 1 of the file (the audit log's seq 4)"
                                                    " differs in actor: the file says “eve”, the"
                                                    " audit log “fin”")
                                         .toHtmlEscaped()
                                   : QStringLiteral("文件第 1 行（审计日志序号 4）的 actor"
                                                    " 不同：文件为“eve”，审计日志为“fin”")),
                 qPrintable(line));
        QVERIFY(
            page.exportResult()->toolTip().contains(QStringLiteral("export does NOT verify: ")));
        shoot(&page, QStringLiteral("results-5-export-edited-") + lang);
    }

    // Every sentence a verification of an export can end with — each problem and each refusal,
    // as the services word them, edge values included (no export id, an id with a space, a
    // row count, a seal, a file gone) — is one the console translates: none reaches the
    // 简体中文 page in English.
    void everySentenceOfAnExportCheckIsTranslated()
    {
        Language::apply(QStringLiteral("zh_CN"));
        ManualClock clock(kStart);
        const auto dbs = seededScratch(clock);
        const AppConfig config = dbs->config();
        Connection orders = openOrDie(config.orders);
        Connection audit = openOrDie(config.audit);
        AuditExporter exporter(audit, orders, clock);
        const QDir dir(dbs->tempPath());
        AuditFilter fin;
        fin.actor = QStringLiteral("fin");
        QStringList said; // every problem and refusal met
        int n = 0;
        // A fresh export in `format`, changed by `file` (its bytes) and `manifest`, the
        // manifest's digest and size refitted to the file; what verifying it says.
        const auto check = [&](const QString &format, const std::function<void(QByteArray &)> &file,
                               const std::function<void(QJsonObject &)> &manifest) {
            const QString path = dir.filePath(QStringLiteral("e%1.%2").arg(++n).arg(format));
            const std::unique_ptr<AuditExportWriter> writer = makeAuditExportWriter(format);
            auto made = exporter.run(fin, path, *writer, kAuditor);
            QVERIFY(made.ok());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray bytes = f.readAll();
            f.close();
            if (file) {
                file(bytes);
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
                f.write(bytes);
                f.close();
            }
            QFile m(made->manifestPath);
            QVERIFY(m.open(QIODevice::ReadOnly));
            QJsonObject o = QJsonDocument::fromJson(m.readAll()).object();
            m.close();
            o.insert(QStringLiteral("sha256"),
                     QString::fromLatin1(
                         QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
            o.insert(QStringLiteral("bytes"), QString::number(bytes.size()));
            if (manifest)
                manifest(o);
            QVERIFY(m.open(QIODevice::WriteOnly | QIODevice::Truncate));
            m.write(QJsonDocument(o).toJson());
            m.close();
            auto r = exporter.verify(made->manifestPath, kAuditor);
            if (!r)
                said << r.error().message;
            else
                said << r->problems;
        };
        const auto lastRow = [](QByteArray &b) { return b.lastIndexOf("\r\n", b.size() - 3) + 2; };
        check(QStringLiteral("csv"), [](QByteArray &b) { b.replace(",fin,", ",eve,"); }, {});
        check(QStringLiteral("csv"), [&](QByteArray &b) { b.truncate(lastRow(b)); }, {});
        check(QStringLiteral("csv"), [&](QByteArray &b) { b.append(b.mid(lastRow(b))); }, {});
        check(QStringLiteral("csv"), [](QByteArray &b) { b.replace(0, 3, "SEQ"); }, {});
        check(QStringLiteral("csv"), {}, [](QJsonObject &o) {
            o.insert(QStringLiteral("row_count"), QStringLiteral("7"));
            o.insert(QStringLiteral("chain_head"),
                     QJsonObject{{QStringLiteral("seq"), QStringLiteral("2499")},
                                 {QStringLiteral("hash"), QString(64, u'a')}});
        });
        check(QStringLiteral("csv"), {},
              [](QJsonObject &o) { o.insert(QStringLiteral("export_id"), QString()); });
        check(QStringLiteral("csv"), {}, [](QJsonObject &o) {
            o.insert(QStringLiteral("export_id"), QStringLiteral("an id"));
        });
        check(QStringLiteral("csv"), {}, [](QJsonObject &o) {
            QJsonObject seal = o.value(QStringLiteral("seal")).toObject();
            seal.insert(QStringLiteral("signature"), QStringLiteral("forged"));
            o.insert(QStringLiteral("seal"), seal);
        });
        check(QStringLiteral("csv"), {},
              [](QJsonObject &o) { o.insert(QStringLiteral("file"), QStringLiteral("gone.csv")); });
        check(QStringLiteral("json"), [](QByteArray &b) { b.replace("\"fin\"", "\"eve\""); }, {});
        check(QStringLiteral("json"), [](QByteArray &b) { b.truncate(b.size() / 2); }, {});
        check(QStringLiteral("json"), {}, [](QJsonObject &o) {
            o.insert(QStringLiteral("format"), QStringLiteral("something else"));
        });
        QVERIFY(said.size() >= 12);
        for (const QString &line : std::as_const(said)) {
            QVERIFY2(Labels::isEngineText(line),
                     qPrintable(QStringLiteral("untranslated: ") + line));
            static const QRegularExpression latin(QStringLiteral("^[ -~]*$"));
            QVERIFY2(!latin.match(Labels::engineText(line)).hasMatch(),
                     qPrintable(QStringLiteral("still English: ") + Labels::engineText(line)));
        }
    }

    // The page closed while it exports: the export is cancelled — no file, no manifest, no
    // audit row for an export nobody saw.
    void closingThePageCancelsItsExport()
    {
        ManualClock clock(kStart);
        const auto dbs = seededScratch(clock);
        const AppConfig config = dbs->config();
        const QString path = QDir(dbs->tempPath()).filePath(QStringLiteral("closed.csv"));
        {
            PoolHold hold; // the export waits for a thread until the page is gone
            auto page = std::make_unique<AuditTrailPage>(config, kAuditor);
            page->exportTo(QStringLiteral("csv"), path);
            page.reset();
        }
        consoleTaskPool()->waitForDone();
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(AuditManifest::pathFor(path)));
        Connection orders = openOrDie(config.orders);
        QCOMPARE(Sql::scalar(orders.db(), QStringLiteral("SELECT COUNT(*) FROM audit_outbox"
                                                         " WHERE action = 'audit.exported'"))
                     ->toLongLong(),
                 0);
    }

    // The audit profile on a database that is not migrated (A4): the summary names the audit
    // database, once; the amber line does not blame the orders database for it. And the
    // orders database not migrated, or its outbox unreadable: named as the orders database.
    void databaseNamedOnce()
    {
        auto created = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(created.ok());
        auto dbs = std::move(created).value();
        ManualClock clock(kStart);
        {
            Connection orders = openOrDie(dbs->orders());
            Connection audit = openOrDie(dbs->audit());
            record(orders, clock, 1);
            addAuditStaff(orders);
        }
        const QString empty = QDir(dbs->tempPath()).filePath(QStringLiteral("empty.db"));
        {
            QFile f(empty);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }

        const QString older = QStringLiteral("older schema");
        {
            AppConfig config = dbs->config();
            config.audit.path = empty;
            AuditTrailPage page(config, kAuditor);
            page.resize(1400, 900);
            page.show();
            QSignalSpy counted(&page, &AuditTrailPage::unshippedCounted);
            QSignalSpy failed(&page, &AuditTrailPage::failed);
            page.refresh();
            QTRY_VERIFY_WITH_TIMEOUT(counted.size() == 1 && failed.size() >= 2, 20000);
            QVERIFY2(page.summary()->text().startsWith(
                         QStringLiteral("The audit database has an older schema")),
                     qPrintable(page.summary()->text()));
            QVERIFY(!page.unshippedBanner()->isVisible());
            QCOMPARE(linesSaying(page, older), 1);
            QCOMPARE(linesSaying(page, QStringLiteral("orders database")), 0);
            shoot(&page, QStringLiteral("results-4-audit-not-migrated"));
            // Verify answers on its own line, naming the database.
            QSignalSpy verified(&page, &AuditTrailPage::verified);
            page.verifyButton()->click();
            QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, 20000);
            QVERIFY2(page.result()->text().contains(
                         QStringLiteral("Not verified</b>: The audit database has an older")),
                     qPrintable(page.result()->text()));
        }
        {
            AppConfig config = dbs->config();
            config.orders.path = empty;
            AuditTrailPage page(config, kAuditor);
            page.resize(1400, 900);
            page.show();
            QSignalSpy counted(&page, &AuditTrailPage::unshippedCounted);
            QSignalSpy failed(&page, &AuditTrailPage::failed);
            page.refresh();
            QTRY_VERIFY_WITH_TIMEOUT(counted.size() == 1 && failed.size() >= 2, 20000);
            QVERIFY2(page.summary()->text().startsWith(
                         QStringLiteral("The orders database has an older schema")),
                     qPrintable(page.summary()->text()));
            QCOMPARE(linesSaying(page, older), 1);
        }
        {
            // Both open, but the outbox cannot be read: the amber line says it is the orders
            // database; the trail itself loads.
            Connection orders = openOrDie(dbs->orders());
            QVERIFY(Sql::exec(orders.db(), QStringLiteral("DROP TABLE audit_outbox")).ok());
        }
        AuditTrailPage page(dbs->config(), kAuditor);
        page.resize(1400, 900);
        page.show();
        QSignalSpy counted(&page, &AuditTrailPage::unshippedCounted);
        page.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(counted.size(), 1, 20000);
        QCOMPARE(counted.at(0).at(0).toLongLong(), -1);
        QVERIFY(page.unshippedBanner()->isVisible());
        QVERIFY2(page.unshippedBanner()->text().contains(QStringLiteral("Orders database:")),
                 qPrintable(page.unshippedBanner()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(page.summary()->text().contains(QStringLiteral("0 rows")), 20000);
        shoot(&page, QStringLiteral("results-5-outbox-unreadable"));
    }
};

QTEST_MAIN(TstAuditTrailPageResults)
#include "tst_audit_trail_page_results.moc"
