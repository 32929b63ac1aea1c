#pragma once

// Environment-controlled crash points for fault-injection tests (compiled in when
// ONCEPAY_FAULT_POINTS is defined; a no-op otherwise). With ONCEPAY_FAULT=<name>, reaching
// FaultPoint::hit("<name>") kills the process with SIGKILL — no destructors, no rollback,
// no flush — exactly like a machine losing power at that line.
// ONCEPAY_FAULT_AFTER=N lets the first N hits pass.
// Thread contract: safe from any thread.

namespace OncePay::FaultPoint {

void hit(const char *name);

} // namespace OncePay::FaultPoint
