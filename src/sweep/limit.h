// What limited a `sweep --find-max-accelerators` answer, read off the probe on the failing
// side of the boundary (the first failure, its full-length run where there was one):
//   client   the client host, not the storage: the emulated compute's timers were handled
//            late by more than the AU's headroom, trainbench itself used most cores, or the
//            host's CPUs were busy (all processes, so a neighbour's load counts) and that
//            showed in our timers. A busy host whose load never delays our threads (work at a
//            lower priority, say) is not called the limit: the timers say whether it bit;
//   memory   the page cache served the reads: the storage was not measured;
//   storage  neither: the storage delivered less than the accelerators asked.
// Only "storage" lets the answer say "this storage feeds N". Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "sweep/probe.h"

namespace trainbench::sweep {

enum class SweepLimit { kStorage, kClient, kMemory };

// A host this busy has no CPU to spare for more accelerators' reads and timers.
inline constexpr double kBusyHostShare = 0.90;
// trainbench alone on this share of the cores: its own threads are the limit.
inline constexpr double kBusyCoresShare = 0.80;
// A compute timer handled late by this share of the step's compute in the median step (p50)
// spends the whole headroom of MLPerf's 90% AU target on the client alone. A tail alone does
// not: one step in a hundred late by 12% of its compute costs a tenth of a percent of AU (seen
// in CI on 2026-11-27: the gateway behind a 12 MB/s cap, the host 40% busy, p99 12 ms late on
// 100 ms of compute, while the storage delivered all it could).
inline constexpr double kLateTimerShare = 0.10;
// On a busy host, half of that at p99 is already the host biting: the readers wait as the
// loop does, where the lateness cost the run much of what it missed: its AU cost (each
// step's compute stretched by the mean lateness) at least this share of the run's shortfall
// under the target. An RGW behind a 45 MB/s cap on a busy host: p99 late, p50 0.08 ms, the
// answer the cap's arithmetic; it was called the client.
inline constexpr double kLateOnBusyHostShare = 0.05;
inline constexpr double kLateExplainsShare = 0.5;
// Other processes, not trainbench, load the host: they used more of its CPUs than trainbench
// did, and at least this many cores.
inline constexpr double kOtherLoadCores = 0.5;
// Reads this much served from the page cache measured memory, not the storage.
inline constexpr double kCachedShare = 0.90;

struct LimitFinding {
  SweepLimit limit = SweepLimit::kStorage;
  std::string evidence;  // the figures that decided it, for the sentence
  // kClient: the load was other processes' (stop them), not trainbench's (add client hosts).
  bool other_load = false;
  // kClient: the page cache served most reads too, so the storage was not measured either.
  bool cached_too = false;
};

LimitFinding ClassifyLimit(const SweepProbe& failing, double computation_time_s, unsigned cores);
// The same over several failing runs of one count (a boundary held by repeats): the storage
// only where every run says so, else the first run's finding of client, then of memory (the
// order ClassifyLimit tries them). `failing` is not empty.
LimitFinding ClassifyRuns(const std::vector<const SweepProbe*>& failing, double computation_time_s,
                          unsigned cores);
// For a probe that passed (no failure ended the search): memory where the page cache served
// its reads, else the storage.
LimitFinding ClassifyPassed(const SweepProbe& passed);
const char* LimitName(SweepLimit limit);  // "storage", "client", "memory"
// As a run's trait: "storage-bound", "client-bound", "read from memory".
const char* LimitTrait(SweepLimit limit);

}  // namespace trainbench::sweep
