#pragma once

// The race of tst_fix_locks_race, phase by phase: the staff and the proposals it starts from
// (addStaff, proposeFixes), the deciders, the administrator and a second console's staff-list
// refresh running at once, each on a connection and thread of its own (run), then what each
// decision answered and left in the database (checkEachDecision), the states the race met
// (checkTheMeetings) and the staff afterwards (checkTheStaffAfterwards); the verdicts on one
// decision are fixlocksverdicts.h's. Each phase asserts with QVERIFY/QCOMPARE, so the test
// function stops at the first that failed (QTest::currentTestFailed()).
// Thread contract: the phases on the test's thread; run() starts and joins its own threads.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "fixlockstestsupport.h"
#include "fixlocksverdicts.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <functional>
#include <optional>

namespace OncePay::Test::FixLocks {

// Staff the administrator changes while the reviewers decide: role changes back and forth,
// and accounts disabled one by one.
inline const QStringList kRoleChanged{QStringLiteral("vic1"), QStringLiteral("vic2"),
                                      QStringLiteral("vic3")};
inline const QStringList kDisabled{QStringLiteral("tmp1"), QStringLiteral("tmp2"),
                                   QStringLiteral("tmp3"), QStringLiteral("tmp4"),
                                   QStringLiteral("tmp5"), QStringLiteral("tmp6")};

class FixLocksRace {
public:
    // fay decides 60 fixes through the service (every sixth her own proposal) and 40 straight in
    // the database (every fifth her own); fin decides 40 through the service.
    // ONCEPAY_TEST_FIX_LOCKS_SCALE=n makes it n times as many, for a longer hunt.
    explicit FixLocksRace(EngineFixture &f)
        : m_f(f)
        , m_scale(std::clamp(qEnvironmentVariableIntValue("ONCEPAY_TEST_FIX_LOCKS_SCALE"), 1, 100))
        , m_fay(60 * m_scale)
        , m_fin(40 * m_scale)
        , m_bypass(40 * m_scale)
        , m_fixes(m_fay + m_fin + m_bypass)
        , m_staff(*f.orders, f.clock)
        , m_fixService(*f.orders, f.clock)
    {}

    // The administrator, the proposer, the two reviewers, and the staff the administrator
    // changes meanwhile.
    void addStaff()
    {
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(m_staff.add({adm.id, adm.id, StaffRole::Admin}, kPassword, system).ok());
        QVERIFY(m_staff.add({amy.id, amy.id, StaffRole::Agent}, kPassword, system).ok());
        QVERIFY(m_staff.add({fay.id, fay.id, StaffRole::Finance}, kPassword, system).ok());
        QVERIFY(m_staff.add({fin.id, fin.id, StaffRole::Finance}, kPassword, system).ok());
        for (const QString &name : kRoleChanged)
            QVERIFY(m_staff.add({name, name, StaffRole::Finance}, kPassword, system).ok());
        for (const QString &name : kDisabled)
            QVERIFY(m_staff.add({name, name, StaffRole::Agent}, kPassword, system).ok());
    }

    // m_fixes dead letters (Stripe successes for orders nobody created, retried an hour apart
    // until given up), one proposal to resolve each, shared out into the three plans.
    void proposeFixes()
    {
        for (int i = 0; i < m_fixes; ++i) {
            const QString n = QString::number(i);
            m_f.deliver(StripeEvents::paymentIntentSucceeded(
                m_f.params("o-ghost-" + n, "a1", 2100, "USD", "evt_lk_" + n, "pi_lk_" + n)));
        }
        for (int i = 0; i < 10; ++i) {
            m_f.drain();
            m_f.clock.advance(3600 * 1000);
        }
        QCOMPARE(m_f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"),
                 m_fixes);
        for (int i = 0; i < m_fixes; ++i) {
            const bool forFay = i < m_fay;
            const bool forBypass = i >= m_fay + m_fin;
            const bool own = forFay ? i % 6 == 5 : forBypass && i % 5 == 4;
            FixProposal p;
            p.kind = FixKind::ResolveMessage;
            p.targetId = QStringLiteral("stripe:evt_lk_%1").arg(i);
            p.reasonCode = QStringLiteral("poison_message");
            p.comment = QStringLiteral("seen in the stuck view");
            p.origin = kOrigin;
            auto fix = m_fixService.propose(p, own ? fay : amy);
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
                QVERIFY(Sql::update(m_f.orders->db(),
                                    "UPDATE callback_messages SET updated_at = updated_at + 1"
                                    " WHERE callback_id = ?",
                                    {p.targetId})
                            .ok());
            (forFay ? m_fayPlan : forBypass ? m_bypassPlan : m_finPlan) << d;
        }
    }

