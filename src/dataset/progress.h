// Progress of a long job (datagen, verify) on stderr through the one LiveDisplay: a live
// line on a terminal, plain periodic lines otherwise (CI logs, pipes). Counters are updated
// from worker threads; a reporter thread prints. The final summary line is the caller's to
// print (the live line is erased for it).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "common/live_display.h"

namespace trainbench::dataset {

class Progress {
 public:
  // `total_files` and `total_bytes` are the expected totals, for the ETA. `live_bytes`, when
  // given, counts bytes as they are written (before a file is whole); the line shows the
  // larger of it and what Add() counted. `period`: between lines (default: 0.5 s on a
  // terminal, 10 s in a log).
  Progress(std::string what, uint64_t total_files, uint64_t total_bytes,
           std::function<uint64_t()> live_bytes = {},
           std::chrono::milliseconds period = std::chrono::milliseconds(0));
  ~Progress();

  void Add(uint64_t files, uint64_t bytes) {
    files_.fetch_add(files, std::memory_order_relaxed);
    bytes_.fetch_add(bytes, std::memory_order_relaxed);
  }
  void Stop();

 private:
  void Loop();
  void Print();

  std::string what_;
  uint64_t total_files_;
  uint64_t total_bytes_;
  std::function<uint64_t()> live_bytes_;
  std::chrono::milliseconds period_;
  std::atomic<uint64_t> files_{0};
  std::atomic<uint64_t> bytes_{0};
  double start_;
  LiveDisplay display_;
  bool stopped_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace trainbench::dataset
