// The figures of one run of a sweep (a probe of `--find-max-accelerators`, a point of a
// grid) that a sweep compares: read from the run's merged summary.json, written as JSON rows
// (a sweep's summary and journal, and back) and as CSV. Running it is app/'s
// (app/sweep/sweep_probe.h). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace trainbench::sweep {

// A run's figures (rank 0's view of the merged run).
struct SweepProbe {
  uint64_t accelerators = 0;
  bool full = false;
  int repeat = 0;         // a full-length run's index at its count (0: the search's; 1..: repeats)
  bool complete = false;  // the run did all its steps (not stopped by Ctrl-C or a failure)
  bool passed = false;
  bool au_meaningful = false;
  double au_percentage = 0;
  double samples_per_second = 0;
  double mb_per_second = 0;         // what the storage delivered
  double demand_mb_per_second = 0;  // what the accelerators asked for at 100% AU
  double read_p99_ms = 0;
  double cpu_seconds = 0, run_seconds = 0;
  // Of the bytes read, served from the page cache, by the summary's cache method; 0 where no
  // method could tell.
  double page_cache_fraction = 0;
  // The client host during the run: its CPUs' busy share, all processes (-1 unknown), and
  // how late the emulated compute's timers were handled.
  double host_busy_share = -1;
  double timer_late_p50_ms = 0, timer_late_p99_ms = 0;
  double timer_late_mean_ms = -1;   // -1: unknown (a journal written before it was kept)
  double au_target_percentage = 0;  // the run's AU target; 0: unknown (as above)
  std::string folder;               // its run results
};

// From a run's summary.json; `demand_per_accel` in bytes/s at 100% AU.
SweepProbe ProbeOf(const nlohmann::json& summary, uint64_t accelerators, bool full,
                   double demand_per_accel);
nlohmann::ordered_json ProbeJson(const SweepProbe& probe);
// Back from ProbeJson (a sweep's journal, read to resume).
SweepProbe ProbeFromJson(const nlohmann::json& row);
// "pass", "FAIL", "no verdict" where the run's AU is not meaningful, or "stopped" where the
// run did not finish.
const char* VerdictWord(const SweepProbe& probe);
// probes.csv: a header and a row per run; with `keys`, a grid's points.csv: each row starts
// with its point's `values` of those keys, so rows are told apart by more than their order.
std::string ProbesCsv(const std::vector<SweepProbe>& probes,
                      const std::vector<std::string>& keys = {},
                      const std::vector<std::vector<std::string>>& values = {});

}  // namespace trainbench::sweep
