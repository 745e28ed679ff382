#include "sweep/probe.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/json_fields.h"
#include "common/strings.h"

namespace trainbench::sweep {
namespace {

double Number(const nlohmann::json& j, const nlohmann::json::json_pointer& at) {
  return j.contains(at) && j[at].is_number() ? j[at].get<double>() : 0.0;
}

// A probe as a row of a sweep's summary and journal; the defaults are those of a journal
// written before the key.
struct ProbeFields {
  uint64_t accelerators = 0;
  bool full = false;
  int repeat = 0;        // journals before repeats held one run per count
  bool complete = true;  // journals before the key held finished runs
  bool passed = false;
  bool au_meaningful = false;
  double au_percentage = 0;
  std::string verdict;
  double samples_per_second = 0, MB_per_second = 0, demand_MB_per_second = 0;
  double read_latency_p99_ms = 0, cpu_seconds = 0, cpu_share = 0, page_cache_fraction = 0;
  Nullable<double> host_busy_share;
  double timer_late_p50_ms = 0, timer_late_p99_ms = 0, timer_late_mean_ms = -1;
  double au_target_percentage = 0;
  std::string results;
};
TB_JSON_FIELDS(ProbeFields, accelerators, full, repeat, complete, passed, au_meaningful,
               au_percentage, verdict, samples_per_second, MB_per_second, demand_MB_per_second,
               read_latency_p99_ms, cpu_seconds, cpu_share, page_cache_fraction, host_busy_share,
               timer_late_p50_ms, timer_late_p99_ms, timer_late_mean_ms, au_target_percentage,
               results)

}  // namespace

SweepProbe ProbeOf(const nlohmann::json& s, uint64_t n, bool full, double demand_per_accel) {
  using P = nlohmann::json::json_pointer;
  SweepProbe p;
  p.accelerators = n;
  p.full = full;
  p.complete = s.value("complete", false);
  p.passed = s.value("passed", nlohmann::json()).is_boolean() && s["passed"].get<bool>();
  p.au_meaningful = s.value("au_meaningful", false);
  p.au_percentage = Number(s, P("/metric/train_au_mean_percentage"));
  p.samples_per_second = Number(s, P("/metric/train_throughput_mean_samples_per_second"));
  p.mb_per_second = Number(s, P("/metric/train_io_mean_MB_per_second"));
  p.demand_mb_per_second = demand_per_accel * static_cast<double>(n) / 1e6;
  p.read_p99_ms = Number(s, P("/read_latency_ms/p99"));
  p.cpu_seconds = Number(s, P("/cpu_seconds"));
  p.run_seconds = Number(s, P("/run_seconds"));
  if (s.contains(P("/cache/method"))) {
    // Told by the method that sees the reads (/proc/self/io on a local disk, mincore on a
    // network or FUSE mount, where read_bytes stays 0 whatever was fetched); null where none
    // could tell, which is never counted as the cache's.
    p.page_cache_fraction = Number(s, P("/cache/page_cache_fraction"));
  } else {
    const double read = Number(s, P("/cache/bytes_read"));
    // Summaries before the method: only a local file system's reads can come from the page
    // cache (an object store's device reads are 0 whatever it served); summaries before
    // that key were file-system runs.
    const bool cacheable = s.value(P("/cache/page_cache_applies"), true);
    p.page_cache_fraction =
        read > 0 && cacheable && s.contains(P("/cache/device_read_available")) &&
                s[P("/cache/device_read_available")].get<bool>()
            ? 1.0 - std::min(1.0, Number(s, P("/cache/device_read_bytes")) / read)
            : 0.0;
  }
  if (s.contains(P("/client/host_busy_share")) && s[P("/client/host_busy_share")].is_number())
    p.host_busy_share = s[P("/client/host_busy_share")].get<double>();
  p.timer_late_p50_ms = Number(s, P("/client/compute_timer_late_ms/p50"));
  p.timer_late_p99_ms = Number(s, P("/client/compute_timer_late_ms/p99"));
  if (s.contains(P("/client/compute_timer_late_ms/mean")))
    p.timer_late_mean_ms = Number(s, P("/client/compute_timer_late_ms/mean"));
  p.au_target_percentage = Number(s, P("/au_target_percentage"));
  return p;
}

nlohmann::ordered_json ProbeJson(const SweepProbe& p) {
  ProbeFields f{.accelerators = p.accelerators,
                .full = p.full,
                .repeat = p.repeat,
                .complete = p.complete,
                .passed = p.passed,
                .au_meaningful = p.au_meaningful,
                .au_percentage = p.au_percentage,
                .verdict = VerdictWord(p),
                .samples_per_second = p.samples_per_second,
                .MB_per_second = p.mb_per_second,
                .demand_MB_per_second = p.demand_mb_per_second,
                .read_latency_p99_ms = p.read_p99_ms,
                .cpu_seconds = p.cpu_seconds,
                .cpu_share = p.run_seconds > 0 ? p.cpu_seconds / p.run_seconds : 0.0,
                .page_cache_fraction = p.page_cache_fraction,
                .host_busy_share = std::nullopt,
                .timer_late_p50_ms = p.timer_late_p50_ms,
                .timer_late_p99_ms = p.timer_late_p99_ms,
                .timer_late_mean_ms = p.timer_late_mean_ms,
                .au_target_percentage = p.au_target_percentage,
                .results = p.folder};
  if (p.host_busy_share >= 0) f.host_busy_share = p.host_busy_share;
  return f;
}

const char* VerdictWord(const SweepProbe& probe) {
  if (!probe.complete) return "stopped";
  return !probe.au_meaningful ? "no verdict" : probe.passed ? "pass" : "FAIL";
}

std::string ProbesCsv(const std::vector<SweepProbe>& probes, const std::vector<std::string>& keys,
                      const std::vector<std::vector<std::string>>& values) {
  std::string out;
  for (const auto& key : keys) out += CsvField(key) + ",";
  out +=
      "accelerators,full,repeat,passed,au_meaningful,au_percentage,samples_per_second,MB_per_"
      "second,"
      "demand_MB_per_second,read_latency_p99_ms,cpu_seconds,page_cache_fraction,host_busy_share,"
      "timer_late_p99_ms,results\n";
  for (size_t i = 0; i < probes.size(); ++i) {
    const auto& p = probes[i];
    if (!keys.empty())
      for (const auto& v : values.at(i)) out += CsvField(v) + ",";
    out += fmt::format(
        "{},{},{},{},{},{:.4f},{:.3f},{:.3f},{:.3f},{:.4f},{:.3f},{:.4f},{},{:.4f},{}\n",
        p.accelerators, p.full ? 1 : 0, p.repeat, p.passed ? 1 : 0, p.au_meaningful ? 1 : 0,
        p.au_percentage, p.samples_per_second, p.mb_per_second, p.demand_mb_per_second,
        p.read_p99_ms, p.cpu_seconds, p.page_cache_fraction,
        p.host_busy_share >= 0 ? fmt::format("{:.4f}", p.host_busy_share) : "", p.timer_late_p99_ms,
        CsvField(p.folder));
  }
  return out;
}

SweepProbe ProbeFromJson(const nlohmann::json& j) {
  const auto f = j.get<ProbeFields>();
  SweepProbe p;
  p.accelerators = f.accelerators;
  p.full = f.full;
  p.repeat = f.repeat;
  p.complete = f.complete;
  p.passed = f.passed;
  p.au_meaningful = f.au_meaningful;
  p.au_percentage = f.au_percentage;
  p.samples_per_second = f.samples_per_second;
  p.mb_per_second = f.MB_per_second;
  p.demand_mb_per_second = f.demand_MB_per_second;
  p.read_p99_ms = f.read_latency_p99_ms;
  p.cpu_seconds = f.cpu_seconds;
  p.run_seconds = f.cpu_seconds / std::max(1e-12, f.cpu_share);
  p.page_cache_fraction = f.page_cache_fraction;
  p.host_busy_share = f.host_busy_share.value_or(-1);
  p.timer_late_p50_ms = f.timer_late_p50_ms;
  p.timer_late_p99_ms = f.timer_late_p99_ms;
  p.timer_late_mean_ms = f.timer_late_mean_ms;
  p.au_target_percentage = f.au_target_percentage;
  p.folder = f.results;
  return p;
}

}  // namespace trainbench::sweep
