#include "common/interrupt.h"

#include <unistd.h>

#include <atomic>
#include <csignal>

namespace trainbench {
namespace {
std::atomic<int> signal_count{0};
thread_local const std::atomic<bool>* thread_stop = nullptr;
thread_local const std::string* thread_stop_reason = nullptr;

// Only a second SIGINT (Ctrl-C pressed again) exits at once. SIGTERM comes from batch
// systems, which may send it more than once: Slurm signals each task of a job at its time
// limit twice within milliseconds, and exiting on the second left no results; SIGKILL
// follows after their grace period (KillWait) anyway.
extern "C" void OnSignal(int signal) {
  if (signal_count.fetch_add(1) >= 1 && signal == SIGINT) {
    static const char kMessage[] = "trainbench: second interrupt, exiting now\n";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    ::_exit(130);
  }
}
}  // namespace

void InstallInterruptHandler() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool InterruptRequested() {
  return signal_count.load(std::memory_order_relaxed) > 0 ||
         (thread_stop && thread_stop->load(std::memory_order_relaxed));
}

void RequestInterrupt() { signal_count.fetch_add(1); }

bool ThreadStopRequested() {
  return signal_count.load(std::memory_order_relaxed) == 0 && thread_stop &&
         thread_stop->load(std::memory_order_acquire);
}

std::string InterruptReason() {
  return ThreadStopRequested() ? *thread_stop_reason : std::string("interrupted");
}

ThreadStop::ThreadStop(const std::atomic<bool>& flag, const std::string& reason) {
  thread_stop = &flag;
  thread_stop_reason = &reason;
}

ThreadStop::~ThreadStop() {
  thread_stop = nullptr;
  thread_stop_reason = nullptr;
}

}  // namespace trainbench
