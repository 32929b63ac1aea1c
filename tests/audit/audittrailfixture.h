#pragma once

// The audit trail the read-side tests (tst_audit_trail, tst_audit_export) work on: 30 events
// shipped into the chain, the staff they act as, and a file reader.
// Thread contract: the test's thread.

#include "audit/auditoutbox.h"
#include "audit/auditshipper.h"
#include "audittestutil.h"
#include "core/actor.h"
#include "core/clock.h"
#include "db/connection.h"
#include "db/transaction.h"

#include <QFile>
#include <QtGlobal>

namespace OncePay::Test {

inline constexpr qint64 kStart = 1'700'000'000'000;
inline const Actor kAuditor{QStringLiteral("alice"), QStringLiteral("auditor")};
inline const Actor kFinance{QStringLiteral("fin"), QStringLiteral("finance")};
inline const Actor kAgent{QStringLiteral("bob"), QStringLiteral("agent")};
inline const Actor kAdmin{QStringLiteral("root"), QStringLiteral("admin")};

inline void record(const Connection &orders, ManualClock &clock, AuditEvent e)
{
    clock.advance(1000);
    auto r = inTransaction(orders.db(), Transaction::Mode::Deferred,
                           [&] { return AuditOutbox::record(orders.db(), e, clock); });
    if (!r)
        qFatal("outbox: %s", qPrintable(r.error().message));
}

// 30 rows: three actors, order.* and ledger.* actions, orders o-0..o-4, callbacks on every
// third row, one second apart; row 7 carries formula-like text and a negative amount.
inline void seed(const Connection &orders, const Connection &audit, ManualClock &clock)
{
    for (int i = 1; i <= 30; ++i) {
        AuditEvent e;
        e.actor = QStringList{QStringLiteral("worker:1"), QStringLiteral("fin"),
                              QStringLiteral("gateway")}[i % 3];
        e.actorRole = i % 3 == 1 ? QStringLiteral("finance") : QStringLiteral("system");
        e.action = i % 2 ? QStringLiteral("order.transition") : QStringLiteral("ledger.credit");
        e.entityKind = QStringLiteral("order");
        e.entityId = e.orderId = QStringLiteral("o-%1").arg(i % 5);
        if (i % 3 == 0)
            e.callbackId = QStringLiteral("cb-%1").arg(i);
        e.after = {{QStringLiteral("amount_minor"), QString::number(i * 100 + 5)},
                   {QStringLiteral("currency"), QStringLiteral("EUR")}};
        if (i == 7) {
            e.after = {{QStringLiteral("adjustment_minor"), QStringLiteral("-9007199254740993")},
                       {QStringLiteral("currency"), QStringLiteral("JPY")}};
            e.reason = QStringLiteral("=HYPERLINK(\"http://evil\",\"x\")");
            e.entityId = QStringLiteral("@SUM(A1:A9)");
        }
        record(orders, clock, e);
    }
    auto shipped = AuditShipper(orders, audit, clock).shipAll();
    if (!shipped || shipped->shipped != 30)
        qFatal("ship failed");
    addAuditStaff(orders);
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace OncePay::Test
