#include "app/sai3_job.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "app/job_checks.h"
#include "app/binary_job.h"
#include "app/job_log.h"
#include "app/job_op_log.h"
#include "app/job_worker.h"
#include "app/results_writer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/live_display.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/random.h"
#include "common/storage_option_names.h"
#include "common/strings.h"
#include "common/units.h"
#include "metrics/process_stats.h"
#include "metrics/run_record_json.h"
#include "ops/op_mix.h"
#include "ops/sai3_prepare.h"
#include "ops/workers.h"
#include "report/latency_histogram_json.h"
#include "report/result_envelope.h"
#include "report/rules_checks.h"
#include "storage/page_cache_hint.h"

namespace trainbench::app {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr uint64_t kMixSeed = 0x736169332d6d6978;  // "sai3-mix"
constexpr unsigned kMaxPrepareThreads = 64;

// The folder every GET and STAT glob is under, listed once to find their objects.
std::string ListFolder(const config::Sai3Config& c) {
  std::optional<std::string> common;
  for (const auto& op : c.workload) {
    if (op.op != "get" && op.op != "stat") continue;
    const std::string folder = GlobFolder(op.path);
    if (!common) {
      common = folder;
      continue;
    }
    size_t n = 0;
    while (n < common->size() && n < folder.size() && (*common)[n] == folder[n]) ++n;
    const size_t slash = common->substr(0, n).rfind('/');
    *common = slash == std::string::npos ? "" : common->substr(0, slash + 1);
  }
  return common.value_or("");
}

json RankJson(const ops::ReplayFigures& f, const storage::Storage& target) {
  json by_op = json::object();
  for (const auto& [op, r] : f.ops) by_op[ops::ReplayOpName(op)] = ops::ReplayedToJson(r);
  json first_byte = nullptr;
  const auto latencies = target.OperationLatencies();
  if (const auto it = latencies.find("GET_first_byte"); it != latencies.end())
    first_byte = it->second;
  return {{"ops", by_op},
          {"first_byte", first_byte},
          {"start_ns", f.start_ns},
          {"end_ns", f.end_ns},
          {"interrupted", f.interrupted}};
}

// The bytes of the objects the GETs read, against the memory of the job's hosts (each host
// once): on a file system its page cache serves them once read (prepare just wrote them), as
// it serves a run's dataset. `fits_in_page_cache`: local data under 5x the memory.
json GetsAgainstMemory(const std::set<uint32_t>& gets, const std::vector<uint64_t>& sizes,
                       bool local, dist::Communicator& ranks) {
  uint64_t get_bytes = 0;
  for (uint32_t o : gets) get_bytes += sizes[o];
  std::map<std::string, uint64_t> memory_of;
  for (const auto& line :
       ranks.AllGather(std::to_string(metrics::HostMemoryBytes()) + " " + ranks.Host())) {
    const size_t space = line.find(' ');
    memory_of[line.substr(space + 1)] = std::stoull(line.substr(0, space));
  }
  uint64_t memory = 0;
  for (const auto& [host, bytes] : memory_of) memory += bytes;
  const bool fits =
      local && get_bytes > 0 &&
      report::PageCacheCanHold(static_cast<double>(get_bytes), static_cast<double>(memory));
  return {{"get_bytes", get_bytes},
          {"host_memory_bytes", memory},
          {"hosts", memory_of.size()},
          {"data_is_local", local},
          {"fits_in_page_cache", fits}};
}

}  // namespace

