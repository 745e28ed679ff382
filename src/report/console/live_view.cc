#include "report/console/live_view.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/clock.h"

namespace trainbench::report {
namespace {

std::string Clock(double s) {
  const auto t = static_cast<uint64_t>(std::max(0.0, s));
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

// The time left, from the train steps done so far against those planned (evaluations and
// checkpoints count in the elapsed time, so it is an estimate: "~").
std::string Eta(const LiveStatus& s, double elapsed_s) {
  if (s.kind != "train" || s.steps == 0 || s.epochs == 0) return "-";
  const double total = static_cast<double>(s.epochs * s.steps);
  const double done = static_cast<double>((s.epoch - 1) * s.steps + s.step);
  if (done <= 0) return "-";
  return "~" + Clock(elapsed_s * (total - done) / done);
}

// A figure, or "—" where nothing was measured yet.
std::string Figure(bool measured, double value, const char* spec) {
  return measured ? fmt::format(fmt::runtime(spec), value) : "—";
}

}  // namespace

LiveView::LiveView(int fd, Mode mode, std::string title, double au_target, double line_every_s)
    : title_(std::move(title)),
      au_target_(au_target),
      start_(NowSeconds()),
      display_(fd, mode, line_every_s) {}

std::string LiveView::Block(const std::string& title, const LiveStatus& s,
                            const std::optional<metrics::TimeseriesRow>& row, double au_target,
                            double elapsed_s) {
  const bool rates = row || s.measured;
  const double sps = row ? row->samples_per_second : s.samples_per_second;
  const double mbps = row ? row->io_mb_per_second : s.bytes_per_second / 1e6;
  std::string out = fmt::format(
      "{} | {} epoch {}/{} | step {}/{} ({:.0f}%)\n", title, s.kind, s.epoch, s.epochs, s.step,
      s.steps, s.steps ? 100.0 * static_cast<double>(s.step) / static_cast<double>(s.steps) : 0);
  out += fmt::format("  {:>10} samples/s  {:>9} MB/s   AU {} so far (target {:.0f}%)\n",
                     Figure(rates, sps, "{:.1f}"), Figure(rates, mbps, "{:.1f}"),
                     Figure(s.measured, s.au_percentage, "{:.1f}%"), au_target);
  if (row)
    out += fmt::format(
        "  read p99 {:.3f} ms (p50 {:.3f})  data wait {:.1f}%  in flight {}  CPU {:.0f}%  RSS "
        "{:.0f} MiB\n",
        row->read_latency_p99_ms, row->read_latency_p50_ms, 100 * row->data_wait_share,
        row->reads_in_flight, row->cpu_percent, static_cast<double>(row->rss_bytes) / (1 << 20));
  out += fmt::format("  elapsed {}  ETA {}\n", Clock(elapsed_s), Eta(s, elapsed_s));
  return out;
}

std::string LiveView::Line(const LiveStatus& s, const std::optional<metrics::TimeseriesRow>& row,
                           double elapsed_s) {
  const bool rates = row || s.measured;
  std::string line = fmt::format(
      "trainbench: progress {} {} epoch {}/{} step {}/{} | {} samples/s | {} MB/s | AU {}",
      Clock(elapsed_s), s.kind, s.epoch, s.epochs, s.step, s.steps,
      Figure(rates, row ? row->samples_per_second : s.samples_per_second, "{:.1f}"),
      Figure(rates, row ? row->io_mb_per_second : s.bytes_per_second / 1e6, "{:.1f}"),
      Figure(s.measured, s.au_percentage, "{:.1f}%"));
  if (row) line += fmt::format(" | read p99 {:.3f} ms", row->read_latency_p99_ms);
  return line + fmt::format(" | ETA {}\n", Eta(s, elapsed_s));
}

void LiveView::OnStatus(const LiveStatus& status) {
  std::lock_guard<std::mutex> lock(mutex_);
  status_ = status;
  Draw();
}

void LiveView::OnRow(const metrics::TimeseriesRow& row) {
  std::lock_guard<std::mutex> lock(mutex_);
  row_ = row;
  Draw();
}

void LiveView::Draw() {
  if (!status_) return;
  const double elapsed = NowSeconds() - start_;
  display_.Show(Block(title_, *status_, row_, au_target_, elapsed), Line(*status_, row_, elapsed));
}

}  // namespace trainbench::report
