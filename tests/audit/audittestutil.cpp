#include "audittestutil.h"

#include "audit/auditoutbox.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QJsonObject>

namespace OncePay::Test {

Connection openOrDie(const ConnectionProfile &profile)
{
    auto c = openMigrated(profile, QStringLiteral("test"));
    if (!c)
        qFatal("cannot open %s: %s", qPrintable(profile.describe()), qPrintable(c.error().message));
    return std::move(c).value();
}

QStringList seedOutbox(const Connection &orders, int n, const Clock &clock,
                       const QString &callbackPrefix)
{
    QStringList ids;
    for (int i = 1; i <= n; ++i) {
        AuditEvent e;
        e.actor = QStringLiteral("worker:%1").arg(i % 3);
        e.actorRole = QStringLiteral("system");
        e.action = i % 2 ? QStringLiteral("order.transition") : QStringLiteral("ledger.credit");
        e.entityKind = QStringLiteral("order");
        e.entityId = QStringLiteral("o-%1").arg(i);
        e.orderId = e.entityId;
        if (!callbackPrefix.isEmpty())
            e.callbackId = callbackPrefix + QString::number(i);
        e.before = QJsonObject{{QStringLiteral("state"), QStringLiteral("paying")},
                               {QStringLiteral("version"), i}};
        e.after = QJsonObject{{QStringLiteral("state"), QStringLiteral("paid")},
                              {QStringLiteral("version"), i + 1},
                              {QStringLiteral("note"), QStringLiteral("代购 %1").arg(i)}};
        if (i % 4 == 0)
            e.reason = QStringLiteral("confirmed");
        Transaction tx(orders.db());
        if (!tx.begin())
            qFatal("begin failed");
        auto id = AuditOutbox::record(orders.db(), e, clock);
        if (!id)
            qFatal("outbox: %s", qPrintable(id.error().message));
        if (!tx.commit())
            qFatal("commit failed");
        ids << *id;
    }
    return ids;
}

qint64 scalarInt(const Connection &c, const QString &sql)
{
    auto v = Sql::scalar(c.db(), sql);
    if (!v)
        qFatal("%s: %s", qPrintable(sql), qPrintable(v.error().message));
    return v->toLongLong();
}

void addAuditStaff(const Connection &orders, const QList<QPair<QString, QString>> &extra)
{
    QList<QPair<QString, QString>> staff{{QStringLiteral("alice"), QStringLiteral("auditor")},
                                         {QStringLiteral("fin"), QStringLiteral("finance")},
                                         {QStringLiteral("bob"), QStringLiteral("agent")},
                                         {QStringLiteral("root"), QStringLiteral("admin")}};
    staff += extra;
    for (const auto &[name, role] : std::as_const(staff)) {
        auto there =
            Sql::scalar(orders.db(), "SELECT COUNT(*) FROM staff WHERE username = ?", {name});
        if (!there)
            qFatal("staff: %s", qPrintable(there.error().message));
        if (there->toLongLong() > 0)
            continue;
        auto r = Sql::exec(orders.db(),
                           "INSERT INTO staff (username, display_name, role, password_hash,"
                           " disabled, failed_attempts, created_at, updated_at) VALUES"
                           " (?, '', ?, 'x', 0, 0, 0, 0)",
                           {name, role});
        if (!r)
            qFatal("staff %s: %s", qPrintable(name), qPrintable(r.error().message));
    }
}

namespace {

QStringList dropTriggers(Dialect d)
{
    if (d == Dialect::Postgres)
        return {QStringLiteral("ALTER TABLE audit_log DISABLE TRIGGER USER")};
    return {QStringLiteral("DROP TRIGGER audit_log_no_update"),
            QStringLiteral("DROP TRIGGER audit_log_no_delete")};
}

QStringList createTriggers(Dialect d)
{
    switch (d) {
    case Dialect::Postgres: return {QStringLiteral("ALTER TABLE audit_log ENABLE TRIGGER USER")};
    case Dialect::MySql:
        return {QStringLiteral("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR"
                               " EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT ="
                               " 'audit_log is append-only: UPDATE refused'"),
                QStringLiteral("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR"
                               " EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT ="
                               " 'audit_log is append-only: DELETE refused'")};
    case Dialect::Sqlite:
        return {QStringLiteral("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN"
                               " SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused');"
                               " END"),
                QStringLiteral("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN"
                               " SELECT RAISE(ABORT, 'audit_log is append-only: DELETE refused');"
                               " END")};
    }
    return {};
}

} // namespace

Result<void> tamper(const Connection &audit, const QStringList &statements)
{
    for (const QStringList &group :
         {dropTriggers(audit.dialect()), statements, createTriggers(audit.dialect())}) {
        for (const QString &sql : group) {
            if (auto r = Sql::exec(audit.db(), sql); !r)
                return r.error();
        }
    }
    return {};
}

Result<void> cutChainAfter(const Connection &audit, qint64 keepSeq)
{
    QStringList sql;
    if (audit.dialect() == Dialect::Postgres)
        sql << QStringLiteral("ALTER TABLE audit_checkpoints DISABLE TRIGGER USER");
    else
        sql << QStringLiteral("DROP TRIGGER audit_checkpoints_no_delete");
    sql << QStringLiteral("DELETE FROM audit_checkpoints WHERE seq > %1").arg(keepSeq)
        << QStringLiteral("DELETE FROM audit_log WHERE seq > %1").arg(keepSeq);
    return tamper(audit, sql);
}

Result<void> swapRows(const Connection &audit, qint64 a, qint64 b)
{
    return tamper(audit,
                  {QStringLiteral("UPDATE audit_log SET seq = -1 WHERE seq = %1").arg(a),
                   QStringLiteral("UPDATE audit_log SET seq = %1 WHERE seq = %2").arg(a).arg(b),
                   QStringLiteral("UPDATE audit_log SET seq = %1 WHERE seq = -1").arg(b)});
}

} // namespace OncePay::Test
