#pragma once

// "Propose a fix" from where the problem is seen: which kinds fit the selected rows (as the
// service's rule answers them, services/fixes/fixrules.h), the dialog, and sending the
// proposals off the GUI thread through FixService, one per target, with a summary of what was
// proposed and what was refused (and why).
// Thread contract: GUI thread only, except readFixRuleSetting (a pool thread's connection).

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "core/result.h"
#include "db/connection.h"
#include "fixes/fixrules.h"
#include "fixes/fixtypes.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QWidget;

namespace OncePay {

struct FixTargetRow {
    QString kindOfTarget; // "message", "order", "discrepancy", "period"
    QString targetId;
    QString status; // message status, order state or discrepancy status/kind
    QString discrepancyKind;
    QString currency;
    // A message's lease end (epoch ms) as the page's background query read it, if any: a
    // processing message takes a fix only once its lease is past its end by the clock-skew
    // allowance.
    std::optional<qint64> leaseUntilMs = {};
};

// The fix rule's setting as a page's background read found it (FixSettings::leaseSkewMs):
// a value that is no valid number is no failed read — the rule then counts no lease as
// expired, and `problem` holds the service's sentence for the page to show.
struct FixRuleSetting {
    std::optional<qint64> leaseSkewMs;
    QString problem;
};
// On the connection's thread (a pool thread); fails only when the database does.
Result<FixRuleSetting> readFixRuleSetting(const Connection &connection);

// The rows as the rule's targets, for fixOffers / fixKindsOffered / fixOfferChangesAt
// (services/fixes/fixrules.h, the rule FixService enforces). Asks no database.
QList<FixTargetState> fixTargetStates(const QList<FixTargetRow> &rows);

// The sentence after proposing (FixService::proposeEach's outcome): how many were proposed,
// the refusals ("target: why", in the interface language) and, when the database went away
// part-way (`stoppedBy`), that the rest were not sent and why (errorText), or, when the person
// stopped the batch, that the rest were not sent. Asks no database.
QString proposeSummary(const ProposeOutcome &outcome);

// Where proposals come from, for the audit trail's "from where".
QString consoleOrigin();

// Reads the fix rule's setting (and, for discrepancies, their two currencies where their amounts
// are in two: ReconciliationDesk) off the GUI thread, then opens the dialog with the kinds the
// rule offers now (fixOffers, covering the rows as `cover` says) and, if accepted, proposes in the
// background (FixService::proposeEach; a batch that takes a while shows its progress and may be
// stopped); `done(proposed)` runs on the GUI thread afterwards. Does nothing (and says why) for a
// role that may not propose. `stillCurrent` is asked when the setting has been read, before
// anything is shown: false (the page has moved on to other rows) and nothing is shown or
// proposed, only logged.
void proposeFixes(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                  const QList<FixTargetRow> &rows, std::function<void(int proposed)> done = {},
                  FixCover cover = FixCover::EveryTarget, std::function<bool()> stillCurrent = {});

} // namespace OncePay
