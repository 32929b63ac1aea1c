// Fix decisions racing staff changes, on SQLite, PostgreSQL and MariaDB. A decision locks its
// reviewer's staff row through the primary key (requireCurrent → lockStaffRow) and then inserts
// into fix_decisions, whose guard trigger (migration 0002) reads the reviewer's staff row again
// by user name — on MariaDB a locking read even at READ COMMITTED (shared locks on the
// user-name index entry, then on the row); PostgreSQL's trigger reads its snapshot, unlocked.
// A staff change locks staff rows through the primary key only (lockEnabledAdmins,
// lockStaffRow) and writes no user name, so no one ever holds a user-name index entry
// exclusively: a decision may wait for a change's row lock (or a change for the decision's),
// and the waits never close a circle. These tests hold that order: the decisions and changes
// below run at once, each on a connection and thread of its own, and must neither deadlock nor
// fail: every decision is applied once, recorded as failed (its target moved) or cleanly
// refused, and the maker-checker rule holds at every moment (never one's own proposal; a
// demoted or disabled reviewer does not decide, also when the service is bypassed and only the
// trigger stands in the way). With the order before 528abab (staff rows locked through the
// user-name index) the race fails at once on MariaDB: the staff-list refresh is ended as a
// deadlock.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "lockwait.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QMutex>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const QString kOrigin = QStringLiteral("locks@test");
const QString kPassword = QStringLiteral("correct horse battery");

const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
const Actor fay{QStringLiteral("fay"), QStringLiteral("finance")}; // demoted, restored, disabled
const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")}; // never changed
const Actor adm{QStringLiteral("adm"), QStringLiteral("admin")};

// Staff the administrator changes while the reviewers decide: role changes back and forth,
// and accounts disabled one by one.
const QStringList kRoleChanged{QStringLiteral("vic1"), QStringLiteral("vic2"),
                               QStringLiteral("vic3")};
const QStringList kDisabled{QStringLiteral("tmp1"), QStringLiteral("tmp2"), QStringLiteral("tmp3"),
                            QStringLiteral("tmp4"), QStringLiteral("tmp5"), QStringLiteral("tmp6")};

enum class FayIs { Finance, Demoted, Disabled };

// One committed change of fay's account, timed on the test's monotonic clock: it began at
// `start` and had committed by `end`.
struct FayChange {
    qint64 start = 0;
    qint64 end = 0;
    FayIs after = FayIs::Finance;
};

// Approve; Moved: approve a fix whose target moved after it was proposed (the approval is then
// recorded in a second transaction that locks no staff row first, and the fix marked failed);
// Reject; Bypass: a rejection written straight into the database.
enum class Path { Approve, Moved, Reject, Bypass };

// One decision as it was asked and answered.
struct Attempt {
    qint64 fixId = 0;
    QString sha;
    bool own = false; // proposed by the one deciding
    Path path = Path::Approve;
    qint64 start = 0;
    qint64 end = 0;
    bool ok = false;
    ErrorCode code = ErrorCode::Internal;
    QString reason;
    QString message;
};

// fay's account as a decision made between `start` and `end` must have seen it: the state after
// the last change that had committed before the decision began, if no change ran meanwhile;
// nothing when one did (either state may then be seen).
std::optional<FayIs> settled(const QList<FayChange> &changes, qint64 start, qint64 end)
{
    FayIs state = FayIs::Finance;
    for (const FayChange &c : changes) { // in the order they were made, by one thread
        if (c.end < start)
            state = c.after;
        else if (c.start < end)
            return std::nullopt;
    }
    return state;
}

