// Redraws a live display's status from a thread of its own, every `every_s` until destroyed,
// so a job's own thread does its work undisturbed (a LibTorch training step, a replay's
// reads): the status function runs on the ticker's thread and must only read what the work
// publishes for it (atomics, counters under their own lock).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "common/live_display.h"

namespace trainbench {

class StatusTicker {
 public:
  // `status` returns the block to show (lines ending in '\n'); a log gets it as its line.
  StatusTicker(LiveDisplay& display, std::function<std::string()> status, double every_s);
  // Stops (at once, not a period later) and joins.
  ~StatusTicker();
  StatusTicker(const StatusTicker&) = delete;
  StatusTicker& operator=(const StatusTicker&) = delete;

 private:
  LiveDisplay& display_;
  std::function<std::string()> status_;
  double every_s_;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace trainbench