    // fay's console, fay's script and fin decide their plans while the administrator changes
    // staff and a second console refreshes its staff list, each on a connection and thread of
    // its own; every thread must finish, and nothing may fail other than a clean refusal.
    void run()
    {
        m_clock.start();
        auto oneDeciderLess = [this] { --m_decidersLeft; };
        auto thread = [this](const char *purpose, std::function<void(const Connection &)> body,
                             std::function<void()> over = {}) {
            return onItsOwnConnection(QString::fromLatin1(purpose), 5, std::move(body),
                                      std::move(over));
        };
        QList<QThread *> threads{
            thread(
                "fay", [this](const Connection &c) { decide(c, &m_fayPlan, fay); },
                [this, oneDeciderLess] {
                    m_fayConsoleOver = true;
                    oneDeciderLess();
                }),
            thread(
                "fay-script", [this](const Connection &c) { decide(c, &m_bypassPlan, fay); },
                [this, oneDeciderLess] {
                    m_fayScriptOver = true;
                    oneDeciderLess();
                }),
            thread(
                "fin", [this](const Connection &c) { decide(c, &m_finPlan, fin); }, oneDeciderLess),
            thread("adm", [this](const Connection &c) { administer(c); }),
            thread("adm-page", [this](const Connection &c) { refreshStaffList(c); })};
        for (QThread *t : threads)
            t->start();
        bool joined = true;
        for (QThread *t : threads) {
            joined = t->wait(QDeadlineTimer(600000)) && joined;
            if (t->isFinished())
                delete t;
        }
        QVERIFY2(joined, "a thread did not finish in 10 minutes (waiting on a lock?)");
        QVERIFY2(m_failures.isEmpty(), qPrintable(m_failures.join(u'\n')));
    }

