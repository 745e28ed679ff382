#include "stage/stage_progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "common/clock.h"
#include "common/units.h"

namespace trainbench::stage {

StageProgress::StageProgress(bool enabled, uint64_t total_bytes, StageLive* live)
    : display_(STDERR_FILENO, LiveDisplay::ModeFor(STDERR_FILENO, enabled), 5.0, 0.5),
      live_(live),
      total_bytes_(total_bytes),
      start_(NowSeconds()) {
  // A stage may fetch more than once (a repair after a bad checksum): the live figures
  // keep counting from where the last fetch left them.
  if (live_) {
    base_bytes_ = live_->bytes.load(std::memory_order_relaxed);
    base_retries_ = live_->retries.load(std::memory_order_relaxed);
    live_->fetching.store(true, std::memory_order_relaxed);
  }
}

StageProgress::~StageProgress() { Finish(); }

void StageProgress::Update(uint64_t bytes, uint64_t retries, unsigned active) {
  if (live_) {
    live_->bytes.store(base_bytes_ + bytes, std::memory_order_relaxed);
    live_->retries.store(base_retries_ + retries, std::memory_order_relaxed);
    live_->NoteActive(active);
  }
  if (display_.mode() == LiveDisplay::Mode::kOff) return;
  const double now = NowSeconds();
  const double elapsed = std::max(1e-3, now - start_);
  const double rate = static_cast<double>(bytes) / elapsed;
  const double left = total_bytes_ > bytes ? static_cast<double>(total_bytes_ - bytes) : 0;
  const std::string eta = rate > 0 ? FormatDuration(left / rate) : "?";
  const std::string line =
      fmt::format("stage: {} of {} ({:.1f} MB/s), ETA {}, {} failed attempts, {} streams busy",
                  FormatBytes(static_cast<double>(bytes)),
                  FormatBytes(static_cast<double>(total_bytes_)), rate / kMB, eta, retries, active);
  display_.Show(line + "\n", line + "\n");
}

void StageProgress::Finish() {
  if (live_) {
    live_->active.store(0, std::memory_order_relaxed);
    live_->fetching.store(false, std::memory_order_relaxed);
  }
  display_.End();  // the last line stays above the table
}

}  // namespace trainbench::stage
