// The stage's progress on stderr through the one LiveDisplay: one redrawn line on a
// terminal (bytes, rate, ETA, retries, streams busy), a plain line every 5 s otherwise
// (logs, pipes); nothing with enabled=false (--no-progress). Called from the stage's loop
// thread; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>

#include "common/live_display.h"
#include "stage/stage_live.h"

namespace trainbench::stage {

class StageProgress {
 public:
  // `total_bytes`: still to fetch this run, for the ETA. Every update is also stored in
  // `live` (when set), printed or not.
  StageProgress(bool enabled, uint64_t total_bytes, StageLive* live = nullptr);
  ~StageProgress();
  void Update(uint64_t bytes, uint64_t retries, unsigned active);
  // Update as the range fetcher's progress hook (FetchHooks::progress); lives as long as this.
  std::function<void(uint64_t, uint64_t, unsigned)> Hook() {
    return [this](uint64_t bytes, uint64_t retries, unsigned active) {
      Update(bytes, retries, active);
    };
  }
  // Ends the redrawn line (the table follows on stdout).
  void Finish();

 private:
  LiveDisplay display_;
  StageLive* live_;
  uint64_t total_bytes_;
  uint64_t base_bytes_ = 0, base_retries_ = 0;
  double start_;
};

}  // namespace trainbench::stage