    // What each decision answered, against fay's account as the decision must have seen it, and
    // what it left in the database.
    void checkEachDecision()
    {
        QStringList wrong;
        for (const auto &[plan, actor] :
             {std::pair{&m_fayPlan, fay}, {&m_bypassPlan, fay}, {&m_finPlan, fin}})
            for (const Attempt &d : *plan) {
                for (const QString &why : {answerWrong(d, actor, m_fayChanges, &m_tally),
                                           storedWrong(d, actor, m_f, m_fixService)})
                    if (!why.isEmpty())
                        wrong << actor.id + QStringLiteral(": ") + describe(d) +
                                     QStringLiteral(" — ") + why;
            }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    // The race met each state it is about: fay's console refused while she was demoted and
    // while she was disabled, and her script's direct write (not her own proposal) refused by
    // the trigger while she was not finance — each with fay's account settled at the time. fin,
    // never changed, decided every fix (a moved target's as failed).
    void checkTheMeetings()
    {
        for (const Attempt &d : m_fayPlan) {
            const std::optional<FayIs> state = settled(m_fayChanges, d.start, d.end);
            m_metDemoted += !d.ok && state == FayIs::Demoted && d.reason == u"role_changed";
            m_metDisabled += !d.ok && state == FayIs::Disabled && d.reason == u"staff_disabled";
        }
        for (const Attempt &d : m_bypassPlan) {
            const std::optional<FayIs> state = settled(m_fayChanges, d.start, d.end);
            m_metByTrigger += !d.ok && !d.own && state && *state != FayIs::Finance &&
                              d.reason == u"database_rule";
        }
        QVERIFY2(m_metDemoted > 0, "fay's console never met her demoted (no role_changed refusal)");
        QVERIFY2(m_metDisabled > 0,
                 "fay's console never met her disabled (no staff_disabled refusal)");
        QVERIFY2(m_metByTrigger > 0,
                 "fay's script never wrote a decision while she was not finance "
                 "(no database_rule refusal of another's proposal)");
        for (const Attempt &d : m_finPlan) // fin was never changed
            QVERIFY2(d.path == Path::Moved ? d.code == ErrorCode::Stale : d.ok,
                     qPrintable(describe(d)));
    }

    // fay was demoted at least once while she was deciding, and disabled in the end; every
    // staff change the administrator made is audited once.
    void checkTheStaffAfterwards()
    {
        QVERIFY(m_fayChanges.size() >= 3);
        auto fayNow = m_staff.find(fay.id);
        QVERIFY(fayNow.ok());
        QVERIFY(fayNow->disabled);
        QCOMPARE(m_f.count("SELECT COUNT(*) FROM staff WHERE disabled = 1"), kDisabled.size() + 1);
        QCOMPARE(m_f.count("SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                           " ('staff.role_changed', 'staff.disabled')"),
                 qint64(m_staffChanges));
    }

    void report() const
    {
        qInfo("%d decisions: %d done, %d recorded as failed (target moved), %d refused, %d while "
              "fay's account was changing; refused while settled: %d role_changed, %d "
              "staff_disabled, %d database_rule (script, not her own); %d staff changes (%lld of "
              "fay, %d demotions), %d staff-list reads, %.1f s",
              m_fixes, m_tally.ok, m_tally.recordedFailed, m_tally.refused, m_tally.raced,
              m_metDemoted, m_metDisabled, m_metByTrigger, m_staffChanges,
              qint64(m_fayChanges.size()), m_fayDemotions.load(), m_staffReads,
              m_clock.nsecsElapsed() / 1e9);
    }

private:
    // Runs `body` on a thread of its own with a connection of its own, once all `parties`
    // threads have opened theirs (so that none has finished before the last begins); what went
    // wrong opening it goes to m_failures. `over` runs at the end, whatever happened.
    QThread *onItsOwnConnection(const QString &purpose, int parties,
                                std::function<void(const Connection &)> body,
                                std::function<void()> over)
    {
        return QThread::create([=, this] {
            auto c = Connection::open(m_f.config.orders, purpose);
            ++m_ready;
            if (!c) {
                QMutexLocker lock(&m_mutex);
                m_failures << purpose + QStringLiteral(": ") + c.error().message;
            } else {
                QDeadlineTimer deadline(60000);
                while (m_ready.load() < parties && !deadline.hasExpired())
                    QThread::yieldCurrentThread();
                body(*c);
            }
            if (over)
                over();
        });
    }

    // One decider works through its plan. The meetings the race must reach, whatever the
    // scheduling: fay's console waits at each of its first three quarters for one more demotion,
    // and before its last tenth until she is disabled; the script waits halfway for the first
    // demotion (and the administrator waits for them: administer).
    void decide(const Connection &c, QList<Attempt> *plan, const Actor &actor)
    {
        FixService service(c, m_f.clock);
        const bool fayConsole = plan == &m_fayPlan;
        const bool fayScript = plan == &m_bypassPlan;
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
                waitFor([&] { return m_fayDemotions.load() >= wanted; });
            }
            if (fayConsole && i == plan->size() * 9 / 10) {
                m_fayConsoleWaitsForDisable = true;
                waitFor([&] { return m_fayDisabled.load(); });
                m_fayConsoleWaitsForDisable = false;
            }
            if (fayScript && i == plan->size() / 2)
                waitFor([&] { return m_fayDemotions.load() >= 1; });
            const int demotionsBefore = m_fayDemotions.load();
            d.start = m_clock.nsecsElapsed();
            std::optional<Error> why;
            if (d.path == Path::Bypass) {
                if (auto r = bypassReject(c, d.fixId, actor.id); !r)
                    why = r.error();
            } else {
                auto r = d.path != Path::Reject
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
            d.end = m_clock.nsecsElapsed();
            if (fayConsole) {
                ++m_fayDone;
                m_fayConsoleMet = demotionsBefore;
            }
            if (fayScript && !d.own)
                m_fayScriptMet = demotionsBefore;
        }
    }

    // The administrator: role changes of others, disables of others, fay demoted and restored
    // in turn and, once she has made 80% of her service decisions, disabled. After each
    // demotion of fay it waits until each of fay's consoles has made a decision begun after it
    // (the script: one that is not her own proposal), so that she is met demoted.
    void administer(const Connection &c)
    {
        StaffService service(c, m_f.clock);
        QHash<QString, StaffRole> roles;
        for (const QString &name : kRoleChanged)
            roles[name] = StaffRole::Finance;
        FayIs fayIs = FayIs::Finance;
        int disabled = 0;
        auto changed = [&](const QString &what, const Result<StaffAccount> &r) {
            QMutexLocker lock(&m_mutex);
            if (r)
                ++m_staffChanges;
            else
                m_failures << what + QStringLiteral(": ") + r.error().toString();
            return r.ok();
        };
        auto changeFay = [&](FayIs to) {
            FayChange change{m_clock.nsecsElapsed(), 0, to};
            auto r = to == FayIs::Disabled
                         ? service.disable(fay.id, adm, QStringLiteral("left the team"))
                         : service.setRole(fay.id,
                                           to == FayIs::Demoted ? QStringLiteral("auditor")
                                                                : QStringLiteral("finance"),
                                           adm, QStringLiteral("rota"));
            change.end = m_clock.nsecsElapsed();
            if (changed(QStringLiteral("fay"), r)) {
                {
                    QMutexLocker lock(&m_mutex);
                    m_fayChanges << change;
                }
                if (to == FayIs::Disabled)
                    m_fayDisabled = true;
                if (to == FayIs::Demoted) {
                    // Not restored before each of her consoles has met her demoted (or is
                    // over, or waits for the disable).
                    const int k = ++m_fayDemotions;
                    QDeadlineTimer deadline(20000);
                    while (!((m_fayConsoleMet.load() >= k || m_fayConsoleOver.load() ||
                              m_fayConsoleWaitsForDisable.load()) &&
                             (m_fayScriptMet.load() >= k || m_fayScriptOver.load())) &&
                           !deadline.hasExpired())
                        QThread::msleep(1);
                }
            }
            fayIs = to;
        };
        for (int i = 0; m_decidersLeft.load() > 0; ++i) {
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
                QMutexLocker lock(&m_mutex);
                if (list && list->size() == 4 + kRoleChanged.size() + kDisabled.size())
                    ++m_staffReads;
                else
                    m_failures << QStringLiteral("staff list: ") +
                                      (list ? QStringLiteral("%1 rows").arg(list->size())
                                            : list.error().toString());
                break;
            }
            case 2:
                if (fayIs == FayIs::Disabled)
                    break;
                if (m_fayDone.load() >= m_fay * 8 / 10)
                    changeFay(FayIs::Disabled);
                else
                    changeFay(fayIs == FayIs::Finance ? FayIs::Demoted : FayIs::Finance);
                break;
            }
        }
        if (fayIs != FayIs::Disabled)
            changeFay(FayIs::Disabled);
    }

