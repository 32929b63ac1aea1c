// Fix decisions racing staff changes, on SQLite, PostgreSQL and MariaDB (tst_fix_locks holds the
// lock order one step at a time; the reasoning is there). fay's console, fay's script writing
// rejections straight into the database, and fin decide at once while the administrator demotes,
// restores and finally disables fay, changes other staff and refreshes the staff list, and a
// second console refreshes it too — each on a connection and thread of its own. Nothing may
// deadlock or fail: every decision is applied once, recorded as failed (its target moved) or
// cleanly refused, and the maker-checker rule holds at every moment (never one's own proposal;
// a demoted or disabled reviewer does not decide, also when the service is bypassed and only the
// trigger stands in the way). With the order before 528abab (staff rows locked through the
// user-name index) the race fails at once on MariaDB: the staff-list refresh is ended as a
// deadlock. The phases are FixLocksRace's (fixlocksrace.h).

#include "enginefixture.h"
#include "fixlocksrace.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixLocks;

class TstFixLocksRace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decisionsRaceStaffChanges_data() { addEngineRows(); }
    void decisionsRaceStaffChanges()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        FixLocksRace race(f);
        for (void (FixLocksRace::*phase)() :
             {&FixLocksRace::addStaff, &FixLocksRace::proposeFixes, &FixLocksRace::run,
              &FixLocksRace::checkEachDecision, &FixLocksRace::checkTheMeetings,
              &FixLocksRace::checkTheStaffAfterwards}) {
            (race.*phase)();
            if (QTest::currentTestFailed())
                return;
        }
        race.report();
    }
};

QTEST_GUILESS_MAIN(TstFixLocksRace)
#include "tst_fix_locks_race.moc"
