// Ctrl-C handling for long commands: the first SIGINT/SIGTERM sets a flag that work
// loops poll (they stop cleanly, leave nothing half-written, and report); a second
// one exits at once.
#pragma once

namespace trainbench {

void InstallInterruptHandler();
bool InterruptRequested();
// Tests and the run loop can request a stop without a signal.
void RequestInterrupt();

}  // namespace trainbench