    // The administration page of a second administrator's console, refreshing.
    void refreshStaffList(const Connection &c)
    {
        StaffService service(c, m_f.clock);
        while (m_decidersLeft.load() > 0) {
            auto list = service.list(adm);
            QMutexLocker lock(&m_mutex);
            if (list)
                ++m_staffReads;
            else
                m_failures << QStringLiteral("staff list (second console): ") +
                                  list.error().toString();
        }
    }

    EngineFixture &m_f;
    const int m_scale;
    const int m_fay;
    const int m_fin;
    const int m_bypass;
    const int m_fixes;
    StaffService m_staff;
    FixService m_fixService;
    QList<Attempt> m_fayPlan, m_finPlan, m_bypassPlan;

    QElapsedTimer m_clock;  // monotonic, read from every thread
    QMutex m_mutex;         // guards the lists and counts below
    QStringList m_failures; // anything that is neither a success nor a clean refusal
    QList<FayChange> m_fayChanges;
    int m_staffChanges = 0, m_staffReads = 0;
    std::atomic<int> m_fayDone{0};
    std::atomic<int> m_decidersLeft{3};
    std::atomic<int> m_ready{0};
    std::atomic<int> m_fayDemotions{0};     // committed so far
    std::atomic<int> m_fayConsoleMet{0};    // the last demotion a decision of hers began after
    std::atomic<int> m_fayScriptMet{0};     // the same for the script, not her own proposals
    std::atomic<bool> m_fayDisabled{false}; // committed
    std::atomic<bool> m_fayConsoleWaitsForDisable{false};
    std::atomic<bool> m_fayConsoleOver{false}, m_fayScriptOver{false};

    // What the checks counted (checkEachDecision, checkTheMeetings), for report().
    Tally m_tally;
    int m_metDemoted = 0, m_metDisabled = 0, m_metByTrigger = 0;
};

} // namespace OncePay::Test::FixLocks