Sai3Outcome Sai3Job(const Sai3Options& options, JobEnv& env) {
  const config::Sai3Config& c = options.config;
  dist::Communicator& ranks = env.ranks;
  for (const auto& [key, value] : options.storage_options)
    if (const std::string wrong = UnknownStorageOption(key); !wrong.empty())
      throw UsageError("--s3-option " + wrong);
  const std::string own_op_log = options.op_log.empty() ? c.op_log_path : options.op_log;
  if (!own_op_log.empty())
    CheckWritableFile(own_op_log, options.op_log.empty() ? "op_log_path" : "--op-log");
  const double interval_s = options.interval_s >= 0 ? options.interval_s
                            : c.perf_log            ? c.interval_s
                                                    : 0;
  CheckInterval(interval_s);

  // The workload's storage, and one per object set (the same where a set is the target).
  auto target = env.open_storage(c.target, options.storage_options);
  std::vector<std::unique_ptr<storage::Storage>> opened;
  std::vector<storage::Storage*> sets;
  for (const auto& set : c.ensure_objects) {
    opened.push_back(env.open_storage(set.base_uri, options.storage_options));
    if (env.check_local_folders)
      if (const auto local = opened.back()->LocalPath(""))
        CheckWritableFolder(*local, "prepare.ensure_objects.base_uri");
  }
  if (env.check_local_folders && c.ensure_objects.empty())
    if (const auto local = target->LocalPath("")) CheckWritableFolder(*local, "target");

  ResultsSink* results = ranks.Rank() == 0 ? env.results : nullptr;
  JobLog job_log(results);
  report::ResultEnvelope envelope = StartEnvelope("sai3", c.name, ranks);
  Sai3Outcome out;
  envelope.config = c.resolved;
  // The folder and its first summary before prepare: a killed job leaves them.
  ResultsWriter writer(results, envelope, interval_s);
  writer.Open("sai3-" + c.name, {{"target", c.target}, {"concurrency", c.concurrency}});
  if (c.agents > 1 && static_cast<uint64_t>(ranks.Size()) != c.agents)
    job_log.Warn(fmt::format(
        "{}: distributed.agents lists {} agents but this job has {} rank(s): each rank "
        "prepares 1/{} of the objects and runs the op mix (mpirun -np {} for the config's)",
        c.source, c.agents, ranks.Size(), ranks.Size(), c.agents));
  JobOpLog own_log(own_op_log, ranks, target->Describe(""));
  for (auto& s : opened) sets.push_back(&own_log.Wrap(*s));

  InstallInterruptHandler();
  std::atomic<uint64_t> prepare_bytes{0};
  std::atomic<bool> preparing{true};
  ops::ReplayProgress progress;
  JobTimeseries sampling(
      results ? interval_s : 0, nullptr, nullptr,
      [&](metrics::IntervalProbe& p) {
        p.bytes = prepare_bytes.load(std::memory_order_relaxed) +
                  progress.bytes.load(std::memory_order_relaxed);
        p.reads = progress.ops.load(std::memory_order_relaxed);
        p.phase = preparing ? metrics::LivePhase::kPrepare : metrics::LivePhase::kWorkload;
      },
      [&writer](const metrics::TimeseriesRow& row) { writer.Row(row); });

  ops::PrepareFigures prepared;
  if (!sets.empty()) {
    job_log.Info(
        fmt::format("prepare: {} object set(s) under {}{}", sets.size(), c.target,
                    ranks.Size() > 1 ? fmt::format(", each rank 1/{} of them", ranks.Size()) : ""));
    try {
      prepared = ops::PrepareObjects(c, sets, ranks, std::min(c.concurrency, kMaxPrepareThreads),
                                     prepare_bytes);
    } catch (const Interrupted&) {
      throw Interrupted(
          "prepare interrupted; finished objects are kept and no partial object is left: "
          "re-run the same command to finish");
    }
    if (ranks.Rank() == 0)
      // The bytes beside the time are those written in it: objects already there took none.
      job_log.Info(fmt::format(
          "prepare: {} ({} written, {} already there; {} in all), {} written in {:.3f} s",
          CountOf(prepared.objects, "object"), prepared.written, prepared.skipped,
          FormatBytes(static_cast<double>(prepared.bytes)),
          FormatBytes(static_cast<double>(prepared.bytes_written)), prepared.seconds));
  }
  preparing = false;

  // The op mix: the objects its globs match, listed once the ranks all prepared.
  const std::string folder = ListFolder(c);
  std::vector<ops::PlannedStorage> table(1);
  table[0].uri = c.target;
  std::vector<uint64_t> sizes;
  for (const auto& entry : target->List(folder)) {
    table[0].objects.push_back(entry.path);
    sizes.push_back(entry.size_bytes);
  }
  std::vector<ops::MixOp> mix_ops = ops::MixOps(c, table[0].objects);
  for (const ops::MixOp& op : mix_ops)
    if (op.op == ops::ReplayOp::kGet) table[0].gets.insert(op.objects.begin(), op.objects.end());
  const json cache =
      GetsAgainstMemory(table[0].gets, sizes, target->LocalPath("").has_value(), ranks);
  if (cache.at("fits_in_page_cache").get<bool>() && ranks.Rank() == 0)
    job_log.Warn(report::SmallerThanMemory(
                     "the data its GETs read", cache.at("get_bytes").get<double>(),
                     cache.at("hosts").get<size_t>(), cache.at("host_memory_bytes").get<double>()) +
                 "; " + report::kPageCacheNote +
                 " (prepare more or larger objects, 5x the memory, to measure the storage)");
  const int64_t start_ns =
      std::stoll(ranks.AllGather(std::to_string(metrics::WallNanos())).front());
  const int64_t end_ns = start_ns + static_cast<int64_t>(c.duration_s * 1e9);
  ops::OpMix mix(std::move(mix_ops), std::move(sizes), end_ns,
                 Mix(kMixSeed, static_cast<uint64_t>(ranks.Rank())),
                 fmt::format("trainbench-r{}-", ranks.Rank()));
  ops::ReplaySettings settings;
  settings.concurrency = c.concurrency;
  settings.page_cache =
      storage::ParsePageCacheHint(c.page_cache_mode).value_or(storage::PageCacheHint::kNone);
  settings.op_log = own_log.log();
  std::vector<std::unique_ptr<storage::Storage>> storages;
  storages.push_back(std::move(target));
  if (!ranks.Barrier()) throw Interrupted("the workload was interrupted before it started");
  job_log.Info(fmt::format("workload: {} op(s) for {:.1f} s, {} worker(s){}, against {}",
                           c.workload.size(), c.duration_s, c.concurrency,
                           ranks.Size() > 1 ? fmt::format(" per rank, {} ranks", ranks.Size()) : "",
                           c.target));
  LiveDisplay display(STDERR_FILENO,
                      LiveDisplay::ModeFor(STDERR_FILENO, options.progress && ranks.Rank() == 0),
                      10.0, 0.25);
  ops::ReplayFigures figures;
  RunShowingStatus(
      [&] {
        if (!c.workload.empty() && c.duration_s > 0)
          figures = ops::RunOps(table, storages, mix, settings, progress);
      },
      [&] {
        const double left = std::max(0.0, static_cast<double>(end_ns - metrics::WallNanos()) / 1e9);
        return fmt::format("workload: {} ops, {}, {:.1f} s left", progress.ops.load(),
                           FormatBytes(static_cast<double>(progress.bytes.load())), left);
      },
      display);
  const TimeseriesResult timeseries = sampling.Finish();
  uint64_t cleaned = 0;
  if (c.cleanup && !figures.interrupted) {
    cleaned = ops::CleanupObjects(c, sets, ranks);
    job_log.Info(fmt::format("cleanup: removed the {} prepared object(s){}", cleaned,
                             ranks.Size() > 1 ? " of this rank" : ""));
  }
  if (own_log) job_log.Info(own_log.Close());

  const auto gathered = ranks.Gather(RankJson(figures, *storages.front()).dump());
  envelope.finished = UtcStamp();
  if (ranks.Rank() != 0) return out;
  out.reports = true;
  std::map<std::string, ops::ReplayedOps> totals;
  metrics::Histogram first_byte;
  int64_t start = INT64_MAX, end = 0;
  bool interrupted = false, has_first_byte = false;
  for (const auto& text : gathered) {
    const json r = json::parse(text);
    for (const auto& [op, j] : r.at("ops").items()) totals[op].Add(ops::ReplayedFromJson(j));
    if (!r.at("first_byte").is_null()) {
      first_byte.Merge(r.at("first_byte").get<metrics::Histogram>());
      has_first_byte = true;
    }
    if (r.at("end_ns").get<int64_t>() > 0) {
      start = std::min(start, r.at("start_ns").get<int64_t>());
      end = std::max(end, r.at("end_ns").get<int64_t>());
    }
    interrupted = interrupted || r.at("interrupted").get<bool>();
  }
  const double span = SecondsBetween(start, end);
  uint64_t operations = 0, bytes = 0, errors = 0;
  for (const auto& [op, t] : totals) {
    operations += t.count;
    bytes += t.bytes;
    errors += t.errors;
  }
  ordered_json op_rows = ordered_json::array();
  out.text =
      fmt::format("{:<7} {:>9} {:>7} {:>12} {:>10} {:>10} {:>9} {:>9} {:>11}  {}\n", "op", "ops",
                  "share", "MiB", "ops/s", "MiB/s", "p50 ms", "p99 ms", "1st byte ms", "errors");
  for (const auto& [op, t] : totals) {
    const double share = operations ? static_cast<double>(t.count) / operations : 0.0;
    ordered_json row = {{"op", op},
                        {"count", t.count},
                        {"share", share},
                        {"bytes", t.bytes},
                        {"errors", t.errors},
                        {"skipped", t.skipped},
                        {"first_error", t.first_error},
                        {"ops_per_second", PerSecond(static_cast<double>(t.count), span)},
                        {"MiB_per_second", PerSecond(static_cast<double>(t.bytes) / kMiB, span)},
                        {"latency_ms", report::LatencyJson(t.latency_ns, 1e-6)}};
    const bool first = op == "GET" && has_first_byte;
    if (first) row["first_byte_latency_ms"] = report::LatencyJson(first_byte, 1e-6);
    op_rows.push_back(row);
    out.text += fmt::format(
        "{:<7} {:>9} {:>6.1f}% {:>12.3f} {:>10.1f} {:>10.2f} {:>9.3f} {:>9.3f} {:>11}  {}\n", op,
        t.count, share * 100, static_cast<double>(t.bytes) / kMiB,
        PerSecond(static_cast<double>(t.count), span),
        PerSecond(static_cast<double>(t.bytes) / kMiB, span), t.latency_ns.Percentile(0.5) / 1e6,
        t.latency_ns.Percentile(0.99) / 1e6,
        first ? fmt::format("{:.3f}", first_byte.Percentile(0.5) / 1e6) : "-",
        t.errors ? fmt::format("{} ({})", t.errors, t.first_error) : "0");
  }
  out.text += fmt::format(
      "{} operations in {:.3f} s over {} rank(s) x {} worker(s): {:.1f} ops/s, {:.2f} MiB/s; "
      "prepared {} ({} written)\n",
      operations, span, ranks.Size(), c.concurrency,
      PerSecond(static_cast<double>(operations), span),
      PerSecond(static_cast<double>(bytes) / kMiB, span), CountOf(prepared.objects, "object"),
      prepared.written);
  envelope.complete = !interrupted;
  if (interrupted) envelope.stop_reason = "interrupted";
  // Interrupted, it exits 130 as every job does; an operation that failed is a failure.
  out.exit_code = interrupted  ? static_cast<int>(ExitCode::kInterrupted)
                  : errors > 0 ? static_cast<int>(ExitCode::kRuntime)
                               : 0;
  if (interrupted) out.error = "interrupted: what ran is reported above, marked incomplete";

  ordered_json f;
  f["target"] = c.target;
  f["duration_s"] = c.duration_s;
  f["concurrency"] = c.concurrency;
  f["ranks"] = ranks.Size();
  f["operations"] = operations;
  f["bytes"] = bytes;
  f["errors"] = errors;
  f["seconds"] = span;
  f["ops_per_second"] = PerSecond(static_cast<double>(operations), span);
  f["MiB_per_second"] = PerSecond(static_cast<double>(bytes) / kMiB, span);
  f["ops"] = op_rows;
  f["prepare"] = {{"objects", prepared.objects}, {"written", prepared.written},
                  {"skipped", prepared.skipped}, {"removed", prepared.removed},
                  {"bytes", prepared.bytes},     {"bytes_written", prepared.bytes_written},
                  {"seconds", prepared.seconds}};
  f["cleanup"] = c.cleanup;
  f["cache"] = cache;
  out.results = writer.Finish(envelope, f, timeseries);
  ordered_json line;
  ordered_json short_figures;
  for (const char* key : {"concurrency", "ranks", "operations", "errors", "seconds",
                          "ops_per_second", "MiB_per_second"})
    short_figures[key] = f[key];
  short_figures["prepared_objects"] = prepared.objects;
  line["trainbench_sai3"] = short_figures;
  out.line = FinalLine(line, envelope, out.results.folder);
  return out;
}

Sai3Outcome RunSai3Config(const std::string& path, const std::vector<std::string>& overrides,
                          bool quiet, Sai3Options options) {
  auto loaded = config::LoadSai3Config(path, overrides);
  if (!quiet)
    for (const auto& w : loaded.warnings) LogWarning(w);
  options.config = std::move(loaded.config);
  const config::WorkloadConfig defaults;
  BinaryJob binary(
      options.config.output_folder.empty() ? defaults.output.folder : options.config.output_folder,
      defaults.output.log_file);
  return Sai3Job(options, binary.env());
}

}  // namespace trainbench::app
