// What the kernel says about this process and host: bytes read from devices
// (/proc/self/io read_bytes, the honest figure when the page cache serves a run), CPU
// time, peak resident memory, and host memory. Thread-safe (reads kernel files only).
#pragma once

#include <cstdint>

namespace trainbench::metrics {

struct ProcessIo {
  uint64_t rchar = 0;       // bytes passed to read-like calls (cache hits included)
  uint64_t read_bytes = 0;  // bytes the kernel fetched from storage for this process
  bool available = false;   // /proc/self/io could be read (absent in some containers)
};

ProcessIo ReadProcessIo();
double ProcessCpuSeconds();    // user + system, all threads
double ThreadCpuSeconds();     // user + system, the calling thread only
uint64_t PeakResidentBytes();  // VmHWM
uint64_t HostMemoryBytes();    // physical memory
uint64_t
AvailableMemoryBytes();  // MemAvailable: what can be allocated without swapping; 0 if unknown
unsigned HostCpuCount();

}  // namespace trainbench::metrics
