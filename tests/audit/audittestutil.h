#pragma once

// Helpers shared by the audit tests: migrated connections, seeded outbox events, and
// tampering with the append-only tables the way an attacker with DDL rights could.
// Thread contract: the test's thread.

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QStringList>

namespace OncePay::Test {

Connection openOrDie(const ConnectionProfile &profile);

// Records `n` varied events (some with order/callback ids, JSON, empty and NULL reasons)
// into the outbox, each in its own transaction. Returns their event ids in order.
QStringList seedOutbox(const Connection &orders, int n, const Clock &clock,
                       const QString &callbackPrefix = {});

qint64 scalarInt(const Connection &c, const QString &sql);

// The staff accounts the audit tests act as, in the orders database (the trail reads rights
// from the account as it is now): alice (auditor), fin (finance), bob (agent), root (admin),
// and `extra` (username, role) pairs. Accounts already there are left alone.
void addAuditStaff(const Connection &orders, const QList<QPair<QString, QString>> &extra = {});

// Drops (or disables) the append-only triggers of audit_log, runs `statements`, and puts
// the triggers back.
Result<void> tamper(const Connection &audit, const QStringList &statements);

// Cuts the chain after `keepSeq` the way the review's truncate.sh did (an attacker with DDL
// rights on the audit database only): the rows after it and the checkpoints that sealed them
// deleted, the append-only triggers of both tables out of the way.
Result<void> cutChainAfter(const Connection &audit, qint64 keepSeq);

// Swaps the rows at two seqs (their whole content moves with them).
Result<void> swapRows(const Connection &audit, qint64 a, qint64 b);

} // namespace OncePay::Test
