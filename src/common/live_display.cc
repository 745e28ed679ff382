#include "common/live_display.h"

#include <fmt/format.h>
#include <unistd.h>

#include "common/clock.h"

namespace trainbench {

LiveDisplay::Mode LiveDisplay::ModeFor(int fd, bool enabled) {
  if (!enabled) return Mode::kOff;
  return ::isatty(fd) ? Mode::kBlock : Mode::kLines;
}

LiveDisplay::LiveDisplay(int fd, Mode mode, double line_every_s, double redraw_every_s)
    : fd_(fd),
      mode_(mode),
      line_every_s_(line_every_s),
      redraw_every_s_(redraw_every_s),
      next_line_(NowSeconds() + line_every_s) {}

LiveDisplay::~LiveDisplay() { End(); }

void LiveDisplay::Show(const std::string& block, const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  const double now = NowSeconds();
  if (mode_ == Mode::kLines) {
    if (now < next_line_) return;
    next_line_ = now + line_every_s_;
    Write(line);
  } else if (mode_ == Mode::kBlock) {
    block_ = block;
    if (now < next_redraw_) return;
    next_redraw_ = now + redraw_every_s_;
    Draw(block);
  }
}

void LiveDisplay::ShowNow(const std::string& block, const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  const double now = NowSeconds();
  if (mode_ == Mode::kLines) {
    next_line_ = now + line_every_s_;
    Write(line);
  } else if (mode_ == Mode::kBlock) {
    block_ = block;
    next_redraw_ = now + redraw_every_s_;
    Draw(block);
  }
}

void LiveDisplay::Above(const std::function<void()>& print) {
  std::lock_guard<std::mutex> lock(mutex_);
  Erase();
  print();
  if (mode_ == Mode::kBlock && !block_.empty()) Draw(block_);
}

void LiveDisplay::End() {
  std::lock_guard<std::mutex> lock(mutex_);
  mode_ = Mode::kOff;
  drawn_lines_ = 0;  // the last block stays on screen, above what follows
}

void LiveDisplay::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  Erase();
  mode_ = Mode::kOff;
}

void LiveDisplay::Draw(const std::string& block) {
  std::string out;
  // Back to the block's first line, then each line rewritten and cleared to its end.
  if (drawn_lines_ > 0) out += fmt::format("\x1b[{}F", drawn_lines_);
  int lines = 0;
  for (size_t at = 0; at < block.size();) {
    size_t end = block.find('\n', at);
    if (end == std::string::npos) end = block.size();
    out += block.substr(at, end - at) + "\x1b[K\n";
    at = end + 1;
    ++lines;
  }
  out += "\x1b[J";  // a shorter block than the last leaves no stale line below
  drawn_lines_ = lines;
  Write(out);
}

void LiveDisplay::Erase() {
  if (mode_ != Mode::kBlock || drawn_lines_ == 0) return;
  Write(fmt::format("\x1b[{}F\x1b[J", drawn_lines_));
  drawn_lines_ = 0;
}

void LiveDisplay::Write(const std::string& text) {
  for (size_t at = 0; at < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + at, text.size() - at);
    if (n <= 0) return;  // a closed terminal: the job goes on without its display
    at += static_cast<size_t>(n);
  }
}

}  // namespace trainbench
