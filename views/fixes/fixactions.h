#pragma once

// "Propose a fix" from where the problem is seen: which kinds fit the selected rows (as the
// service's rule answers them, services/fixes/fixrules.h), the dialog, and sending the
// proposals off the GUI thread through FixService, one per target, with a summary of what was
// proposed and what was refused (and why).
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
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
    // processing message takes a fix only once its lease has run out.
    std::optional<qint64> leaseUntilMs = {};
};

// The kinds to offer for the rows at `nowMs`, as the service's rule answers them
// (fixKindsOffered, services/fixes/fixrules.h: the rule FixService::propose enforces). Asks
// no database.
QStringList fixKindsFor(const QList<FixTargetRow> &rows, qint64 nowMs);

// Where proposals come from, for the audit trail's "from where".
QString consoleOrigin();

// Opens the dialog and, if accepted, proposes in the background; `done(proposed)` runs on the
// GUI thread afterwards. Does nothing (and says why) for a role that may not propose.
void proposeFixes(QWidget *parent, const ConnectionProfile &orders, const Actor &actor,
                  const QList<FixTargetRow> &rows, std::function<void(int proposed)> done = {});

} // namespace OncePay
