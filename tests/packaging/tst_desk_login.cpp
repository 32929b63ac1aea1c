// The desk console's database login (oncepay_desk, packaging/sql/*-grants.sql) through the
// real services on PostgreSQL and MariaDB, as a console on an agent's or an auditor's
// workstation uses it: staff sign in (a failure counted, the lock set, a good password
// clearing the count), an agent proposes a fix, a dossier-style audit event is recorded —
// and what the login must never reach is refused by the database itself, whatever the
// signed-in person's role: a finance reviewer signed in at a desk console cannot approve (the
// service says so in words, nothing is stored), nor can anyone there add an account. The
// finance console's login (oncepay_console) approves the same fix.

#include "dbrolesetup.h"
#include "enginefixture.h"
#include "testdatabases.h"

#include "audit/auditoutbox.h"
#include "auth/staffservice.h"
#include "db/sql.h"
#include "fixes/fixservice.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const QString kPassword = QStringLiteral("correct horse battery");
const QString kWhere = QStringLiteral("console@desk-test");

} // namespace

class TstDeskLogin : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deskLoginProposesButCannotDecide_data() { addServerEngineRows(); }
    void deskLoginProposesButCannotDecide()
    {
        ONCEPAY_SCRATCH(dbs);
        DbRoleLogins roles;
        setUpDbRoles(*dbs, &roles);
        if (QTest::currentTestFailed())
            return;
        EngineFixture f(*dbs); // as the administrator: accounts and a dead letter to fix
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        const StaffService admin(*f.orders, f.clock);
        QVERIFY(admin
                    .add({QStringLiteral("amy"), QStringLiteral("Amy"), StaffRole::Agent},
                         kPassword, system)
                    .ok());
        QVERIFY(admin
                    .add({QStringLiteral("fay"), QStringLiteral("Fay"), StaffRole::Finance},
                         kPassword, system)
                    .ok());
        f.makeDeadLetter("o-ghost", "evt_desk");

        auto desk =
            Connection::open(roles.profile(*dbs, "desk", DbRole::Orders), QStringLiteral("desk"));
        QVERIFY2(desk.ok(), qPrintable(desk.ok() ? QString() : desk.error().message));
        const StaffService staff(*desk, f.clock);

        // Sign-in bookkeeping: a wrong password is counted, the right one clears the count.
        auto wrong = staff.authenticate(QStringLiteral("amy"), QStringLiteral("nope"), kWhere);
        QVERIFY2(wrong.ok(), qPrintable(wrong.ok() ? QString() : wrong.error().message));
        QVERIFY(!wrong->signedIn());
        QCOMPARE(f.count("SELECT failed_attempts FROM staff WHERE username = 'amy'"), 1);
        auto amy = staff.authenticate(QStringLiteral("amy"), kPassword, kWhere);
        QVERIFY2(amy.ok(), qPrintable(amy.ok() ? QString() : amy.error().message));
        QVERIFY(amy->signedIn());
        QCOMPARE(f.count("SELECT failed_attempts FROM staff WHERE username = 'amy'"), 0);
        // ... and locks: as many failures as the policy allows lock the account.
        for (int i = 0; i < wrong->maxFailedLogins; ++i)
            QVERIFY(staff.authenticate(QStringLiteral("fay"), QStringLiteral("nope"), kWhere).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM staff WHERE username = 'fay' AND locked_until"
                         " IS NOT NULL"),
                 1);
        QVERIFY(Sql::exec(f.orders->db(), QStringLiteral("UPDATE staff SET locked_until = NULL,"
                                                         " failed_attempts = 0 WHERE username ="
                                                         " 'fay'"))
                    .ok()); // the lock waited out
        auto fay = staff.authenticate(QStringLiteral("fay"), kPassword, kWhere);
        QVERIFY(fay.ok() && fay->signedIn());

        // The agent proposes at the desk.
        const FixService deskFixes(*desk, f.clock);
        FixProposal p;
        p.kind = FixKind::ResolveMessage;
        p.targetId = QStringLiteral("stripe:evt_desk");
        p.reasonCode = QStringLiteral("poison_message");
        p.comment = QStringLiteral("seen in the stuck view");
        p.origin = kWhere;
        auto fix = deskFixes.propose(p, amy->account.actor());
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));

        // Finance signed in at a desk console: the database refuses the decision, the service
        // says why in words, and nothing is stored.
        auto approved = deskFixes.approve(fix->id, fix->changeSha256, QStringLiteral("ok"), kWhere,
                                          fay->account.actor());
        QVERIFY(!approved.ok());
        QCOMPARE(approved.error().code, ErrorCode::Forbidden);
        QCOMPARE(approved.error().reason, QStringLiteral("permission_denied"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open'"), 1);
        // Nor can an account be added there, whoever asks.
        auto added = staff.add({QStringLiteral("mal"), QStringLiteral("Mal"), StaffRole::Admin},
                               kPassword, system);
        QVERIFY(!added.ok());
        QCOMPARE(added.error().reason, QStringLiteral("permission_denied"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM staff WHERE username = 'mal'"), 0);

        // The finance console's login decides the same fix.
        auto console = Connection::open(roles.profile(*dbs, "console", DbRole::Orders),
                                        QStringLiteral("console"));
        QVERIFY(console.ok());
        auto decided = FixService(*console, f.clock)
                           .approve(fix->id, fix->changeSha256, QStringLiteral("ok"), kWhere,
                                    fay->account.actor());
        QVERIFY2(decided.ok(), qPrintable(decided.ok() ? QString() : decided.error().message));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions"), 1);
    }
};

QTEST_GUILESS_MAIN(TstDeskLogin)
#include "tst_desk_login.moc"
