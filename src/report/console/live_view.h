// What `run` shows while it works (through the one LiveDisplay). On a terminal, a block of a
// few lines redrawn in place
// (phase, epoch and step, samples/s, MB/s, AU so far against the target, read latency p99,
// data wait, reads in flight, CPU, memory, elapsed and ETA); event lines (epoch ends,
// checkpoints) print above it. Elsewhere (a log file, a pipe, CI), one plain line every
// `line_every_s`. It is fed by the step loop's progress (about once a second) and by the time
// series' rows (each interval); either alone is enough.
// Thread safety: every method may be called from any thread (a mutex; progress comes from
// the event loop, rows from the sampler's thread).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "common/live_display.h"
#include "metrics/timeseries.h"

namespace trainbench::report {

struct LiveStatus {  // the step loop's view of the phase it runs
  std::string kind = "train";
  uint64_t epoch = 0, epochs = 0, step = 0, steps = 0;
  double samples_per_second = 0, bytes_per_second = 0;  // since the phase began
  double au_percentage = 0;                             // the phase's so far
  // false: no step has ended yet, or too little time has passed, for the figures above to
  // mean anything; they show as "—" (a time series row's rates still show).
  bool measured = false;
};

class LiveView {
 public:
  using Mode = LiveDisplay::Mode;
  // Kept for callers: LiveDisplay::ModeFor.
  static Mode ModeFor(int fd, bool enabled) { return LiveDisplay::ModeFor(fd, enabled); }
  // Writes to file descriptor `fd`; `title` heads the block (the workload), `au_target` in %.
  LiveView(int fd, Mode mode, std::string title, double au_target, double line_every_s);

  void OnStatus(const LiveStatus& status);
  void OnRow(const metrics::TimeseriesRow& row);
  // Runs `print` (which writes lines to the same stream) with the block out of the way.
  void Above(const std::function<void()>& print) { display_.Above(print); }
  // Leaves the last block on screen and stops drawing.
  void End() { display_.End(); }

  // The block's lines for these figures (no escape codes): for tests and the plain lines.
  static std::string Block(const std::string& title, const LiveStatus& s,
                           const std::optional<metrics::TimeseriesRow>& row, double au_target,
                           double elapsed_s);
  static std::string Line(const LiveStatus& s, const std::optional<metrics::TimeseriesRow>& row,
                          double elapsed_s);

 private:
  void Draw();  // mutex_ held

  const std::string title_;
  const double au_target_;
  const double start_;
  std::mutex mutex_;
  std::optional<LiveStatus> status_;
  std::optional<metrics::TimeseriesRow> row_;
  LiveDisplay display_;
};

}  // namespace trainbench::report
