#include "dataset/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "common/clock.h"
#include "common/units.h"

namespace trainbench::dataset {

Progress::Progress(std::string what, uint64_t total_files, uint64_t total_bytes,
                   std::function<uint64_t()> live_bytes, std::chrono::milliseconds period)
    : what_(std::move(what)),
      total_files_(total_files),
      total_bytes_(total_bytes),
      live_bytes_(std::move(live_bytes)),
      period_(period),
      start_(NowSeconds()),
      // A log's line every period (10 s by default); a terminal's redrawn every 0.5 s.
      display_(STDERR_FILENO, LiveDisplay::ModeFor(STDERR_FILENO, true),
               period.count() > 0 ? static_cast<double>(period.count()) / 1e3 : 10.0) {
  thread_ = std::thread([this] { Loop(); });
}

Progress::~Progress() { Stop(); }

void Progress::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  wake_.notify_all();
  thread_.join();
  display_.Clear();
}

void Progress::Loop() {
  // A terminal gets a live line twice a second; a log a line every period (10 s by default).
  const bool terminal = display_.mode() == LiveDisplay::Mode::kBlock;
  // Wakes at least twice a second; the display spaces a log's lines by the period.
  const auto period = std::chrono::milliseconds(
      period_.count() > 0 ? std::min<int64_t>(period_.count(), 500) : 500);
  std::unique_lock<std::mutex> lock(mutex_);
  if (terminal) Print();  // show the job has started, however short it is
  while (!wake_.wait_for(lock, period, [this] { return stopped_; })) Print();
}

void Progress::Print() {
  const double elapsed = NowSeconds() - start_;
  const double bytes =
      static_cast<double>(std::max(bytes_.load(), live_bytes_ ? live_bytes_() : uint64_t{0}));
  const double rate = elapsed > 0 ? bytes / elapsed : 0;
  const double eta =
      rate > 0 && total_bytes_ > bytes ? (static_cast<double>(total_bytes_) - bytes) / rate : 0;
  const std::string line =
      fmt::format("{}: {}/{} files, {} of ~{}, {:.2f} GB/s, ETA {}", what_, files_.load(),
                  total_files_, FormatBytes(bytes), FormatBytes(static_cast<double>(total_bytes_)),
                  rate / 1e9, FormatDuration(eta));
  display_.Show(line + "\n", "trainbench: " + line + "\n");
}

}  // namespace trainbench::dataset
