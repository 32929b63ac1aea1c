#pragma once

// Skips (locally) / fails (CI) with a printed reason when the engine's server is not
// configured — ONCEPAY_SCRATCH's first step (testdatabases.h), for tests that open the server
// themselves rather than through a ScratchDatabases.

#include "testdatabases.h"

#define ONCEPAY_REQUIRE_SERVER(dialectValue)                                                       \
    {                                                                                              \
        QString why_;                                                                              \
        if (!OncePay::Test::engineConfigured(OncePay::Dialect(dialectValue), &why_)) {             \
            if (OncePay::Test::inCi())                                                             \
                QFAIL(qPrintable(QStringLiteral("CI=true but ") + why_));                          \
            QSKIP(qPrintable(why_));                                                               \
        }                                                                                          \
    }
