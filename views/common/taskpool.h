#pragma once

// The console's own thread pool for database and file work (background queries, audit
// jobs, health checks, sign-out). Not QThreadPool::globalInstance(): Qt 6.4's raster paint
// engine splits large fills over the global pool and the GUI thread waits for them, so a
// long query on a global-pool thread froze painting — and with it the whole GUI — until the
// query ended (2.3 s for the dashboard on 1,000,000 orders). Its threads never expire, so
// each keeps its cached connections (backgroundquery.h) for the next task; the pool is
// drained and deleted when the application object goes.
// Thread contract: call consoleTaskPool() on the GUI thread; tasks run on its threads.

#include <QThreadPool>

namespace OncePay {

// At most kConsoleTaskThreads database tasks run at once (each thread holds at most one
// connection per database), so a slow load does not hold up a search behind it.
inline constexpr int kConsoleTaskThreads = 4;

QThreadPool *consoleTaskPool();

} // namespace OncePay
