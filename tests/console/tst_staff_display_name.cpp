// A staff account's display name (QA finding B4): `oncepay staff add qa1 --name` with 5000
// characters was added, and a name may carry line breaks. StaffService::add — the one path
// that sets a display name (the CLI and the administration page's Add account… call it) —
// trims it, uses the user name for an empty one, and refuses one longer than
// kMaxDisplayNameLength characters or with a control character: Invalid, a clear message, a
// staff.refused audit row (with the length, not the name), nothing else changed. On every
// engine (MariaDB's column holds 191 characters, so the limit is what every engine stores).

#include "auth/staffservice.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const QString kPassword = QStringLiteral("correct horse battery");

} // namespace

class TstStaffDisplayName : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The rule on plain values: length in characters (not UTF-16 units), control characters.
    void displayNameRule()
    {
        const auto reason = [](const QString &name) {
            auto r = StaffService::checkDisplayName(name);
            return r ? QString() : r.error().reason;
        };
        const int max = StaffService::kMaxDisplayNameLength;
        QCOMPARE(max, 191);
        QCOMPARE(reason(QString()), QString());
        QCOMPARE(reason(QStringLiteral("张三 <script>")), QString());
        QCOMPARE(reason(QString(max, QChar(0x540D))), QString()); // 名 × 191
        QCOMPARE(reason(QString(max + 1, QChar(0x540D))), QStringLiteral("display_name_too_long"));
        QCOMPARE(reason(QString(5000, QChar(0x540D))), QStringLiteral("display_name_too_long"));
        // 191 characters outside the BMP are 382 UTF-16 units and still fit.
        QString emoji;
        for (int i = 0; i < max; ++i)
            emoji += QStringLiteral("😀");
        QCOMPARE(emoji.size(), 2 * max);
        QCOMPARE(reason(emoji), QString());
        for (const QString &bad : QStringList{
                 QStringLiteral("Ann\nLee"), QStringLiteral("Ann\tLee"), QStringLiteral("Ann\rLee"),
                 QStringLiteral("Ann") + QChar(0x1b) + QStringLiteral("[31mLee"),
                 QStringLiteral("Ann") + QChar(0x7f), QStringLiteral("Ann") + QChar(0x85),
                 QStringLiteral("Ann") + QChar(0x2028) + QStringLiteral("Lee"),
                 QStringLiteral("Ann") + QChar(0) + QStringLiteral("Lee")})
            QCOMPARE(reason(bad), QStringLiteral("display_name_control"));
        QCOMPARE(StaffService::checkDisplayName(QStringLiteral("a\nb")).error().code,
                 ErrorCode::Invalid);
        QVERIFY(StaffService::checkDisplayName(QString(max + 1, u'x'))
                    .error()
                    .message.contains(QStringLiteral("at most 191 characters")));
    }

    // add() on every engine: trimmed, the user name for an empty one, the longest name stored
    // whole; too long or with a control character refused, audited, nothing changed.
    void addChecksTheDisplayName_data() { addEngineRows(); }
    void addChecksTheDisplayName()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        const Actor cli = Actor::system(QStringLiteral("cli:test"));

        auto ann =
            staff.add({QStringLiteral("ann"), QStringLiteral("  Ann Lee \n"), StaffRole::Agent},
                      kPassword, kAdmin);
        QVERIFY2(ann.ok(), ann ? "" : qPrintable(ann.error().message));
        QCOMPARE(ann->displayName, QStringLiteral("Ann Lee"));
        auto blank = staff.add({QStringLiteral("bo"), QStringLiteral(" \t "), StaffRole::Agent},
                               kPassword, kAdmin);
        QVERIFY(blank.ok());
        QCOMPARE(blank->displayName, QStringLiteral("bo"));
        const QString longest(StaffService::kMaxDisplayNameLength, QChar(0x540D));
        QVERIFY(
            staff.add({QStringLiteral("long"), longest, StaffRole::Agent}, kPassword, kAdmin).ok());
        QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT display_name FROM staff WHERE"
                                                     " username = 'long'"))
                     ->toString(),
                 longest);

        const QString before = staffRows(*c);
        const qint64 outboxBefore = count(*c, "SELECT COUNT(*) FROM audit_outbox");
        struct Case {
            const char *user;
            QString name;
            const char *reason;
            Actor by;
        };
        const QList<Case> cases{
            {"qa1", QString(5000, QChar(0x540D)), "display_name_too_long", cli},
            {"qa2", QString(StaffService::kMaxDisplayNameLength + 1, u'x'), "display_name_too_long",
             kAdmin},
            {"qa3", QStringLiteral("Zed\nQuux"), "display_name_control", kAdmin},
            {"qa4", QStringLiteral("Zed\tQuux"), "display_name_control", cli},
            {"qa5", QStringLiteral("Quux") + QChar(0x1b) + QStringLiteral("[2J"),
             "display_name_control", kAdmin},
        };
        for (const Case &k : cases) {
            auto r =
                staff.add({QString::fromLatin1(k.user), k.name, StaffRole::Agent}, kPassword, k.by);
            QVERIFY2(!r.ok(), k.user);
            QCOMPARE(r.error().code, ErrorCode::Invalid);
            QCOMPARE(r.error().reason, QString::fromLatin1(k.reason));
            QVERIFY(r.error().message.startsWith(QStringLiteral("a display name ")));
        }
        QCOMPARE(staffRows(*c), before);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE username LIKE 'qa%'"), 0);
        // One staff.refused row each, naming the account asked for, who asked and why; the
        // length but never the name (personal data).
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox"), outboxBefore + cases.size());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"add\"%'"),
                 cases.size());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'qa1' AND actor = 'cli:test'"
                           " AND after_json LIKE '%\"reason\":\"display_name_too_long\"%'"
                           " AND after_json LIKE '%\"display_name_length\":5000%'"
                           " AND reason LIKE 'a display name is at most 191 characters%'"),
                 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'qa3' AND actor = 'root-admin'"
                           " AND after_json LIKE '%\"reason\":\"display_name_control\"%'"),
                 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE after_json LIKE '%Quux%'"
                           " OR before_json LIKE '%Quux%' OR reason LIKE '%Quux%'"),
                 0);
    }
};

QTEST_MAIN(TstStaffDisplayName)
#include "tst_staff_display_name.moc"
