// RowTableModel, under every table of the console: rows set whole or appended a page at a time
// (the stuck list) read back in order across the pages, through QAbstractItemModelTester, and a
// page handed over with std::move is kept as it came — the GUI thread copies none of it.

#include "common/rowtablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace OncePay;

namespace {

struct Line {
    int number = 0;
    QString text;
    bool operator==(const Line &) const = default;
};

class LineModel : public RowTableModel<Line> {
public:
    LineModel()
    {
        addColumn(QStringLiteral("Number"), [](const Line &l, int role) -> QVariant {
            return role == Qt::DisplayRole ? QVariant(l.number) : QVariant();
        });
        addColumn(QStringLiteral("Text"), [](const Line &l, int role) -> QVariant {
            return role == Qt::DisplayRole ? QVariant(l.text) : QVariant();
        });
    }
};

QList<Line> lines(int from, int count)
{
    QList<Line> out;
    for (int i = from; i < from + count; ++i)
        out << Line{i, QStringLiteral("line %1").arg(i)};
    return out;
}

} // namespace

class TstRowTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pagesReadBackInOrder()
    {
        LineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setRows(lines(0, 3));
        model.appendRows(lines(3, 1));
        model.appendRows({}); // nothing: no rows announced
        model.appendRows(lines(4, 5));
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.at(1).at(1).toInt(), 4); // first
        QCOMPARE(inserted.at(1).at(2).toInt(), 8); // last
        QCOMPARE(model.rowCount(), 9);
        QCOMPARE(model.rows(), lines(0, 9));
        for (int row = 0; row < 9; ++row) { // every page's first and last row included
            QCOMPARE(model.rowAt(row).number, row);
            QCOMPARE(model.index(row, 0).data().toInt(), row);
            QCOMPARE(model.index(row, 1).data().toString(), QStringLiteral("line %1").arg(row));
        }
        QVERIFY(!model.index(9, 0).isValid());

        // Set whole again: the pages before are gone.
        model.setRows(lines(100, 2));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rows(), lines(100, 2));
        QCOMPARE(model.index(1, 0).data().toInt(), 101);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.rows().isEmpty());
        model.appendRows(lines(7, 2)); // a first page appended to nothing
        QCOMPARE(model.rows(), lines(7, 2));
    }

    void aPageHandedOverIsKeptAsItCame()
    {
        LineModel model;
        model.setRows(lines(0, 1000));
        QList<Line> page = lines(1000, 1000);
        const Line *const at = page.constData();
        model.appendRows(std::move(page));
        QCOMPARE(&model.rowAt(1000), at); // the same memory: no row moved or copied
        QCOMPARE(model.rowAt(1999).number, 1999);
        QCOMPARE(model.rowAt(999).number, 999);
    }
};

QTEST_GUILESS_MAIN(TstRowTableModel)
#include "tst_row_table_model.moc"
