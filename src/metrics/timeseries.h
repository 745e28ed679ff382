// The run's time series: one row per interval (`run --interval`, 1 s by default) with what
// happened in it: phase, samples/s, MB/s, reads and their latency percentiles, reads in
// flight, the accelerators' wait for data, CPU and memory. A row is the difference of two
// probes, cumulative snapshots taken at the interval's ends (interval_sampler.h takes them).
// Pure data and arithmetic; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/live_counters.h"

namespace trainbench::metrics {

struct TimeseriesRow {
  double elapsed_s = 0;   // the interval's end, seconds since the run started
  double interval_s = 0;  // its length (the last one may be shorter)
  std::string phase;      // at the interval's end: setup, preload, train, eval, checkpoint, done
  uint64_t epoch = 0;
  double samples_per_second = 0;    // samples of the steps that ended in the interval
  double io_mb_per_second = 0;      // bytes the reads returned, MB = 10^6
  uint64_t reads = 0;               // reads completed in the interval
  uint64_t reads_in_flight = 0;     // submitted and not yet completed, at the interval's end
  double data_wait_share = 0;       // accelerator time spent waiting for data, 0..1
  double accelerators_waiting = 0;  // the mean number waiting (data_wait_share x accelerators)
  double read_latency_p50_ms = 0;   // of the reads completed in the interval; 0 with none
  double read_latency_p99_ms = 0;
  double cpu_percent = 0;  // process CPU time over the interval (100 = one core)
  uint64_t rss_bytes = 0;  // resident memory at the interval's end
};

// Cumulative figures at one instant.
struct IntervalProbe {
  double now = 0;  // NowSeconds()
  LivePhase phase = LivePhase::kSetup;
  uint64_t epoch = 0;
  uint64_t samples = 0;
  uint64_t bytes = 0;
  uint64_t reads = 0;
  uint64_t reads_in_flight = 0;
  double wait_s = 0;                     // accelerator-seconds waited so far
  std::vector<uint64_t> latency_counts;  // read-latency histogram bucket counts so far (ns)
  double cpu_s = 0;
  uint64_t rss_bytes = 0;
};

// The row for the interval from `before` to `after`; `run_start` is NowSeconds() at the
// run's start, `accelerators` this process's.
TimeseriesRow RowBetween(const IntervalProbe& before, const IntervalProbe& after, double run_start,
                         uint64_t accelerators);

// Resident memory now (/proc/self/statm); 0 when it cannot be read.
uint64_t CurrentResidentBytes();

// The job's rows from each rank's (`accelerators` per rank, in rank order): rows of the same
// index are the same interval (every rank starts its clock when the run starts, together
// after a collective). Samples, bytes, reads, waits, CPU and memory add up (rates over the
// longest of the ranks' intervals), the wait share is over every
// accelerator; latency percentiles are the worst rank's (percentiles of different ranks'
// reads cannot be combined without their histograms, which the rows do not carry).
std::vector<TimeseriesRow> MergeRankRows(const std::vector<std::vector<TimeseriesRow>>& ranks,
                                         const std::vector<uint64_t>& accelerators);

}  // namespace trainbench::metrics