// A rejection written straight into the database, as a script bypassing the service would: only
// the triggers guard it. The decision and the status in one transaction.
Result<bool> bypassReject(const Connection &c, qint64 fixId, const QString &by)
{
    return inTransaction(c.db(), Transaction::Mode::Immediate, [&]() -> Result<bool> {
        auto d = Sql::exec(c.db(),
                           "INSERT INTO fix_decisions (fix_id, decided_by, decision, reason_code,"
                           " comment, decided_from, decided_at) VALUES (?, ?, 'reject', 'other',"
                           " 'bypassing the service', 'script', 1)",
                           {fixId, by});
        if (!d)
            return d.error();
        auto u = Sql::update(c.db(),
                             "UPDATE fix_requests SET status = 'rejected', open_target = NULL"
                             " WHERE id = ? AND status = 'open'",
                             {fixId});
        if (!u)
            return u.error();
        if (*u != 1)
            return makeError(ErrorCode::Internal,
                             QStringLiteral("fix #%1 was not open").arg(fixId));
        return true;
    });
}

QString describe(const Attempt &d)
{
    const char *path = d.path == Path::Approve  ? "approve"
                       : d.path == Path::Moved  ? "approve (target moved)"
                       : d.path == Path::Reject ? "reject"
                                                : "bypass";
    return QStringLiteral("fix #%1 %2%3: %4")
        .arg(d.fixId)
        .arg(QString::fromLatin1(path), d.own ? QStringLiteral(" (own)") : QString(),
             d.ok ? QStringLiteral("ok")
                  : QStringLiteral("%1 %2 (%3)")
                        .arg(errorCodeName(d.code), d.reason, d.message.left(300)));
}

// Runs `body` on a thread of its own with a connection of its own, once all `parties` threads
// have opened theirs (so that none has finished before the last begins); `*failed` gets what
// went wrong opening it. `over` runs at the end, whatever happened.
QThread *onItsOwnConnection(const ConnectionProfile &profile, const QString &purpose,
                            QStringList *failed, QMutex *mutex, std::atomic<int> *ready,
                            int parties, std::function<void(const Connection &)> body,
                            std::function<void()> over = {})
{
    return QThread::create([=] {
        auto c = Connection::open(profile, purpose);
        ++*ready;
        if (!c) {
            QMutexLocker lock(mutex);
            *failed << purpose + QStringLiteral(": ") + c.error().message;
        } else {
            QDeadlineTimer deadline(60000);
            while (ready->load() < parties && !deadline.hasExpired())
                QThread::yieldCurrentThread();
            body(*c);
        }
        if (over)
            over();
    });
}

} // namespace

