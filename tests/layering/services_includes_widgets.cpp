// Must not compile: services may not see Qt Widgets.
#include "core/result.h"
#include <QWidget>
int main()
{
    QWidget w;
    return 0;
}
