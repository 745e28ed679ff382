// Monotonic time in seconds as double: every duration trainbench reports comes from here.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace trainbench {

inline double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The same clock in nanoseconds, for per-read latencies.
inline uint64_t NowNanoseconds() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// UTC wall-clock stamp like 20261121T194635Z, for result folder names.
std::string UtcStamp();

}  // namespace trainbench
