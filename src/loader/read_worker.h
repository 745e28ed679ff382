// Internal to the read scheduler (read_scheduler.cc, uring_reader.cc): the state one
// reader thread owns, and the clock its latencies use. Each Worker is touched only by
// its thread, except the atomic counters (read live by the event loop) and the
// histogram (read after Drain).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "loader/read_scheduler.h"
#include "metrics/histogram.h"

namespace trainbench::loader {

inline uint64_t NowNanoseconds() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<unsigned char, FreeDeleter>;

struct ReadScheduler::Worker {
  std::thread thread;
  AlignedBuffer buffer;                      // one piece, aligned for O_DIRECT (pread engine)
  std::vector<unsigned char> sample_buffer;  // hdf5: one whole sample
  metrics::Histogram latency_ns;
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> reads{0};
};

}  // namespace trainbench::loader
