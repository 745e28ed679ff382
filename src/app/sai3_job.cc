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

#include "app/binary_job.h"
#include "app/job_checks.h"
#include "app/job_frame.h"
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

namespace {

void CheckSai3Options(const Sai3Options& options, const std::string& own_op_log,
                      double interval_s) {
  for (const auto& [key, value] : options.storage_options)
    if (const std::string wrong = UnknownStorageOption(key); !wrong.empty())
      throw UsageError("--s3-option " + wrong);
  if (!own_op_log.empty())
    CheckWritableFile(own_op_log, options.op_log.empty() ? "op_log_path" : "--op-log");
  CheckInterval(interval_s);
}

// The workload's storage, and one per object set (the same where a set is the target).
struct Sai3Storages {
  std::unique_ptr<storage::Storage> target;
  std::vector<std::unique_ptr<storage::Storage>> sets;
};

Sai3Storages OpenSai3Storages(const Sai3Options& options, JobEnv& env) {
  const config::Sai3Config& c = options.config;
  Sai3Storages s;
  s.target = env.open_storage(c.target, options.storage_options);
  for (const auto& set : c.ensure_objects) {
    s.sets.push_back(env.open_storage(set.base_uri, options.storage_options));
    if (env.check_local_folders)
      if (const auto local = s.sets.back()->LocalPath(""))
        CheckWritableFolder(*local, "prepare.ensure_objects.base_uri");
  }
  if (env.check_local_folders && c.ensure_objects.empty())
    if (const auto local = s.target->LocalPath("")) CheckWritableFolder(*local, "target");
  return s;
}

// Prepare: every rank writes its share of the object sets (objects already there are kept).
ops::PrepareFigures Prepare(JobFrame& frame, const config::Sai3Config& c,
                            std::vector<storage::Storage*>& sets, std::atomic<uint64_t>& bytes) {
  ops::PrepareFigures prepared;
  if (sets.empty()) return prepared;
  dist::Communicator& ranks = frame.ranks();
  frame.log().Info(
      fmt::format("prepare: {} object set(s) under {}{}", sets.size(), c.target,
                  ranks.Size() > 1 ? fmt::format(", each rank 1/{} of them", ranks.Size()) : ""));
  try {
    prepared =
        ops::PrepareObjects(c, sets, ranks, std::min(c.concurrency, kMaxPrepareThreads), bytes);
  } catch (const Interrupted&) {
    throw Interrupted(
        "prepare interrupted; finished objects are kept and no partial object is left: "
        "re-run the same command to finish");
  }
  if (frame.lead())
    // The bytes beside the time are those written in it: objects already there took none.
    frame.log().Info(
        fmt::format("prepare: {} ({} written, {} already there; {} in all), {} written in {:.3f} s",
                    CountOf(prepared.objects, "object"), prepared.written, prepared.skipped,
                    FormatBytes(static_cast<double>(prepared.bytes)),
                    FormatBytes(static_cast<double>(prepared.bytes_written)), prepared.seconds));
  return prepared;
}

// The op mix over the objects its globs match, listed once the ranks all prepared; warns when
// its GETs would read from memory.
struct Sai3Mix {
  std::vector<ops::PlannedStorage> table;
  std::vector<ops::MixOp> ops;
  std::vector<uint64_t> sizes;
  json cache;
};

Sai3Mix PlanMix(JobFrame& frame, const config::Sai3Config& c, storage::Storage& target) {
  Sai3Mix m;
  m.table.resize(1);
  m.table[0].uri = c.target;
  for (const auto& entry : target.List(ListFolder(c))) {
    m.table[0].objects.push_back(entry.path);
    m.sizes.push_back(entry.size_bytes);
  }
  m.ops = ops::MixOps(c, m.table[0].objects);
  for (const ops::MixOp& op : m.ops)
    if (op.op == ops::ReplayOp::kGet) m.table[0].gets.insert(op.objects.begin(), op.objects.end());
  m.cache =
      GetsAgainstMemory(m.table[0].gets, m.sizes, target.LocalPath("").has_value(), frame.ranks());
  if (m.cache.at("fits_in_page_cache").get<bool>() && frame.lead())
    frame.log().Warn(report::SmallerThanMemory("the data its GETs read",
                                               m.cache.at("get_bytes").get<double>(),
                                               m.cache.at("hosts").get<size_t>(),
                                               m.cache.at("host_memory_bytes").get<double>()) +
                     "; " + report::kPageCacheNote +
                     " (prepare more or larger objects, 5x the memory, to measure the storage)");
  return m;
}

// The work: the op mix for duration_s on every rank, under the live display.
ops::ReplayFigures RunMix(JobFrame& frame, const Sai3Options& options, Sai3Mix& m,
                          std::vector<std::unique_ptr<storage::Storage>>& storages,
                          const ops::ReplaySettings& settings, ops::ReplayProgress& progress) {
  const config::Sai3Config& c = options.config;
  dist::Communicator& ranks = frame.ranks();
  const int64_t start_ns =
      std::stoll(ranks.AllGather(std::to_string(metrics::WallNanos())).front());
  const int64_t end_ns = start_ns + static_cast<int64_t>(c.duration_s * 1e9);
  ops::OpMix mix(std::move(m.ops), std::move(m.sizes), end_ns,
                 Mix(kMixSeed, static_cast<uint64_t>(ranks.Rank())),
                 fmt::format("trainbench-r{}-", ranks.Rank()));
  if (!ranks.Barrier()) throw Interrupted("the workload was interrupted before it started");
  frame.log().Info(fmt::format(
      "workload: {} op(s) for {:.1f} s, {} worker(s){}, against {}", c.workload.size(),
      c.duration_s, c.concurrency,
      ranks.Size() > 1 ? fmt::format(" per rank, {} ranks", ranks.Size()) : "", c.target));
  LiveDisplay display(STDERR_FILENO,
                      LiveDisplay::ModeFor(STDERR_FILENO, options.progress && frame.lead()), 10.0,
                      0.25);
  ops::ReplayFigures figures;
  RunShowingStatus(
      [&] {
        if (!c.workload.empty() && c.duration_s > 0)
          figures = ops::RunOps(m.table, storages, mix, settings, progress);
      },
      [&] {
        const double left = std::max(0.0, static_cast<double>(end_ns - metrics::WallNanos()) / 1e9);
        return fmt::format("workload: {} ops, {}, {:.1f} s left", progress.ops.load(),
                           FormatBytes(static_cast<double>(progress.bytes.load())), left);
      },
      display);
  return figures;
}

// The ranks' operations summed on rank 0, by kind.
struct Sai3Totals {
  std::map<std::string, ops::ReplayedOps> ops;
  metrics::Histogram first_byte;
  bool has_first_byte = false;
  RanksSpan span;
  uint64_t operations = 0, bytes = 0, errors = 0;
};

Sai3Totals SumSai3Ranks(const std::vector<json>& gathered) {
  Sai3Totals t;
  for (const json& r : gathered) {
    for (const auto& [op, j] : r.at("ops").items()) t.ops[op].Add(ops::ReplayedFromJson(j));
    if (!r.at("first_byte").is_null()) {
      t.first_byte.Merge(r.at("first_byte").get<metrics::Histogram>());
      t.has_first_byte = true;
    }
    t.span.Add(r);
  }
  for (const auto& [op, o] : t.ops) {
    t.operations += o.count;
    t.bytes += o.bytes;
    t.errors += o.errors;
  }
  return t;
}

// The table of operation kinds and their rows for summary.json.
std::string Sai3OpsTable(const Sai3Totals& t, ordered_json& op_rows) {
  const double span = t.span.Seconds();
  std::string text =
      fmt::format("{:<7} {:>9} {:>7} {:>12} {:>10} {:>10} {:>9} {:>9} {:>11}  {}\n", "op", "ops",
                  "share", "MiB", "ops/s", "MiB/s", "p50 ms", "p99 ms", "1st byte ms", "errors");
  for (const auto& [op, o] : t.ops) {
    const double share = t.operations ? static_cast<double>(o.count) / t.operations : 0.0;
    ordered_json row = {{"op", op},
                        {"count", o.count},
                        {"share", share},
                        {"bytes", o.bytes},
                        {"errors", o.errors},
                        {"skipped", o.skipped},
                        {"first_error", o.first_error},
                        {"ops_per_second", PerSecond(static_cast<double>(o.count), span)},
                        {"MiB_per_second", PerSecond(static_cast<double>(o.bytes) / kMiB, span)},
                        {"latency_ms", report::LatencyJson(o.latency_ns, 1e-6)}};
    const bool first = op == "GET" && t.has_first_byte;
    if (first) row["first_byte_latency_ms"] = report::LatencyJson(t.first_byte, 1e-6);
    op_rows.push_back(row);
    text += fmt::format(
        "{:<7} {:>9} {:>6.1f}% {:>12.3f} {:>10.1f} {:>10.2f} {:>9.3f} {:>9.3f} {:>11}  {}\n", op,
        o.count, share * 100, static_cast<double>(o.bytes) / kMiB,
        PerSecond(static_cast<double>(o.count), span),
        PerSecond(static_cast<double>(o.bytes) / kMiB, span), o.latency_ns.Percentile(0.5) / 1e6,
        o.latency_ns.Percentile(0.99) / 1e6,
        first ? fmt::format("{:.3f}", t.first_byte.Percentile(0.5) / 1e6) : "-",
        o.errors ? fmt::format("{} ({})", o.errors, o.first_error) : "0");
  }
  return text;
}

// Rank 0's report: the table, summary.json's figures, and how the job ended.
Sai3Outcome ReportSai3(JobFrame& frame, const config::Sai3Config& c,
                       const ops::PrepareFigures& prepared, const json& cache,
                       const std::vector<json>& gathered, const TimeseriesResult& timeseries) {
  const Sai3Totals t = SumSai3Ranks(gathered);
  const double span = t.span.Seconds();
  ordered_json op_rows = ordered_json::array();
  Sai3Outcome out;
  out.text = Sai3OpsTable(t, op_rows) +
             fmt::format(
                 "{} operations in {:.3f} s over {} rank(s) x {} worker(s): {:.1f} ops/s, {:.2f} "
                 "MiB/s; prepared {} ({} written)\n",
                 t.operations, span, frame.ranks().Size(), c.concurrency,
                 PerSecond(static_cast<double>(t.operations), span),
                 PerSecond(static_cast<double>(t.bytes) / kMiB, span),
                 CountOf(prepared.objects, "object"), prepared.written);
  ordered_json f;
  f["target"] = c.target;
  f["duration_s"] = c.duration_s;
  f["concurrency"] = c.concurrency;
  f["ranks"] = frame.ranks().Size();
  f["operations"] = t.operations;
  f["bytes"] = t.bytes;
  f["errors"] = t.errors;
  f["seconds"] = span;
  f["ops_per_second"] = PerSecond(static_cast<double>(t.operations), span);
  f["MiB_per_second"] = PerSecond(static_cast<double>(t.bytes) / kMiB, span);
  f["ops"] = op_rows;
  f["prepare"] = {{"objects", prepared.objects}, {"written", prepared.written},
                  {"skipped", prepared.skipped}, {"removed", prepared.removed},
                  {"bytes", prepared.bytes},     {"bytes_written", prepared.bytes_written},
                  {"seconds", prepared.seconds}};
  f["cleanup"] = c.cleanup;
  f["cache"] = cache;
  frame.End(out, {t.span.interrupted, !t.span.interrupted, t.errors}, f, timeseries,
            "trainbench_sai3",
            {"concurrency", "ranks", "operations", "errors", "seconds", "ops_per_second",
             "MiB_per_second"},
            {{"prepared_objects", prepared.objects}});
  return out;
}

}  // namespace

