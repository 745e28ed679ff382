#include "sweep/probe.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/strings.h"

namespace trainbench::sweep {
namespace {

double Number(const nlohmann::json& j, const nlohmann::json::json_pointer& at) {
  return j.contains(at) && j[at].is_number() ? j[at].get<double>() : 0.0;
}

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
  nlohmann::ordered_json j;
  j["accelerators"] = p.accelerators;
  j["full"] = p.full;
  j["repeat"] = p.repeat;
  j["complete"] = p.complete;
  j["passed"] = p.passed;
  j["au_meaningful"] = p.au_meaningful;
  j["au_percentage"] = p.au_percentage;
  j["verdict"] = VerdictWord(p);
  j["samples_per_second"] = p.samples_per_second;
  j["MB_per_second"] = p.mb_per_second;
  j["demand_MB_per_second"] = p.demand_mb_per_second;
  j["read_latency_p99_ms"] = p.read_p99_ms;
  j["cpu_seconds"] = p.cpu_seconds;
  j["cpu_share"] = p.run_seconds > 0 ? p.cpu_seconds / p.run_seconds : 0.0;
  j["page_cache_fraction"] = p.page_cache_fraction;
  j["host_busy_share"] = p.host_busy_share >= 0 ? nlohmann::json(p.host_busy_share) : nullptr;
  j["timer_late_p50_ms"] = p.timer_late_p50_ms;
  j["timer_late_p99_ms"] = p.timer_late_p99_ms;
  j["timer_late_mean_ms"] = p.timer_late_mean_ms;
  j["au_target_percentage"] = p.au_target_percentage;
  j["results"] = p.folder;
  return j;
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
  SweepProbe p;
  p.accelerators = j.value("accelerators", uint64_t{0});
  p.full = j.value("full", false);
  p.repeat = j.value("repeat", 0);         // journals before repeats held one run per count
  p.complete = j.value("complete", true);  // journals before the key held finished runs
  p.passed = j.value("passed", false);
  p.au_meaningful = j.value("au_meaningful", false);
  p.au_percentage = j.value("au_percentage", 0.0);
  p.samples_per_second = j.value("samples_per_second", 0.0);
  p.mb_per_second = j.value("MB_per_second", 0.0);
  p.demand_mb_per_second = j.value("demand_MB_per_second", 0.0);
  p.read_p99_ms = j.value("read_latency_p99_ms", 0.0);
  p.cpu_seconds = j.value("cpu_seconds", 0.0);
  p.run_seconds = p.cpu_seconds / std::max(1e-12, j.value("cpu_share", 0.0));
  p.page_cache_fraction = j.value("page_cache_fraction", 0.0);
  if (j.contains("host_busy_share") && j["host_busy_share"].is_number())
    p.host_busy_share = j["host_busy_share"].get<double>();
  p.timer_late_p50_ms = j.value("timer_late_p50_ms", 0.0);
  p.timer_late_p99_ms = j.value("timer_late_p99_ms", 0.0);
  p.timer_late_mean_ms = j.value("timer_late_mean_ms", -1.0);
  p.au_target_percentage = j.value("au_target_percentage", 0.0);
  p.folder = j.value("results", std::string());
  return p;
}

}  // namespace trainbench::sweep