class TstFixLocks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The order, one step at a time. A role change of fay holds her staff row (locked through
    // the primary key and written, as StaffService::changeAccount does) and has not committed;
    // fay's decision meanwhile — through the service, or written straight into fix_decisions —
    // queues behind it instead of deadlocking, and then sees the change: refused, nothing
    // stored. Only PostgreSQL's guard trigger reads the staff row without a lock (its
    // snapshot): the written decision is stored at once, before the change commits, and so
    // comes first.
    void aDecisionQueuesBehindAChangeOfItsReviewer_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<bool>("bypass");
        for (auto [name, d] : {std::pair{"sqlite", Dialect::Sqlite},
                               {"postgresql", Dialect::Postgres},
                               {"mariadb", Dialect::MySql}})
            for (bool bypass : {false, true})
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(
                    QString::fromLatin1(name),
                    bypass ? QStringLiteral("written") : QStringLiteral("service"))))
                    << int(d) << bypass;
    }
    void aDecisionQueuesBehindAChangeOfItsReviewer()
    {
        ONCEPAY_SCRATCH(dbs);
        QFETCH(bool, bypass);
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(staff.add({amy.id, amy.id, StaffRole::Agent}, kPassword, system).ok());
        QVERIFY(staff.add({fay.id, fay.id, StaffRole::Finance}, kPassword, system).ok());
        f.makeDeadLetter("o-ghost", "evt_q");
        FixService fixes(*f.orders, f.clock);
        FixProposal p;
        p.kind = FixKind::ResolveMessage;
        p.targetId = QStringLiteral("stripe:evt_q");
        p.reasonCode = QStringLiteral("poison_message");
        p.comment = QStringLiteral("seen in the stuck view");
        p.origin = kOrigin;
        auto fix = fixes.propose(p, amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        const qint64 fayId = f.count("SELECT id FROM staff WHERE username = 'fay'");

        Transaction change(f.orders->db(), Transaction::Mode::Immediate);
        QVERIFY(change.begin().ok());
        if (f.orders->dialect() != Dialect::Sqlite)
            QVERIFY(
                Sql::exec(f.orders->db(), "SELECT role FROM staff WHERE id = ? FOR UPDATE", {fayId})
                    .ok());
        QVERIFY(Sql::update(f.orders->db(),
                            "UPDATE staff SET role = 'auditor', updated_at = updated_at + 1"
                            " WHERE id = ?",
                            {fayId})
                    .ok());

        Result<bool> answer = makeError(ErrorCode::Internal, QStringLiteral("did not run"));
        std::atomic<bool> begun = false;
        std::atomic<bool> changeEnded = false;
        std::atomic<bool> answeredAfterChange = false;
        std::unique_ptr<QThread> other(QThread::create([&] {
            auto c = Connection::open(f.config.orders, QStringLiteral("fay"));
            if (!c) {
                answer = c.error();
                return;
            }
            begun = true;
            if (bypass) {
                answer = bypassReject(*c, fix->id, fay.id);
            } else {
                auto r = FixService(*c, f.clock)
                             .reject(fix->id, QStringLiteral("other"),
                                     QStringLiteral("not this way"), kOrigin, fay);
                answer = r ? Result<bool>(true) : Result<bool>(r.error());
            }
            answeredAfterChange = changeEnded.load();
        }));
        // Whatever happens below, the change ends before the thread is joined.
        auto join = qScopeGuard([&] {
            if (change.active())
                change.rollback();
            changeEnded = true;
            other->wait();
        });
        other->start();
        const bool readsWithoutLock = bypass && f.orders->dialect() == Dialect::Postgres;
        bool waited = false;
        if (readsWithoutLock) {
            QVERIFY2(other->wait(20000), "the written decision waited for the change");
        } else if (f.orders->dialect() == Dialect::Sqlite) {
            QDeadlineTimer deadline(20000);
            while (!begun && !other->isFinished() && !deadline.hasExpired())
                QThread::msleep(10);
            QThread::msleep(200); // a chance to reach the write lock; proven by the order
        } else {
            waited = aSessionWaitsOnALock(f.config.orders, 20000);
        }
        changeEnded = true;
        QVERIFY(change.commit().ok());
        join.dismiss();
        other->wait();
        if (f.orders->dialect() == Dialect::Sqlite)
            waited = begun && answeredAfterChange;

        const qint64 stored =
            f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ?", {fix->id});
        if (readsWithoutLock) {
            QVERIFY2(answer.ok(), qPrintable(answer.ok() ? QString() : answer.error().message));
            QVERIFY(!answeredAfterChange);
            QCOMPARE(stored, 1);
            QCOMPARE(fixes.get(fix->id)->status, FixStatus::Rejected);
            return;
        }
        QVERIFY2(waited, "the decision did not wait for the change of its reviewer");
        QVERIFY(!answer.ok());
        QCOMPARE(answer.error().code, ErrorCode::Forbidden);
        QCOMPARE(answer.error().reason,
                 bypass ? QStringLiteral("database_rule") : QStringLiteral("role_changed"));
        QCOMPARE(stored, 0);
        QCOMPARE(fixes.get(fix->id)->status, FixStatus::Open);
    }

    void decisionsRaceStaffChanges_data() { addEngineRows(); }
    void decisionsRaceStaffChanges()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const ConnectionProfile profile = f.config.orders;

        // fay decides kFay fixes through the service (every sixth her own proposal) and kBypass
        // straight in the database (every fifth her own); fin decides kFin through the service.
        // ONCEPAY_TEST_FIX_LOCKS_SCALE=n makes it n times as many, for a longer hunt.
        const int scale =
            std::clamp(qEnvironmentVariableIntValue("ONCEPAY_TEST_FIX_LOCKS_SCALE"), 1, 100);
        const int kFay = 60 * scale;
        const int kFin = 40 * scale;
        const int kBypass = 40 * scale;
        const int kFixes = kFay + kFin + kBypass;

        StaffService staff(*f.orders, f.clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(staff.add({adm.id, adm.id, StaffRole::Admin}, kPassword, system).ok());
        QVERIFY(staff.add({amy.id, amy.id, StaffRole::Agent}, kPassword, system).ok());
        QVERIFY(staff.add({fay.id, fay.id, StaffRole::Finance}, kPassword, system).ok());
        QVERIFY(staff.add({fin.id, fin.id, StaffRole::Finance}, kPassword, system).ok());
        for (const QString &name : kRoleChanged)
            QVERIFY(staff.add({name, name, StaffRole::Finance}, kPassword, system).ok());
        for (const QString &name : kDisabled)
            QVERIFY(staff.add({name, name, StaffRole::Agent}, kPassword, system).ok());

        // kFixes dead letters (Stripe successes for orders nobody created, retried an hour apart
        // until given up), one proposal to resolve each.
        for (int i = 0; i < kFixes; ++i) {
            const QString n = QString::number(i);
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params("o-ghost-" + n, "a1", 2100, "USD", "evt_lk_" + n, "pi_lk_" + n)));
        }
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), kFixes);
        FixService fixes(*f.orders, f.clock);
        QList<Attempt> fayPlan, finPlan, bypassPlan;
        for (int i = 0; i < kFixes; ++i) {
            const bool forFay = i < kFay;
            const bool forBypass = i >= kFay + kFin;
            const bool own = forFay ? i % 6 == 5 : forBypass && i % 5 == 4;
            FixProposal p;
            p.kind = FixKind::ResolveMessage;
            p.targetId = QStringLiteral("stripe:evt_lk_%1").arg(i);
            p.reasonCode = QStringLiteral("poison_message");
            p.comment = QStringLiteral("seen in the stuck view");
            p.origin = kOrigin;
            auto fix = fixes.propose(p, own ? fay : amy);
            QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
            QCOMPARE(fix->approvalsNeeded, 1);
            Attempt d;
            d.fixId = fix->id;
            d.sha = fix->changeSha256;
            d.own = own;
            d.path = forBypass    ? Path::Bypass
                     : i % 6 == 2 ? Path::Moved
                     : i % 2 == 0 ? Path::Approve
                                  : Path::Reject;
            // The worker touched the message after the proposal: the change no longer applies.
            if (d.path == Path::Moved)
                QVERIFY(Sql::update(f.orders->db(),
                                    "UPDATE callback_messages SET updated_at = updated_at + 1"
                                    " WHERE callback_id = ?",
                                    {p.targetId})
                            .ok());
            (forFay ? fayPlan : forBypass ? bypassPlan : finPlan) << d;
        }

        QElapsedTimer clock; // monotonic, read from every thread
        clock.start();
        QMutex mutex;         // guards the lists below
        QStringList failures; // anything that is neither a success nor a clean refusal
        QList<FayChange> fayChanges;
        int staffChanges = 0, staffReads = 0;
        std::atomic<int> fayDone{0};
        std::atomic<int> decidersLeft{3};
        std::atomic<int> ready{0};
        // The meetings the race must reach, whatever the scheduling. After each demotion of fay
        // the administrator waits until each of fay's consoles has made a decision begun after
        // it (the script: one that is not her own proposal), so that she is met demoted; fay's
        // console waits at each of its first three quarters for one more demotion, and before
        // its last tenth until she is disabled; the script waits halfway for the first demotion.
        std::atomic<int> fayDemotions{0};     // committed so far
        std::atomic<int> fayConsoleMet{0};    // the last demotion a decision of hers began after
        std::atomic<int> fayScriptMet{0};     // the same for the script, not her own proposals
        std::atomic<bool> fayDisabled{false}; // committed
        std::atomic<bool> fayConsoleWaitsForDisable{false};
        std::atomic<bool> fayConsoleOver{false}, fayScriptOver{false};

        auto decide = [&](QList<Attempt> *plan, const Actor &actor) {
            return [&, plan, actor](const Connection &c) {
                FixService service(c, f.clock);
                const bool fayConsole = plan == &fayPlan;
                const bool fayScript = plan == &bypassPlan;
                const qsizetype quarter = plan->size() / 4;
                auto waitFor = [](const std::function<bool()> &met) {
                    QDeadlineTimer deadline(20000);
                    while (!met() && !deadline.hasExpired())
                        QThread::msleep(1);
                };
                for (qsizetype i = 0; i < plan->size(); ++i) {
                    Attempt &d = (*plan)[i];
                    if (fayConsole && i > 0 && i % quarter == 0 && i / quarter <= 3) {
                        const int wanted = int(i / quarter);
                        waitFor([&] { return fayDemotions.load() >= wanted; });
                    }
                    if (fayConsole && i == plan->size() * 9 / 10) {
                        fayConsoleWaitsForDisable = true;
                        waitFor([&] { return fayDisabled.load(); });
                        fayConsoleWaitsForDisable = false;
                    }
                    if (fayScript && i == plan->size() / 2)
                        waitFor([&] { return fayDemotions.load() >= 1; });
                    const int demotionsBefore = fayDemotions.load();
                    d.start = clock.nsecsElapsed();
                    std::optional<Error> why;
                    if (d.path == Path::Bypass) {
                        if (auto r = bypassReject(c, d.fixId, actor.id); !r)
                            why = r.error();
                    } else {
                        auto r =
                            d.path != Path::Reject
                                ? service.approve(d.fixId, d.sha, QStringLiteral("looks right"),
                                                  kOrigin, actor)
                                : service.reject(d.fixId, QStringLiteral("other"),
                                                 QStringLiteral("not this way"), kOrigin, actor);
                        if (!r)
                            why = r.error();
                    }
                    d.ok = !why;
                    if (why) {
                        d.code = why->code;
                        d.reason = why->reason;
                        d.message = why->message;
                    }
                    d.end = clock.nsecsElapsed();
                    if (fayConsole) {
                        ++fayDone;
                        fayConsoleMet = demotionsBefore;
                    }
                    if (fayScript && !d.own)
                        fayScriptMet = demotionsBefore;
                }
            };
        };

        // The administrator: role changes of others, disables of others, fay demoted and
        // restored in turn and, once she has made 80% of her service decisions, disabled.
        auto administer = [&](const Connection &c) {
            StaffService service(c, f.clock);
            QHash<QString, StaffRole> roles;
            for (const QString &name : kRoleChanged)
                roles[name] = StaffRole::Finance;
            FayIs fayIs = FayIs::Finance;
            int disabled = 0;
            auto changed = [&](const QString &what, const Result<StaffAccount> &r) {
                QMutexLocker lock(&mutex);
                if (r)
                    ++staffChanges;
                else
                    failures << what + QStringLiteral(": ") + r.error().toString();
                return r.ok();
            };
            auto changeFay = [&](FayIs to) {
                FayChange change{clock.nsecsElapsed(), 0, to};
                auto r = to == FayIs::Disabled
                             ? service.disable(fay.id, adm, QStringLiteral("left the team"))
                             : service.setRole(fay.id,
                                               to == FayIs::Demoted ? QStringLiteral("auditor")
                                                                    : QStringLiteral("finance"),
                                               adm, QStringLiteral("rota"));
                change.end = clock.nsecsElapsed();
                if (changed(QStringLiteral("fay"), r)) {
                    {
                        QMutexLocker lock(&mutex);
                        fayChanges << change;
                    }
                    if (to == FayIs::Disabled)
                        fayDisabled = true;
                    if (to == FayIs::Demoted) {
                        // Not restored before each of her consoles has met her demoted (or is
                        // over, or waits for the disable).
                        const int k = ++fayDemotions;
                        QDeadlineTimer deadline(20000);
                        while (!((fayConsoleMet.load() >= k || fayConsoleOver.load() ||
                                  fayConsoleWaitsForDisable.load()) &&
                                 (fayScriptMet.load() >= k || fayScriptOver.load())) &&
                               !deadline.hasExpired())
                            QThread::msleep(1);
                    }
                }
                fayIs = to;
            };
            for (int i = 0; decidersLeft.load() > 0; ++i) {
                switch (i % 4) {
                case 0: {
                    const QString &name = kRoleChanged.at((i / 4) % kRoleChanged.size());
                    roles[name] =
                        roles[name] == StaffRole::Finance ? StaffRole::Auditor : StaffRole::Finance;
                    changed(name, service.setRole(name, staffRoleName(roles[name]), adm,
                                                  QStringLiteral("rota")));
                    break;
                }
                case 1:
                case 3: {
                    // The administration page's refresh, or a disable while there are any left.
                    if (i % 4 == 3 && disabled < kDisabled.size()) {
                        const QString &name = kDisabled.at(disabled++);
                        changed(name, service.disable(name, adm, QStringLiteral("left")));
                        break;
                    }
                    auto list = service.list(adm);
                    QMutexLocker lock(&mutex);
                    if (list && list->size() == 4 + kRoleChanged.size() + kDisabled.size())
                        ++staffReads;
                    else
                        failures << QStringLiteral("staff list: ") +
                                        (list ? QStringLiteral("%1 rows").arg(list->size())
                                              : list.error().toString());
                    break;
                }
                case 2:
                    if (fayIs == FayIs::Disabled)
                        break;
                    if (fayDone.load() >= kFay * 8 / 10)
                        changeFay(FayIs::Disabled);
                    else
                        changeFay(fayIs == FayIs::Finance ? FayIs::Demoted : FayIs::Finance);
                    break;
                }
            }
            if (fayIs != FayIs::Disabled)
                changeFay(FayIs::Disabled);
        };

        // The administration page of a second administrator's console, refreshing.
        auto refresh = [&](const Connection &c) {
            StaffService service(c, f.clock);
            while (decidersLeft.load() > 0) {
                auto list = service.list(adm);
                QMutexLocker lock(&mutex);
                if (list)
                    ++staffReads;
                else
                    failures << QStringLiteral("staff list (second console): ") +
                                    list.error().toString();
            }
        };

        auto oneDeciderLess = [&] { --decidersLeft; };
        auto thread = [&](const char *purpose, std::function<void(const Connection &)> body,
                          std::function<void()> over = {}) {
            return onItsOwnConnection(profile, QString::fromLatin1(purpose), &failures, &mutex,
                                      &ready, 5, std::move(body), std::move(over));
        };
        QList<QThread *> threads{thread("fay", decide(&fayPlan, fay),
                                        [&] {
                                            fayConsoleOver = true;
                                            oneDeciderLess();
                                        }),
                                 thread("fay-script", decide(&bypassPlan, fay),
                                        [&] {
                                            fayScriptOver = true;
                                            oneDeciderLess();
                                        }),
                                 thread("fin", decide(&finPlan, fin), oneDeciderLess),
                                 thread("adm", administer), thread("adm-page", refresh)};
        for (QThread *t : threads)
            t->start();
        bool joined = true;
        for (QThread *t : threads) {
            joined = t->wait(QDeadlineTimer(600000)) && joined;
            if (t->isFinished())
                delete t;
        }
        QVERIFY2(joined, "a thread did not finish in 10 minutes (waiting on a lock?)");
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));

        // What each decision answered, against fay's account as the decision must have seen it.
        int ok = 0, refused = 0, recordedFailed = 0, raced = 0;
        auto check = [&](const Attempt &d, const Actor &actor) -> QString {
            const bool serviceSide = d.path != Path::Bypass;
            std::optional<FayIs> state = FayIs::Finance;
            if (actor.id == fay.id)
                state = settled(fayChanges, d.start, d.end);
            raced += !state;
            if (d.ok) {
                ++ok;
                if (d.path == Path::Moved)
                    return QStringLiteral("applied a change whose target had moved");
                if (d.own)
                    return QStringLiteral("decided its own proposal");
                if (state && *state != FayIs::Finance)
                    return QStringLiteral("decided while demoted or disabled");
                return {};
            }
            if (d.path == Path::Moved && d.code == ErrorCode::Stale) {
                ++recordedFailed; // the approval recorded, the fix failed
                if (d.reason != u"target_moved")
                    return QStringLiteral("failed for another cause");
                if (state && *state != FayIs::Finance)
                    return QStringLiteral("approval recorded while demoted or disabled");
                return {};
            }
            ++refused;
            if (d.code != ErrorCode::Forbidden)
                return QStringLiteral("neither done nor refused");
            if (!serviceSide) // the trigger: one answer for every rule
                return d.reason == u"database_rule" && (d.own || !state || *state != FayIs::Finance)
                           ? QString()
                           : QStringLiteral("refused by the database without a cause");
            const QString expected = !state                      ? QString()
                                     : *state == FayIs::Demoted  ? QStringLiteral("role_changed")
                                     : *state == FayIs::Disabled ? QStringLiteral("staff_disabled")
                                     : d.own                     ? QStringLiteral("own_proposal")
                                                                 : QStringLiteral("(none)");
            if (!expected.isEmpty() && d.reason != expected)
                return QStringLiteral("refused for the wrong cause (expected %1)").arg(expected);
            // Raced: refused by the service's check, or (a moved target's approval, recorded
            // in its second transaction) by the trigger.
            QStringList causes{"role_changed", "staff_disabled", "own_proposal"};
            if (d.path == Path::Moved)
                causes << QStringLiteral("database_rule");
            if (expected.isEmpty() && !causes.contains(d.reason))
                return QStringLiteral("refused for an unknown cause");
            return {};
        };
        // The database afterwards: a decision that held is there once with its effect; a
        // refused one left the proposal open with no decision.
        auto stored = [&](const Attempt &d, const Actor &actor) -> QString {
            const QString id = QString::number(d.fixId);
            auto fix = fixes.get(d.fixId);
            if (!fix)
                return fix.error().message;
            const qint64 rows =
                f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ?", {d.fixId});
            const qint64 mine = f.count(
                "SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ? AND decided_by = ?"
                " AND decision = ?",
                {d.fixId, actor.id,
                 d.path == Path::Approve || d.path == Path::Moved ? QStringLiteral("approve")
                                                                  : QStringLiteral("reject")});
            auto audited = [&](const char *action) {
                return f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = ? AND"
                               " entity_kind = 'fix' AND entity_id = ?",
                               {QString::fromLatin1(action), id});
            };
            const QString message =
                f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id = ? AND"
                        " status = 'skipped'",
                        {fix->targetId}) == 1
                    ? QStringLiteral("skipped")
                    : QStringLiteral("not skipped");
            if (d.path == Path::Moved && d.code == ErrorCode::Stale) {
                if (fix->status != FixStatus::Failed || rows != 1 || mine != 1 ||
                    message != u"not skipped")
                    return QStringLiteral("failed, yet %1 with %2 decisions (%3 as asked), "
                                          "message %4")
                        .arg(fix->status)
                        .arg(rows)
                        .arg(mine)
                        .arg(message);
                if (audited("fix.approved") != 1 || audited("fix.failed") != 1)
                    return QStringLiteral("failed without one fix.approved and one fix.failed row");
                return {};
            }
            if (!d.ok) {
                if (fix->status != FixStatus::Open || rows != 0 || message != u"not skipped")
                    return QStringLiteral("refused, yet %1 with %2 decisions, message %3")
                        .arg(fix->status)
                        .arg(rows)
                        .arg(message);
                if (d.path != Path::Bypass && audited("fix.refused") != 1)
                    return QStringLiteral("refused without one fix.refused row");
                return {};
            }
            const QString want = d.path == Path::Approve ? FixStatus::Applied : FixStatus::Rejected;
            if (fix->status != want || rows != 1 || mine != 1 ||
                message != (d.path == Path::Approve ? u"skipped" : u"not skipped"))
                return QStringLiteral("done, yet %1 with %2 decisions (%3 as asked), message %4")
                    .arg(fix->status)
                    .arg(rows)
                    .arg(mine)
                    .arg(message);
            if (d.path == Path::Approve &&
                (audited("fix.approved") != 1 || audited("fix.applied") != 1))
                return QStringLiteral("applied without one fix.approved and one fix.applied row");
            if (d.path == Path::Reject && audited("fix.rejected") != 1)
                return QStringLiteral("rejected without one fix.rejected row");
            return {};
        };
        QStringList wrong;
        for (const auto &[plan, actor] :
             {std::pair{&fayPlan, fay}, {&bypassPlan, fay}, {&finPlan, fin}})
            for (const Attempt &d : *plan) {
                for (const QString &why : {check(d, actor), stored(d, actor)})
                    if (!why.isEmpty())
                        wrong << actor.id + QStringLiteral(": ") + describe(d) +
                                     QStringLiteral(" — ") + why;
            }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
        // The race met each state it is about: fay's console refused while she was demoted and
        // while she was disabled, and her script's direct write (not her own proposal) refused by
        // the trigger while she was not finance — each with fay's account settled at the time.
        int metDemoted = 0, metDisabled = 0, metByTrigger = 0;
        for (const Attempt &d : fayPlan) {
            const std::optional<FayIs> state = settled(fayChanges, d.start, d.end);
            metDemoted += !d.ok && state == FayIs::Demoted && d.reason == u"role_changed";
            metDisabled += !d.ok && state == FayIs::Disabled && d.reason == u"staff_disabled";
        }
        for (const Attempt &d : bypassPlan) {
            const std::optional<FayIs> state = settled(fayChanges, d.start, d.end);
            metByTrigger += !d.ok && !d.own && state && *state != FayIs::Finance &&
                            d.reason == u"database_rule";
        }
        QVERIFY2(metDemoted > 0, "fay's console never met her demoted (no role_changed refusal)");
        QVERIFY2(metDisabled > 0,
                 "fay's console never met her disabled (no staff_disabled refusal)");
        QVERIFY2(metByTrigger > 0, "fay's script never wrote a decision while she was not finance "
                                   "(no database_rule refusal of another's proposal)");
        for (const Attempt &d : finPlan) // fin was never changed
            QVERIFY2(d.path == Path::Moved ? d.code == ErrorCode::Stale : d.ok,
                     qPrintable(describe(d)));
        // fay was demoted at least once while she was deciding, and disabled in the end.
        QVERIFY(fayChanges.size() >= 3);
        auto fayNow = staff.find(fay.id);
        QVERIFY(fayNow.ok());
        QVERIFY(fayNow->disabled);
        QCOMPARE(f.count("SELECT COUNT(*) FROM staff WHERE disabled = 1"), kDisabled.size() + 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                         " ('staff.role_changed', 'staff.disabled')"),
                 qint64(staffChanges));
        qInfo("%d decisions: %d done, %d recorded as failed (target moved), %d refused, %d while "
              "fay's account was changing; refused while settled: %d role_changed, %d "
              "staff_disabled, %d database_rule (script, not her own); %d staff changes (%lld of "
              "fay, %d demotions), %d staff-list reads, %.1f s",
              kFixes, ok, recordedFailed, refused, raced, metDemoted, metDisabled, metByTrigger,
              staffChanges, qint64(fayChanges.size()), fayDemotions.load(), staffReads,
              clock.nsecsElapsed() / 1e9);
    }
};

QTEST_GUILESS_MAIN(TstFixLocks)
#include "tst_fix_locks.moc"