Sai3Outcome Sai3Job(const Sai3Options& options, JobEnv& env) {
  const config::Sai3Config& c = options.config;
  const std::string own_op_log = options.op_log.empty() ? c.op_log_path : options.op_log;
  const double interval_s = options.interval_s >= 0 ? options.interval_s
                            : c.perf_log            ? c.interval_s
                                                    : 0;
  CheckSai3Options(options, own_op_log, interval_s);
  Sai3Storages opened = OpenSai3Storages(options, env);
  JobFrame frame(env, "sai3", c.name, c.resolved, interval_s);
  frame.Begin("sai3-" + c.name, {{"target", c.target}, {"concurrency", c.concurrency}});
  dist::Communicator& ranks = frame.ranks();
  if (c.agents > 1 && static_cast<uint64_t>(ranks.Size()) != c.agents)
    frame.log().Warn(fmt::format(
        "{}: distributed.agents lists {} agents but this job has {} rank(s): each rank "
        "prepares 1/{} of the objects and runs the op mix (mpirun -np {} for the config's)",
        c.source, c.agents, ranks.Size(), ranks.Size(), c.agents));
  JobOpLog own_log(own_op_log, ranks, opened.target->Describe(""));
  std::vector<storage::Storage*> sets;
  for (auto& s : opened.sets) sets.push_back(&own_log.Wrap(*s));

  InstallInterruptHandler();
  std::atomic<uint64_t> prepare_bytes{0};
  std::atomic<bool> preparing{true};
  ops::ReplayProgress progress;
  auto sampling = frame.Sample([&](metrics::IntervalProbe& p) {
    p.bytes = prepare_bytes.load(std::memory_order_relaxed) +
              progress.bytes.load(std::memory_order_relaxed);
    p.reads = progress.ops.load(std::memory_order_relaxed);
    p.phase = preparing ? metrics::LivePhase::kPrepare : metrics::LivePhase::kWorkload;
  });
  const ops::PrepareFigures prepared = Prepare(frame, c, sets, prepare_bytes);
  preparing = false;
  Sai3Mix mix = PlanMix(frame, c, *opened.target);
  ops::ReplaySettings settings;
  settings.concurrency = c.concurrency;
  settings.page_cache =
      storage::ParsePageCacheHint(c.page_cache_mode).value_or(storage::PageCacheHint::kNone);
  settings.op_log = own_log.log();
  std::vector<std::unique_ptr<storage::Storage>> storages;
  storages.push_back(std::move(opened.target));
  const ops::ReplayFigures figures = RunMix(frame, options, mix, storages, settings, progress);
  const TimeseriesResult timeseries = sampling->Finish();
  if (c.cleanup && !figures.interrupted) {
    const uint64_t cleaned = ops::CleanupObjects(c, sets, ranks);
    frame.log().Info(fmt::format("cleanup: removed the {} prepared object(s){}", cleaned,
                                 ranks.Size() > 1 ? " of this rank" : ""));
  }
  if (own_log) frame.log().Info(own_log.Close());
  const auto gathered = frame.Gather(RankJson(figures, *storages.front()));
  if (!frame.lead()) return {};
  return ReportSai3(frame, c, prepared, mix.cache, gathered, timeseries);
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
