#include "report/console/tables.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.h"
#include "metrics/au.h"
#include "report/summary.h"

namespace trainbench::report {

namespace {

std::string CheckpointLine(const metrics::CheckpointRecord& k) {
  std::string spread;
  if (k.ranks > 1)
    spread = fmt::format(" by {} ranks (slowest; fastest {:.3f} s)", k.ranks, k.seconds_min);
  return fmt::format("checkpoint {} {}: {} ({}) in {:.3f} s{} ({:.3f} GB/s)\n", k.operation, k.path,
                     FormatBytes(static_cast<double>(k.bytes)),
                     FormatBytesBinary(static_cast<double>(k.bytes)), k.seconds, spread,
                     k.seconds > 0 ? static_cast<double>(k.bytes) / k.seconds / kGB : 0);
}

// A checkpointing workload: no phases, only checkpoints.
std::string CheckpointTable(const metrics::RunRecord& r) {
  std::string out = fmt::format("\n{}: checkpointing over {} rank(s) on {} host(s)\n", r.workload,
                                r.ranks, std::max<size_t>(1, r.hosts.size()));
  for (const auto& k : r.checkpoints) out += CheckpointLine(k);
  if (r.checkpoint_gap_s >= 0)
    out += fmt::format("from the end of writing to the first read: {:.3f} s\n", r.checkpoint_gap_s);
  out += fmt::format("CPU {:.2f} s over {:.2f} s; peak memory {}\n", r.cpu_seconds, r.run_seconds,
                     FormatBytesBinary(static_cast<double>(r.peak_rss_bytes)));
  if (!r.complete) out += fmt::format("INCOMPLETE: {}\n", r.stop_reason);
  return out;
}

}  // namespace

std::string ConsoleTable(const metrics::RunRecord& r, const config::WorkloadConfig& c) {
  if (!c.workflow.train) return CheckpointTable(r);
  std::string out = fmt::format(
      "\n{} on {} accelerator(s): {} train files, {} samples, batch {}, {} steps per epoch\n",
      r.workload, r.accelerators, r.train_files, r.train_samples, r.batch_size, r.steps_per_epoch);
  out += fmt::format("{:<8} {:>5} {:>10} {:>7} {:>12} {:>10} {:>10} {:>8}\n", "phase", "epoch",
                     "time (s)", "steps", "samples/s", "MB/s", "MiB/s", "AU %");
  for (const auto* list : {&r.preloads, &r.epochs, &r.evals})
    for (const auto& p : *list)
      out += fmt::format("{:<8} {:>5} {:>10.2f} {:>7} {:>12.1f} {:>10.1f} {:>10.1f} {:>8.2f}{}\n",
                         p.kind, p.epoch, p.duration_s, p.steps, p.SamplesPerSecond(),
                         p.BytesPerSecond() / kMB, p.BytesPerSecond() / kMiB, p.au_percentage,
                         p.complete ? "" : "  (incomplete)");
  std::vector<double> au;
  for (const auto& p : r.epochs)
    if (p.complete) au.push_back(p.au_percentage);
  const auto m = metrics::MeanAndStdev(au);
  const std::string not_a_verdict = AuNotMeaningfulReason(r, c);
  if (not_a_verdict.empty() && !r.complete) {
    out += fmt::format("train AU {:.2f}% (stdev {:.2f}) so far: no verdict, the run did not end\n",
                       m.mean, m.stdev);
  } else if (not_a_verdict.empty()) {
    out += fmt::format("train AU {:.2f}% (stdev {:.2f}) against {:.0f}%: {}\n", m.mean, m.stdev,
                       100 * c.metric.au, Passed(r, c) ? "PASS" : "FAIL");
  } else if (AuMeaningful(c)) {
    out += fmt::format("train AU {:.2f}%: not meaningful, {}\n", m.mean, not_a_verdict);
  } else {
    out +=
        "train AU: not meaningful with train.computation_time=0 (a storage-only run: "
        "compare samples/s and MB/s)\n";
  }
  const auto& h = r.read_latency_ns;
  out += fmt::format(
      "read latency (ms, {} reads): p50 {:.3f}  p90 {:.3f}  p99 {:.3f}  p99.9 {:.3f}  max {:.3f}\n",
      h.Count(), h.Percentile(0.5) / 1e6, h.Percentile(0.9) / 1e6, h.Percentile(0.99) / 1e6,
      h.Percentile(0.999) / 1e6, static_cast<double>(h.Max()) / 1e6);
  out += fmt::format("data wait per step (ms): p50 {:.3f}  p99 {:.3f}\n",
                     r.data_wait_ns.Percentile(0.5) / 1e6, r.data_wait_ns.Percentile(0.99) / 1e6);
  for (const auto& k : r.checkpoints) out += CheckpointLine(k);
  out += fmt::format("CPU {:.2f} s over {:.2f} s; peak memory {}\n", r.cpu_seconds, r.run_seconds,
                     FormatBytesBinary(static_cast<double>(r.peak_rss_bytes)));
  if (r.storage_counters.count("s3_requests")) {
    // Requests overlap, so time is summed over requests: the share is of all request time.
    double request_s = 0;
    for (const auto& [op, latency] : r.storage_latency_ns)
      if (op != "GET_first_byte")
        request_s += latency.Mean() * static_cast<double>(latency.Count()) / 1e9;
    out += S3CountersLine(r.storage_counters, request_s);
  }
  for (const auto& [op, latency] : r.storage_latency_ns)
    out += fmt::format(
        "  {:<15} {:>7} requests, ms: p50 {:.3f}  p90 {:.3f}  p99 {:.3f}  p99.9 {:.3f}  "
        "max {:.3f}\n",
        op, latency.Count(), latency.Percentile(0.5) / 1e6, latency.Percentile(0.9) / 1e6,
        latency.Percentile(0.99) / 1e6, latency.Percentile(0.999) / 1e6,
        static_cast<double>(latency.Max()) / 1e6);
  if (!r.complete) out += fmt::format("INCOMPLETE: {}\n", r.stop_reason);
  return out;
}

std::string S3CountersLine(const std::map<std::string, double>& s, double request_s) {
  const auto at = [&s](const char* key) {
    const auto it = s.find(key);
    return it == s.end() ? 0.0 : it->second;
  };
  if (!s.count("s3_requests")) return "";
  const double lost = at("s3_retry_seconds");
  return fmt::format(
      "S3: {:.0f} requests, {:.0f} retried; {} received and {:.3f} request-s lost to retries "
      "(attempts and backoff, {:.1f}% of {:.3f} request-s in all)\n",
      at("s3_requests"), at("s3_retries"), FormatBytes(at("s3_retry_bytes")), lost,
      request_s + lost > 0 ? 100 * lost / (request_s + lost) : 0, request_s + lost);
}

}  // namespace trainbench::report
