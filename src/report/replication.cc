#include "report/replication.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

namespace trainbench::report {
namespace {

using nlohmann::json;

// A figure of summary.json, 0 where it is absent or null (not measured).
double NumberOr(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The UTC stamp of summary.json (20261121T194635Z) as seconds; -1 when unreadable.
double StampSeconds(const std::string& stamp) {
  std::tm t{};
  if (std::sscanf(stamp.c_str(), "%4d%2d%2dT%2d%2d%2dZ", &t.tm_year, &t.tm_mon, &t.tm_mday,
                  &t.tm_hour, &t.tm_min, &t.tm_sec) != 6)
    return -1;
  t.tm_year -= 1900;
  t.tm_mon -= 1;
  return static_cast<double>(timegm(&t));
}

std::string SummaryText(const json& summary, const std::string& key) {
  return summary.contains(key) ? summary.at(key).dump() : "(absent)";
}

}  // namespace

ReplicationResult CheckReplication(const std::vector<RunResults>& runs) {
  ReplicationResult out;
  std::vector<double> sps;
  for (const auto& r : runs)
    sps.push_back(NumberOr(r.summary.at("metric"), "train_throughput_mean_samples_per_second"));
  double sum = 0;
  for (double v : sps) sum += v;
  out.mean_samples_per_second = runs.empty() ? 0 : sum / static_cast<double>(runs.size());
  out.min_samples_per_second = runs.empty() ? 0 : *std::min_element(sps.begin(), sps.end());
  out.max_samples_per_second = runs.empty() ? 0 : *std::max_element(sps.begin(), sps.end());
  out.spread = out.min_samples_per_second > 0
                   ? out.max_samples_per_second / out.min_samples_per_second - 1
                   : (out.max_samples_per_second > 0 ? 1e9 : 0);

  if (runs.size() != kReplicationRuns)
    out.failures.push_back(fmt::format(
        "{} runs given: MLPerf Storage's result is the mean of {} runs of one configuration",
        runs.size(), kReplicationRuns));
  // The same configuration: these fields must agree with run 1's.
  static const char* kSame[] = {
      "workload",        "format",      "num_accelerators",    "num_hosts",
      "num_ranks",       "train_files", "train_samples",       "batch_size",
      "steps_per_epoch", "epochs",      "au_target_percentage"};
  for (size_t i = 1; i < runs.size(); ++i)
    for (const char* key : kSame)
      if (SummaryText(runs[i].summary, key) != SummaryText(runs[0].summary, key))
        out.failures.push_back(
            fmt::format("run {} ({}) is not a replica of run 1: {} is {}, run "
                        "1 has {}",
                        i + 1, runs[i].name, key, SummaryText(runs[i].summary, key),
                        SummaryText(runs[0].summary, key)));
  std::string table = fmt::format("{:<4} {:<40} {:>14} {:>9} {:>8} {:>7}  {}\n", "run", "folder",
                                  "samples/s", "vs mean", "AU %", "target", "verdict");
  for (size_t i = 0; i < runs.size(); ++i) {
    const json& s = runs[i].summary;
    const double au = NumberOr(s.at("metric"), "train_au_mean_percentage");
    const double target = s.value("au_target_percentage", 0.0);
    std::string verdict = "pass";
    if (!s.value("complete", false)) {
      verdict = "INCOMPLETE";
      out.failures.push_back(fmt::format("run {} ({}) is incomplete: {}", i + 1, runs[i].name,
                                         s.value("stop_reason", std::string("?"))));
    } else if (s.at("passed").is_null()) {
      verdict = "AU n/a";
      out.failures.push_back(fmt::format(
          "run {} ({}) has no AU verdict (train.computation_time=0): replication needs runs "
          "that emulate compute",
          i + 1, runs[i].name));
    } else if (!s.at("passed").get<bool>()) {
      verdict = "AU FAIL";
      out.failures.push_back(fmt::format("run {} ({}): AU {:.2f}% is below the {:.0f}% target",
                                         i + 1, runs[i].name, au, target));
    }
    table += fmt::format(
        "{:<4} {:<40} {:>14.1f} {:>+8.2f}% {:>8.2f} {:>6.0f}%  {}\n", i + 1, runs[i].name, sps[i],
        out.mean_samples_per_second > 0 ? 100 * (sps[i] / out.mean_samples_per_second - 1) : 0, au,
        target, verdict);
  }
  if (out.spread > kReplicationSpread)
    out.failures.push_back(fmt::format(
        "throughput spread {:.2f}% exceeds {:.0f}%: the slowest run ({:.1f} samples/s) and the "
        "fastest ({:.1f}) are not within 5% of each other",
        100 * out.spread, 100 * kReplicationSpread, out.min_samples_per_second,
        out.max_samples_per_second));
  // Consecutive runs: the gap between one's end and the next one's start under a run's time.
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return runs[a].summary.value("start", std::string()) <
           runs[b].summary.value("start", std::string());
  });
  for (size_t k = 1; k < order.size(); ++k) {
    const json& a = runs[order[k - 1]].summary;
    const json& b = runs[order[k]].summary;
    const double end = StampSeconds(a.value("end", std::string()));
    const double start = StampSeconds(b.value("start", std::string()));
    const double longest =
        std::max(a.value("run_seconds", 0.0), b.value("run_seconds", 0.0)) + 1;  // 1 s stamps
    if (end >= 0 && start >= 0 && start - end > longest)
      out.warnings.push_back(fmt::format(
          "runs {} and {} are {:.0f} s apart, longer than a run: MLPerf Storage asks for "
          "consecutive runs",
          order[k - 1] + 1, order[k] + 1, start - end));
  }
  out.passed = out.failures.empty();
  out.text =
      "replication check (MLPerf Storage: 5 runs of one configuration, every run passing AU, "
      "samples/s within 5% of each other)\n" +
      table +
      fmt::format(
          "samples/s: mean {:.1f} (the benchmark result), min {:.1f}, max {:.1f}; spread "
          "{:.2f}% (max/min - 1; at most {:.0f}%)\n",
          out.mean_samples_per_second, out.min_samples_per_second, out.max_samples_per_second,
          100 * out.spread, 100 * kReplicationSpread);
  for (const auto& w : out.warnings) out.text += "warning: " + w + "\n";
  for (const auto& f : out.failures) out.text += "  - " + f + "\n";
  out.text += out.passed ? "replication: PASS\n" : "replication: FAIL\n";
  return out;
}

}  // namespace trainbench::report
