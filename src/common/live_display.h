// The one live display of every long job (run, datagen, verify, stage, train): on a terminal
// a block of one or more lines redrawn in place, with event lines printed above it; in a log
// or a pipe (CI) a plain line every `line_every_s`, so logs stay readable; nothing when off
// (--no-progress). What the lines say is the job's; how they reach the screen is this.
// Thread safety: every method may be called from any thread (a mutex).
#pragma once

#include <functional>
#include <mutex>
#include <string>

namespace trainbench {

class LiveDisplay {
 public:
  enum class Mode { kOff, kBlock, kLines };
  // kBlock when fd is a terminal, else kLines; kOff when `enabled` is false.
  static Mode ModeFor(int fd, bool enabled);

  // Writes to file descriptor `fd`. In kBlock, redraws at most every `redraw_every_s`
  // (0: every Show); in kLines, a line at most every `line_every_s`, the first after one
  // period (a job shorter than that prints none).
  LiveDisplay(int fd, Mode mode, double line_every_s, double redraw_every_s = 0);
  ~LiveDisplay();
  LiveDisplay(const LiveDisplay&) = delete;
  LiveDisplay& operator=(const LiveDisplay&) = delete;

  Mode mode() const { return mode_; }
  // The block (lines ending in '\n') on a terminal, or `line` (one, ending in '\n') in a log.
  void Show(const std::string& block, const std::string& line);
  // Like Show, but a terminal redraws now and a log prints the line now.
  void ShowNow(const std::string& block, const std::string& line);
  // Runs `print` (which writes lines to the same stream) with the block out of the way.
  void Above(const std::function<void()>& print);
  // Stops drawing; the last block stays on screen above what follows.
  void End();
  // Stops drawing and erases the block (the caller prints its own summary in its place).
  void Clear();

 private:
  void Draw(const std::string& block);  // mutex_ held
  void Erase();                         // mutex_ held
  void Write(const std::string& text);

  const int fd_;
  Mode mode_;
  const double line_every_s_, redraw_every_s_;
  std::mutex mutex_;
  std::string block_;  // the last block shown
  int drawn_lines_ = 0;
  double next_line_ = 0, next_redraw_ = 0;
};

}  // namespace trainbench
