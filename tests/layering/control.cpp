// Must compile: services and QtCore are what a services-level target may use.
#include "core/money.h"
#include <QCoreApplication>
int main()
{
    return OncePay::Currency::isKnown(QStringLiteral("USD")) ? 0 : 1;
}
