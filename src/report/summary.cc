#include "report/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "common/json_fields.h"
#include "common/units.h"
#include "config/datasize.h"
#include "metrics/au.h"
#include "report/latency_histogram_json.h"

namespace trainbench::report {
namespace {

using nlohmann::json;

std::vector<double> Field(const std::vector<metrics::PhaseRecord>& phases,
                          double (*get)(const metrics::PhaseRecord&)) {
  std::vector<double> values;
  for (const auto& p : phases)
    if (p.complete) values.push_back(get(p));
  return values;
}

double Au(const metrics::PhaseRecord& p) { return p.au_percentage; }
double AuMin(const metrics::PhaseRecord& p) { return p.au_min_percentage; }
double Sps(const metrics::PhaseRecord& p) { return p.SamplesPerSecond(); }
double Mbps(const metrics::PhaseRecord& p) { return p.BytesPerSecond() / kMB; }
double Mibps(const metrics::PhaseRecord& p) { return p.BytesPerSecond() / kMiB; }

struct Totals {
  uint64_t samples = 0, bytes = 0, requested = 0;
  double seconds = 0, compute = 0, wait = 0;
};

Totals Sum(const std::vector<metrics::PhaseRecord>& phases) {
  Totals t;
  for (const auto& p : phases) {
    t.samples += p.samples;
    t.bytes += p.bytes_read;
    t.requested += p.requested_bytes;
    t.seconds += p.duration_s;
    t.compute += p.compute_s;
    t.wait += p.data_wait_s;
  }
  return t;
}

// Each kind of storage request's latency (S3's GET, PUT, ...), in ms.
json StorageLatencies(const metrics::RunRecord& r) {
  json out = json::object();
  for (const auto& [op, h] : r.storage_latency_ns) out[op] = LatencyJson(h, 1e-6);
  return out;
}

// Bytes over seconds of every checkpoint `operation`, in GB/s; null when there was none
// (not measured is not 0 GB/s).
json CheckpointRate(const metrics::RunRecord& r, const std::string& operation) {
  double bytes = 0, seconds = 0;
  for (const auto& k : r.checkpoints)
    if (k.operation == operation) {
      bytes += static_cast<double>(k.bytes);
      seconds += k.seconds;
    }
  return seconds > 0 ? json(bytes / seconds / kGB) : json(nullptr);
}

// `value` where it was measured, else null.
json MeasuredOrNull(bool measured, double value) { return measured ? json(value) : json(nullptr); }

json PhaseJson(const metrics::PhaseRecord& p) {
  return {{"kind", p.kind},
          {"epoch", p.epoch},
          {"start_s", p.start_s},
          {"duration_s", p.duration_s},
          {"steps", p.steps},
          {"samples", p.samples},
          {"bytes_read", p.bytes_read},
          {"requested_bytes", p.requested_bytes},
          {"au_percentage", p.au_percentage},
          {"au_min_percentage", p.au_min_percentage},
          {"samples_per_second", p.SamplesPerSecond()},
          {"io_MB_per_second", p.BytesPerSecond() / kMB},
          {"io_MiB_per_second", p.BytesPerSecond() / kMiB},
          {"compute_s", p.compute_s},
          {"data_wait_s", p.data_wait_s},
          {"complete", p.complete}};
}

// What the page cache served, by the method that could see it (metrics::CacheRecord): the
// bytes that came from storage, unknown where no method could tell.
struct CacheFigure {
  std::string method, reason;
  std::optional<uint64_t> storage_read_bytes;
};

CacheFigure CacheFigureOf(const metrics::RunRecord& r) {
  CacheFigure f{r.cache.method, r.cache.reason, std::nullopt};
  if (f.method == "none") return f;
  if (f.method != "proc_io") {  // mincore, or hosts by different methods
    f.storage_read_bytes = r.cache.storage_read_bytes;
    return f;
  }
  if (!r.io_after.available) return {"none", "/proc/self/io cannot be read here", std::nullopt};
  if (f.reason.empty()) f.reason = "the bytes devices read for this process (/proc/self/io)";
  f.storage_read_bytes = r.io_after.read_bytes - r.io_before.read_bytes;
  return f;
}

// The share of `bytes_read` the page cache served; null where it cannot be told, or nothing
// was read.
json PageCacheFraction(const CacheFigure& f, uint64_t bytes_read) {
  if (!f.storage_read_bytes || bytes_read == 0) return nullptr;
  return 1.0 - std::min(1.0, static_cast<double>(*f.storage_read_bytes) /
                                 static_cast<double>(bytes_read));
}

json OrNull(const std::optional<uint64_t>& value) { return value ? json(*value) : json(); }

}  // namespace

bool Passed(const metrics::RunRecord& r, const config::WorkloadConfig& c) {
  const auto au = metrics::MeanAndStdev(Field(r.epochs, Au));
  return r.complete && !r.epochs.empty() && au.mean >= 100.0 * c.metric.au;
}

bool AuMeaningful(const config::WorkloadConfig& c) {
  const auto& t = c.train.computation_time;
  // A checkpointing workload has no steps to measure AU over.
  return c.workflow.train && !(t.kind == config::TimeDistribution::Kind::kConstant && t.mean == 0);
}

std::string AuNotMeaningfulReason(const metrics::RunRecord& r, const config::WorkloadConfig& c) {
  if (!c.workflow.train) return "a checkpointing workload: no training steps";
  if (!AuMeaningful(c)) return "storage only (computation_time 0)";
  const uint64_t needed = config::MinStepsForAuVerdict(c);
  if (r.steps_per_epoch >= needed) return "";
  return fmt::format(
      "{} steps per epoch, fewer than the {} an AU verdict needs (metric.exclude_start_steps {} "
      "+ {} x reader.prefetch_size {}): prefetched batches hide the reads; use more files "
      "(dataset.num_files_train), a smaller reader.batch_size or fewer accelerators "
      "(`trainbench datasize` says how many files)",
      r.steps_per_epoch, needed, c.metric.exclude_start_steps, config::kAuStepsPerPrefetch,
      c.reader.prefetch_size);
}

// A run that did not end (killed, interrupted, stopped) has no verdict: its AU covers the
// epochs it ran, not the run the workload asked for.
json PassedJson(const metrics::RunRecord& r, const config::WorkloadConfig& c) {
  return r.complete && AuNotMeaningfulReason(r, c).empty() ? json(Passed(r, c)) : json(nullptr);
}

bool DatasetFitsInCache(const metrics::RunRecord& r) {
  return r.host_memory_bytes > 0 && r.dataset_bytes > 0 &&
         static_cast<double>(r.dataset_bytes) < 5.0 * static_cast<double>(r.host_memory_bytes);
}

namespace {

// DLIO's metric block's eval phases.
struct EvalMetric {
  std::vector<double> eval_au_percentage;
  double eval_au_mean_percentage = 0, eval_au_stdev_percentage = 0;
  std::vector<double> eval_throughput_samples_per_second;
  double eval_throughput_mean_samples_per_second = 0;
  double eval_throughput_stdev_samples_per_second = 0;
  double eval_io_mean_MB_per_second = 0, eval_io_stdev_MB_per_second = 0;
};
TB_JSON_FIELDS(EvalMetric, eval_au_percentage, eval_au_mean_percentage, eval_au_stdev_percentage,
               eval_throughput_samples_per_second, eval_throughput_mean_samples_per_second,
               eval_throughput_stdev_samples_per_second, eval_io_mean_MB_per_second,
               eval_io_stdev_MB_per_second)

EvalMetric EvalMetricOf(const metrics::RunRecord& r) {
  const auto au = metrics::MeanAndStdev(Field(r.evals, Au));
  const auto sps = metrics::MeanAndStdev(Field(r.evals, Sps));
  const auto mbps = metrics::MeanAndStdev(Field(r.evals, Mbps));
  return {Field(r.evals, Au), au.mean,   au.stdev,  Field(r.evals, Sps),
          sps.mean,           sps.stdev, mbps.mean, mbps.stdev};
}

// DLIO's metric block: the train epochs' AU, samples/s and MB/s (each epoch's, their mean
// and stdev), and the eval phases' where there were any.
json MetricJson(const metrics::RunRecord& r, const config::WorkloadConfig& c, const Totals& train) {
  const auto au = metrics::MeanAndStdev(Field(r.epochs, Au));
  const auto sps = metrics::MeanAndStdev(Field(r.epochs, Sps));
  const auto mbps = metrics::MeanAndStdev(Field(r.epochs, Mbps));
  const auto mibps = metrics::MeanAndStdev(Field(r.epochs, Mibps));
  const double nominal_rate = train.seconds > 0 ? static_cast<double>(train.samples) *
                                                      r.nominal_sample_bytes / train.seconds
                                                : 0;
  const bool trained = !r.epochs.empty();
  json metric = {
      {"train_au_percentage", Field(r.epochs, Au)},
      {"train_au_mean_percentage", MeasuredOrNull(trained, au.mean)},
      {"train_au_min_accelerator_percentage", Field(r.epochs, AuMin)},
      {"train_au_stdev_percentage", MeasuredOrNull(trained, au.stdev)},
      {"train_au_meet_expectation", AuNotMeaningfulReason(r, c).empty()
                                        ? (Passed(r, c) ? "success" : "fail")
                                        : "not applicable"},
      {"train_throughput_samples_per_second", Field(r.epochs, Sps)},
      {"train_throughput_mean_samples_per_second", MeasuredOrNull(trained, sps.mean)},
      {"train_throughput_stdev_samples_per_second", MeasuredOrNull(trained, sps.stdev)},
      {"train_io_MB_per_second", Field(r.epochs, Mbps)},
      {"train_io_mean_MB_per_second", MeasuredOrNull(trained, mbps.mean)},
      {"train_io_stdev_MB_per_second", MeasuredOrNull(trained, mbps.stdev)},
      {"train_io_mean_MiB_per_second", MeasuredOrNull(trained, mibps.mean)},
      {"train_io_stdev_MiB_per_second", MeasuredOrNull(trained, mibps.stdev)},
      {"train_nominal_io_mean_MB_per_second", MeasuredOrNull(trained, nominal_rate / kMB)},
  };
  if (!r.evals.empty()) metric.update(json(EvalMetricOf(r)));
  return metric;
}

json CheckpointsJson(const metrics::RunRecord& r) {
  json checkpoints = json::array();
  for (const auto& k : r.checkpoints)
    checkpoints.push_back(
        {{"operation", k.operation},
         {"epoch", k.epoch},
         {"step", k.step},
         {"path", k.path},
         {"bytes", k.bytes},
         {"files", k.files},
         {"seconds", k.seconds},
         {"seconds_fastest_rank", k.ranks > 1 ? k.seconds_min : k.seconds},
         {"ranks", k.ranks},
         {"GB_per_second", MeasuredOrNull(k.seconds > 0, static_cast<double>(k.bytes) /
                                                             std::max(k.seconds, 1e-300) / kGB)}});
  return checkpoints;
}

// Darshan's POSIX counters of the reads that happened, and the accelerators' data wait.
json IoJson(const metrics::RunRecord& r, const Totals& train, const Totals& eval) {
  json buckets = json::object();
  for (size_t i = 0; i < metrics::kAccessSizeBuckets; ++i)
    buckets["POSIX_SIZE_READ_" + metrics::AccessSizeBucketNames()[i]] = r.io.size_buckets[i];
  const double accelerator_seconds =
      static_cast<double>(r.accelerators) * (train.seconds + eval.seconds);
  return {{"POSIX_OPENS", r.io.opens},
          {"POSIX_READS", r.io.reads},
          {"POSIX_BYTES_READ", r.io.bytes_read},
          {"POSIX_SEQ_READS", r.io.sequential_reads},
          {"POSIX_CONSEC_READS", r.io.consecutive_reads},
          {"POSIX_MAX_BYTE_READ_SIZE", r.io.max_read_bytes},
          {"access_sizes", buckets},
          {"files_read", r.io.files_read},
          {"files_reread", r.io.files_reread},
          {"data_wait_fraction",
           accelerator_seconds > 0 ? (train.wait + eval.wait) / accelerator_seconds : 0}};
}

// What was asked of storage, what came from it and what the page cache served.
json CacheJson(const metrics::RunRecord& r, const Totals& train, const Totals& eval) {
  const uint64_t device_read = r.io_after.read_bytes - r.io_before.read_bytes;
  const uint64_t requested = train.requested + eval.requested + Sum(r.preloads).requested;
  const uint64_t bytes_read = train.bytes + eval.bytes + Sum(r.preloads).bytes;
  const CacheFigure figure = CacheFigureOf(r);
  return {{"requested_bytes", requested},
          {"bytes_read", bytes_read},
          {"method", figure.method},
          {"method_reason", figure.reason},
          {"storage_read_bytes", OrNull(figure.storage_read_bytes)},
          {"page_cache_fraction", PageCacheFraction(figure, bytes_read)},
          {"resident_bytes", r.cache.resident_bytes},
          {"unchecked_bytes", r.cache.unchecked_bytes},
          {"mincore_check_seconds", r.cache.check_seconds},
          {"device_read_bytes", device_read},
          {"device_read_available", r.io_after.available},
          {"page_cache_applies", r.page_cache_applies},
          {"device_read_fraction",
           bytes_read > 0 ? static_cast<double>(device_read) / static_cast<double>(bytes_read) : 0},
          {"dataset_bytes", r.dataset_bytes},
          {"host_memory_bytes", r.host_memory_bytes},
          {"dataset_to_memory_ratio",
           r.host_memory_bytes
               ? static_cast<double>(r.dataset_bytes) / static_cast<double>(r.host_memory_bytes)
               : 0},
          {"fits_in_page_cache", DatasetFitsInCache(r)}};
}

json PhasesJson(const metrics::RunRecord& r) {
  json phases = json::array();
  for (const auto* list : {&r.preloads, &r.epochs, &r.evals})
    for (const auto& p : *list) phases.push_back(PhaseJson(p));
  return phases;
}

// What was run: the workload, its settings, its shape and when. An object's keys are kept
// sorted (nlohmann::json), so Summary adding its figures to this writes the same file as one
// literal would.
json RunJson(const metrics::RunRecord& r, const config::WorkloadConfig& c,
             const std::string& started_utc, const std::string& ended_utc) {
  return {
      {"trainbench_version", TRAINBENCH_VERSION},
      {"workload", r.workload},
      // A checkpointing workload (workflow.train false) reads no dataset: its figures are
      // the checkpoints'.
      {"checkpointing_only", !c.workflow.train},
      {"model", c.model.name},
      {"framework", c.framework},
      {"format", c.dataset.format},
      {"start", started_utc},
      {"end", ended_utc},
      {"complete", r.complete},
      {"stop_reason", r.stop_reason},
      {"num_accelerators", r.accelerators},
      {"num_hosts", std::max<size_t>(1, r.hosts.size())},
      {"num_ranks", r.ranks},
      {"hostname", r.hosts.empty() ? "" : r.hosts.front()},
      {"epochs", r.epochs_planned},
      {"epochs_completed", Field(r.epochs, Au).size()},
      {"steps_per_epoch", r.steps_per_epoch},
      {"batch_size", r.batch_size},
      {"train_files", r.train_files},
      {"train_samples", r.train_samples},
      {"train_bytes", r.train_bytes},
      {"seed", c.train.seed},
      {"random_shuffle_seed", r.random_shuffle_seed},
      {"barrier", r.barrier},
      {"read_engine", r.read_engine},
      {"io_threads", r.io_threads},
      {"io_depth", r.io_depth},
  };
}

}  // namespace

json Summary(const metrics::RunRecord& r, const config::WorkloadConfig& c,
             const std::string& started_utc, const std::string& ended_utc) {
  const Totals train = Sum(r.epochs);
  const Totals eval = Sum(r.evals);
  json summary = RunJson(r, c, started_utc, ended_utc);
  summary.update({
      {"au_target_percentage", 100.0 * c.metric.au},
      {"passed", PassedJson(r, c)},
      {"au_meaningful", AuNotMeaningfulReason(r, c).empty()},
      {"au_not_meaningful_reason", AuNotMeaningfulReason(r, c)},
      {"metric", MetricJson(r, c, train)},
      {"phases", PhasesJson(r)},
      {"read_latency_ms", LatencyJson(r.read_latency_ns, 1e-6)},
      {"read_latency_histogram", LatencyHistogramJson(r.read_latency_ns)},
      {"timeseries_interval_s", r.timeseries_interval_s},
      {"timeseries_cpu_seconds", r.timeseries_cpu_seconds},
      {"timeseries_cpu_share", r.cpu_seconds > 0 ? r.timeseries_cpu_seconds / r.cpu_seconds : 0.0},
      {"data_wait_ms", LatencyJson(r.data_wait_ns, 1e-6)},
      // What the client host could do: how busy its CPUs were (all processes) and how late
      // the emulated compute's timers were handled (a loaded host's mark).
      {"client",
       {{"host_busy_share", r.host_busy_share >= 0 ? json(r.host_busy_share) : json()},
        {"compute_timer_late_ms", LatencyJson(r.compute_late_ns, 1e-6)}}},
      {"cache", CacheJson(r, train, eval)},
      {"io_characterization", IoJson(r, train, eval)},
      {"checkpoints", CheckpointsJson(r)},
      {"checkpoint_gap_s", r.checkpoint_gap_s >= 0 ? json(r.checkpoint_gap_s) : json()},
      {"run_seconds", r.run_seconds},
      {"cpu_seconds", r.cpu_seconds},
      {"cpu_us_per_sample",
       train.samples + eval.samples > 0
           ? 1e6 * r.cpu_seconds / static_cast<double>(train.samples + eval.samples)
           : 0},
      {"peak_rss_bytes", r.peak_rss_bytes},
      {"storage_counters", r.storage_counters},
      {"storage_latency_ms", StorageLatencies(r)},
  });
  return summary;
}

json Headline(const metrics::RunRecord& r) {
  double au_min = 100;
  for (const auto& p : r.epochs)
    if (p.complete) au_min = std::min(au_min, p.au_min_percentage);
  const uint64_t bytes_read = Sum(r.epochs).bytes + Sum(r.evals).bytes + Sum(r.preloads).bytes;
  const uint64_t device_read = r.io_after.read_bytes - r.io_before.read_bytes;
  const CacheFigure figure = CacheFigureOf(r);
  return {{"samples_per_second", metrics::MeanAndStdev(Field(r.epochs, Sps)).mean},
          {"io_MB_per_second", metrics::MeanAndStdev(Field(r.epochs, Mbps)).mean},
          {"au_mean_percentage", metrics::MeanAndStdev(Field(r.epochs, Au)).mean},
          {"au_min_percentage", Field(r.epochs, Au).empty() ? 0 : au_min},
          {"bytes_read", bytes_read},
          {"device_read_bytes", device_read},
          {"cache_method", figure.method},
          {"storage_read_bytes", OrNull(figure.storage_read_bytes)},
          {"page_cache_fraction", PageCacheFraction(figure, bytes_read)},
          {"host_memory_bytes", r.host_memory_bytes},
          {"fits_in_page_cache", DatasetFitsInCache(r)},
          {"cpu_seconds", r.cpu_seconds},
          {"peak_rss_bytes", r.peak_rss_bytes},
          {"complete", r.complete}};
}

json MetricsLine(const metrics::RunRecord& r, const config::WorkloadConfig& c) {
  const auto au = metrics::MeanAndStdev(Field(r.epochs, Au));
  const Totals train = Sum(r.epochs);
  const double rate = train.seconds > 0 ? static_cast<double>(train.bytes) / train.seconds : 0;
  const uint64_t requested = train.requested + Sum(r.evals).requested + Sum(r.preloads).requested;
  return {{"trainbench_metrics",
           {{"workload", r.workload},
            {"accelerators", r.accelerators},
            {"epochs", Field(r.epochs, Au).size()},
            {"complete", r.complete},
            {"au_percentage", MeasuredOrNull(!r.epochs.empty(), au.mean)},
            {"passed", PassedJson(r, c)},
            {"samples_per_second",
             MeasuredOrNull(train.seconds > 0,
                            static_cast<double>(train.samples) / std::max(train.seconds, 1e-300))},
            {"io_mb_per_second", MeasuredOrNull(train.seconds > 0, rate / kMB)},
            {"io_mib_per_second", MeasuredOrNull(train.seconds > 0, rate / kMiB)},
            {"read_latency_ms", r.read_latency_ns.Count() > 0
                                    ? json(PercentilesOf(r.read_latency_ns, 1e-6))
                                    : json(nullptr)},
            {"bytes_read", train.bytes + Sum(r.evals).bytes + Sum(r.preloads).bytes},
            {"device_read_bytes", r.io_after.read_bytes - r.io_before.read_bytes},
            {"requested_bytes", requested},
            {"storage_latency_ms", StorageLatencies(r)},
            {"checkpoint_write_GB_per_second", CheckpointRate(r, "write")},
            {"checkpoint_read_GB_per_second", CheckpointRate(r, "read")}}}};
}

}  // namespace trainbench::report
