#include "report/live_view.h"

#include <fmt/format.h>
#include <unistd.h>

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

}  // namespace

LiveView::LiveView(int fd, Mode mode, std::string title, double au_target, double line_every_s)
    : fd_(fd),
      mode_(mode),
      title_(std::move(title)),
      au_target_(au_target),
      line_every_s_(line_every_s),
      start_(NowSeconds()),
      next_line_(start_ + line_every_s) {}

LiveView::Mode LiveView::ModeFor(int fd, bool enabled) {
  if (!enabled) return Mode::kOff;
  return ::isatty(fd) ? Mode::kBlock : Mode::kLines;
}

std::string LiveView::Block(const std::string& title, const LiveStatus& s,
                            const std::optional<metrics::TimeseriesRow>& row, double au_target,
                            double elapsed_s) {
  const double sps = row ? row->samples_per_second : s.samples_per_second;
  const double mbps = row ? row->io_mb_per_second : s.bytes_per_second / 1e6;
  std::string out = fmt::format(
      "{} | {} epoch {}/{} | step {}/{} ({:.0f}%)\n", title, s.kind, s.epoch, s.epochs, s.step,
      s.steps, s.steps ? 100.0 * static_cast<double>(s.step) / static_cast<double>(s.steps) : 0);
  out += fmt::format("  {:>10.1f} samples/s  {:>9.1f} MB/s   AU {:.1f}% so far (target {:.0f}%)\n",
                     sps, mbps, s.au_percentage, au_target);
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
  std::string line = fmt::format(
      "trainbench: progress {} {} epoch {}/{} step {}/{} | {:.1f} samples/s | {:.1f} MB/s | AU "
      "{:.1f}%",
      Clock(elapsed_s), s.kind, s.epoch, s.epochs, s.step, s.steps,
      row ? row->samples_per_second : s.samples_per_second,
      row ? row->io_mb_per_second : s.bytes_per_second / 1e6, s.au_percentage);
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

void LiveView::Above(const std::function<void()>& print) {
  std::lock_guard<std::mutex> lock(mutex_);
  Erase();
  print();
  Draw();
}

void LiveView::End() {
  std::lock_guard<std::mutex> lock(mutex_);
  mode_ = Mode::kOff;
  drawn_lines_ = 0;  // the last block stays on screen, above what follows
}

void LiveView::Draw() {
  if (mode_ == Mode::kOff || !status_) return;
  const double now = NowSeconds();
  if (mode_ == Mode::kLines) {
    if (now < next_line_) return;
    next_line_ = now + line_every_s_;
    Write(Line(*status_, row_, now - start_));
    return;
  }
  const std::string block = Block(title_, *status_, row_, au_target_, now - start_);
  std::string out;
  // Back to the block's first line, then each line rewritten and cleared to its end.
  if (drawn_lines_ > 0) out += fmt::format("\x1b[{}F", drawn_lines_);
  int lines = 0;
  for (size_t at = 0; at < block.size();) {
    const size_t end = block.find('\n', at);
    out += block.substr(at, end - at) + "\x1b[K\n";
    at = end + 1;
    ++lines;
  }
  out += "\x1b[J";  // a shorter block than the last leaves no stale line below
  drawn_lines_ = lines;
  Write(out);
}

void LiveView::Erase() {
  if (mode_ != Mode::kBlock || drawn_lines_ == 0) return;
  Write(fmt::format("\x1b[{}F\x1b[J", drawn_lines_));
  drawn_lines_ = 0;
}

void LiveView::Write(const std::string& text) {
  for (size_t at = 0; at < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + at, text.size() - at);
    if (n <= 0) return;  // a closed terminal: the run goes on without its view
    at += static_cast<size_t>(n);
  }
}

}  // namespace trainbench::report
