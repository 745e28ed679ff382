// Ctrl-C handling for long commands: the first SIGINT/SIGTERM sets a flag that work
// loops poll (they stop cleanly, leave nothing half-written, and report); a second
// SIGINT exits at once (more SIGTERMs do not: schedulers repeat it, then SIGKILL).
#pragma once

namespace trainbench {

void InstallInterruptHandler();
bool InterruptRequested();
// Tests and the run loop can request a stop without a signal.
void RequestInterrupt();

}  // namespace trainbench
