#include "sweep/limit.h"

#include <fmt/format.h>

#include <algorithm>

namespace trainbench::sweep {

LimitFinding ClassifyLimit(const SweepProbe& p, double computation_time_s, unsigned cores) {
  LimitFinding f;
  const double trainbench_cores = p.run_seconds > 0 ? p.cpu_seconds / p.run_seconds : 0;
  auto share_of_compute = [computation_time_s](double late_ms) {
    return computation_time_s > 0 ? late_ms / 1e3 / computation_time_s : 0;
  };
  const bool busy_host = p.host_busy_share >= kBusyHostShare;
  const bool busy_self = trainbench_cores >= kBusyCoresShare * std::max(1u, cores);
  // What the late timers cost the AU, in points, against what the run fell short by.
  const double mean_late_ms =
      p.timer_late_mean_ms >= 0 ? p.timer_late_mean_ms : p.timer_late_p50_ms;
  const double compute_ms = 1e3 * computation_time_s;
  const double late_cost = compute_ms > 0 ? 100 * mean_late_ms / (compute_ms + mean_late_ms) : 0;
  const double shortfall =
      p.au_target_percentage > 0 ? p.au_target_percentage - p.au_percentage : 0;
  const bool late_explains = shortfall <= 0 || late_cost >= kLateExplainsShare * shortfall;
  const bool late =
      share_of_compute(p.timer_late_p50_ms) > kLateTimerShare ||
      (busy_host && share_of_compute(p.timer_late_p99_ms) > kLateOnBusyHostShare && late_explains);
  if (busy_self || late) {
    f.limit = SweepLimit::kClient;
    const double others = std::max(0.0, p.host_busy_share) * cores - trainbench_cores;
    f.other_load = !busy_self && others >= std::max(kOtherLoadCores, trainbench_cores);
    f.cached_too = p.page_cache_fraction >= kCachedShare;
    f.evidence = fmt::format(
        "{} cores, busy {:.0f}%{}; trainbench used {:.1f} of them{}; compute timers late by "
        "{:.2f} ms (p50), {:.2f} ms (p99), costing about {:.1f} AU points",
        cores, 100 * std::max(0.0, p.host_busy_share), p.host_busy_share < 0 ? " (unknown)" : "",
        trainbench_cores,
        f.other_load ? fmt::format(", other processes {:.1f}", others) : std::string(),
        p.timer_late_p50_ms, p.timer_late_p99_ms, late_cost);
    return f;
  }
  return ClassifyPassed(p);
}

LimitFinding ClassifyRuns(const std::vector<const SweepProbe*>& failing, double computation_time_s,
                          unsigned cores) {
  std::vector<LimitFinding> found;
  for (const SweepProbe* p : failing) found.push_back(ClassifyLimit(*p, computation_time_s, cores));
  for (const SweepLimit limit : {SweepLimit::kClient, SweepLimit::kMemory})
    for (const auto& f : found)
      if (f.limit == limit) return f;
  return found.empty() ? LimitFinding{} : found.front();
}

LimitFinding ClassifyPassed(const SweepProbe& p) {
  LimitFinding f;
  if (p.page_cache_fraction >= kCachedShare) {
    f.limit = SweepLimit::kMemory;
    f.evidence =
        fmt::format("the page cache served {:.0f}% of the reads", 100 * p.page_cache_fraction);
    return f;
  }
  f.evidence =
      fmt::format("{:.1f} MB/s delivered of {:.1f} asked; host busy {:.0f}%", p.mb_per_second,
                  p.demand_mb_per_second, 100 * std::max(0.0, p.host_busy_share));
  return f;
}

const char* LimitName(SweepLimit limit) {
  switch (limit) {
    case SweepLimit::kClient:
      return "client";
    case SweepLimit::kMemory:
      return "memory";
    case SweepLimit::kStorage:
      break;
  }
  return "storage";
}

const char* LimitTrait(SweepLimit limit) {
  switch (limit) {
    case SweepLimit::kClient:
      return "client-bound";
    case SweepLimit::kMemory:
      return "read from memory";
    case SweepLimit::kStorage:
      break;
  }
  return "storage-bound";
}

}  // namespace trainbench::sweep
