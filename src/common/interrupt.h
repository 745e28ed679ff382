// Ctrl-C handling for long commands: the first SIGINT/SIGTERM sets a flag that work
// loops poll (they stop cleanly, leave nothing half-written, and report); a second
// SIGINT exits at once (more SIGTERMs do not: schedulers repeat it, then SIGKILL).
//
// A thread may also be asked to stop by its owner (ThreadStop): a job of a mix that runs
// until the mix's other jobs end. Its loops poll the same InterruptRequested(), so every
// place that stops cleanly on Ctrl-C stops cleanly for it too, and say InterruptReason().
#pragma once

#include <atomic>
#include <string>

namespace trainbench {

void InstallInterruptHandler();
// Ctrl-C, or this thread's owner asked it to stop.
bool InterruptRequested();
// Tests and the run loop can request a stop without a signal.
void RequestInterrupt();

// Why InterruptRequested() is true: "interrupted" for a signal (or RequestInterrupt), else the
// reason this thread's ThreadStop gave.
std::string InterruptReason();
// This thread was stopped by its owner (and not by a signal): the work ended as it was asked
// to, not interrupted.
bool ThreadStopRequested();

// While it lives, InterruptRequested() on this thread is also true once `flag` is set, and
// InterruptReason() is `reason` then: the owner writes the reason, then sets the flag
// (release). One per thread at a time; `flag` and `reason` outlive it.
class ThreadStop {
 public:
  ThreadStop(const std::atomic<bool>& flag, const std::string& reason);
  ~ThreadStop();
  ThreadStop(const ThreadStop&) = delete;
  ThreadStop& operator=(const ThreadStop&) = delete;
};

}  // namespace trainbench
