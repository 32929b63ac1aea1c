// Must not compile: models may use QtGui but not Qt Widgets.
#include <QStandardItemModel>
#include <QTableView>
int main()
{
    QTableView v;
    return 0;
}
