#include "metrics/timeseries.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <thread>

#include "metrics/live_histogram.h"

namespace trainbench::metrics {

TimeseriesRow RowBetween(const IntervalProbe& before, const IntervalProbe& after, double run_start,
                         uint64_t accelerators) {
  TimeseriesRow row;
  const double dt = after.now - before.now;
  row.elapsed_s = after.now - run_start;
  row.interval_s = dt;
  row.phase = LivePhaseName(after.phase);
  row.epoch = after.epoch;
  row.reads = after.reads - before.reads;
  row.reads_in_flight = after.reads_in_flight;
  row.rss_bytes = after.rss_bytes;
  if (dt <= 0) return row;
  row.samples_per_second = static_cast<double>(after.samples - before.samples) / dt;
  row.io_mb_per_second = static_cast<double>(after.bytes - before.bytes) / dt / 1e6;
  // A wait that ended with its batch ready before the loop noticed is counted up to the
  // batch's ready time, so the running total can step back by that lateness: clamp.
  row.accelerators_waiting = std::max(0.0, (after.wait_s - before.wait_s) / dt);
  if (accelerators > 0)
    row.data_wait_share =
        std::min(1.0, row.accelerators_waiting / static_cast<double>(accelerators));
  // No process uses more than every core: over an interval of a few milliseconds (a job
  // that ended at once) the CPU clock's granularity read as 647% on 2 cores.
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  row.cpu_percent = std::min(100.0 * cores, 100.0 * (after.cpu_s - before.cpu_s) / dt);
  std::vector<uint64_t> counts(after.latency_counts.size(), 0);
  for (size_t i = 0; i < counts.size(); ++i)
    counts[i] =
        after.latency_counts[i] - (i < before.latency_counts.size() ? before.latency_counts[i] : 0);
  const Histogram interval = HistogramOfCounts(counts);
  row.read_latency_p50_ms = interval.Percentile(0.50) / 1e6;
  row.read_latency_p99_ms = interval.Percentile(0.99) / 1e6;
  return row;
}

uint64_t CurrentResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::vector<TimeseriesRow> MergeRankRows(const std::vector<std::vector<TimeseriesRow>>& ranks,
                                         const std::vector<uint64_t>& accelerators) {
  size_t longest = 0;
  for (const auto& rows : ranks) longest = std::max(longest, rows.size());
  uint64_t total_accelerators = 0;
  for (size_t r = 0; r < ranks.size() && r < accelerators.size(); ++r)
    total_accelerators += accelerators[r];
  std::vector<TimeseriesRow> merged;
  for (size_t i = 0; i < longest; ++i) {
    // Ranks' intervals differ a little (each its own clock; the last rows most): what
    // happened in each is added up, then divided by the merged interval (the longest).
    TimeseriesRow m;
    double samples = 0, mb = 0, waited = 0, cpu = 0;
    bool first = true;
    for (const auto& rows : ranks) {
      if (i >= rows.size()) continue;
      const TimeseriesRow& r = rows[i];
      if (first) {
        m = r;
        first = false;
      } else {
        m.reads += r.reads;
        m.reads_in_flight += r.reads_in_flight;
        m.rss_bytes += r.rss_bytes;
        m.read_latency_p50_ms = std::max(m.read_latency_p50_ms, r.read_latency_p50_ms);
        m.read_latency_p99_ms = std::max(m.read_latency_p99_ms, r.read_latency_p99_ms);
        m.elapsed_s = std::max(m.elapsed_s, r.elapsed_s);
        m.interval_s = std::max(m.interval_s, r.interval_s);
      }
      samples += r.samples_per_second * r.interval_s;
      mb += r.io_mb_per_second * r.interval_s;
      waited += r.accelerators_waiting * r.interval_s;
      cpu += r.cpu_percent * r.interval_s;
    }
    if (m.interval_s > 0) {
      m.samples_per_second = samples / m.interval_s;
      m.io_mb_per_second = mb / m.interval_s;
      m.accelerators_waiting = waited / m.interval_s;
      m.cpu_percent = cpu / m.interval_s;
    }
    m.data_wait_share =
        total_accelerators > 0
            ? std::min(1.0, m.accelerators_waiting / static_cast<double>(total_accelerators))
            : 0;
    merged.push_back(std::move(m));
  }
  return merged;
}

}  // namespace trainbench::metrics
