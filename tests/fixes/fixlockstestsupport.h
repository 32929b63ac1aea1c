#pragma once

// What the fix-lock tests share (tst_fix_locks: a decision queued behind a change of its
// reviewer, one step at a time; tst_fix_locks_race: decisions racing staff changes): the staff
// they act as and a rejection written straight into the database, as a script bypassing the
// service would write it.

#include "core/actor.h"
#include "core/result.h"
#include "db/connection.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QString>

namespace OncePay::Test::FixLocks {

inline const QString kOrigin = QStringLiteral("locks@test");
inline const QString kPassword = QStringLiteral("correct horse battery");

inline const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
inline const Actor fay{QStringLiteral("fay"), QStringLiteral("finance")}; // demoted, disabled
inline const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")}; // never changed
inline const Actor adm{QStringLiteral("adm"), QStringLiteral("admin")};

// A rejection written straight into the database, as a script bypassing the service would: only
// the triggers guard it. The decision and the status in one transaction.
inline Result<bool> bypassReject(const Connection &c, qint64 fixId, const QString &by)
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

} // namespace OncePay::Test::FixLocks
