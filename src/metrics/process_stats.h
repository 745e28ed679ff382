// What the kernel says about this process and host: bytes read from devices
// (/proc/self/io read_bytes, the honest figure when the page cache serves a run), CPU
// time, peak resident memory, host memory, and how busy the host's CPUs were. Thread-safe (reads
// kernel files only).
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

// The host's CPU time since boot, all processes (/proc/stat's "cpu" line), in clock ticks:
// the share busy between two readings says how loaded the host was, by trainbench and by
// whatever ran beside it. Zeros where /proc/stat cannot be read.
struct HostCpuTimes {
  uint64_t busy = 0;   // user, nice, system, irq, softirq, steal
  uint64_t total = 0;  // those plus idle and iowait
};
HostCpuTimes ReadHostCpuTimes();
// busy / total between `before` and `after`, 0..1; -1 when nothing can be said.
double HostBusyShare(const HostCpuTimes& before, const HostCpuTimes& after);

}  // namespace trainbench::metrics
