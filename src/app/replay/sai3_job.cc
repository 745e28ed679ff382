#include "app/replay/sai3_job.h"

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

#include "app/frame/binary_job.h"
#include "app/frame/job_checks.h"
#include "app/frame/job_frame.h"
#include "app/frame/job_log.h"
#include "app/frame/job_op_log.h"
#include "app/frame/job_worker.h"
#include "app/frame/results_writer.h"
#include "app/replay/op_table.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/json_fields.h"
#include "common/live_display.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/random.h"
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
#include "storage/storage_options.h"

namespace trainbench::app {
namespace {

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

// One rank's figures, for rank 0 to sum.
struct Sai3Rank {
  ops::ReplayFigures figures;
  std::optional<metrics::Histogram> first_byte;  // GETs' time to first byte, where measured
};
TB_JSON_FIELDS(Sai3Rank, figures, first_byte)

Sai3Rank RankOf(const ops::ReplayFigures& f, const storage::Storage& target) {
  Sai3Rank r{.figures = f, .first_byte = std::nullopt};
  const auto latencies = target.OperationLatencies();
  if (const auto it = latencies.find("GET_first_byte"); it != latencies.end())
    r.first_byte = it->second;
  return r;
}

// summary.json's "cache": the GETs' data against the memory of the job's hosts.
struct GetsCache {
  uint64_t get_bytes = 0;
  uint64_t host_memory_bytes = 0;
  size_t hosts = 0;
  bool data_is_local = false;
  bool fits_in_page_cache = false;
};
TB_JSON_FIELDS(GetsCache, get_bytes, host_memory_bytes, hosts, data_is_local, fits_in_page_cache)

// The bytes of the objects the GETs read, against the memory of the job's hosts (each host
// once): on a file system its page cache serves them once read (prepare just wrote them), as
// it serves a run's dataset. `fits_in_page_cache`: local data under 5x the memory.
GetsCache GetsAgainstMemory(const std::set<uint32_t>& gets, const std::vector<uint64_t>& sizes,
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
  return {get_bytes, memory, memory_of.size(), local, fits};
}

}  // namespace

namespace {

void CheckSai3Options(const Sai3Options& options, const std::string& own_op_log,
                      double interval_s) {
  storage::CheckStorageOptionNames(options.storage_options, "--s3-option");
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
  GetsCache cache;
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
  if (m.cache.fits_in_page_cache && frame.lead())
    frame.log().Warn(
        report::SmallerThanMemory("the data its GETs read", static_cast<double>(m.cache.get_bytes),
                                  m.cache.hosts, static_cast<double>(m.cache.host_memory_bytes)) +
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
  ops::OpFiguresByName ops;
  std::optional<metrics::Histogram> first_byte;
  RanksSpan span;
  uint64_t operations = 0, bytes = 0, errors = 0;
};

Sai3Totals SumSai3Ranks(const std::vector<Sai3Rank>& ranks) {
  Sai3Totals t;
  for (const Sai3Rank& r : ranks) {
    ops::MergeByName(t.ops, ops::ByName(r.figures.ops));
    if (r.first_byte) {
      if (!t.first_byte) t.first_byte.emplace();
      t.first_byte->Merge(*r.first_byte);
    }
    t.span.Add(r.figures);
  }
  for (const auto& [op, o] : t.ops) {
    t.operations += o.count;
    t.bytes += o.bytes;
    t.errors += o.errors;
  }
  return t;
}

// summary.json's figures of a sai3-bench workload.
struct Sai3Summary {
  std::string target;
  double duration_s = 0;
  unsigned concurrency = 0;
  int ranks = 1;
  uint64_t operations = 0, bytes = 0, errors = 0;
  double seconds = 0, ops_per_second = 0, MiB_per_second = 0;
  std::vector<OpRow> ops;
  ops::PrepareFigures prepare;
  bool cleanup = false;
  GetsCache cache;
};
TB_JSON_FIELDS(Sai3Summary, target, duration_s, concurrency, ranks, operations, bytes, errors,
               seconds, ops_per_second, MiB_per_second, ops, prepare, cleanup, cache)

// The rows of summary.json's "ops" and the table's lines, a kind of operation each.
std::string Sai3Ops(const Sai3Totals& t, Sai3Summary& f) {
  std::vector<OpLine> lines;
  for (const auto& [op, o] : t.ops) {
    OpRow& row = f.ops.emplace_back(RowOf(o, f.seconds));
    row.op = op;
    row.share = t.operations ? static_cast<double>(o.count) / t.operations : 0.0;
    const bool first = op == "GET" && t.first_byte;
    if (first) row.first_byte_latency_ms = report::LatencyJson(*t.first_byte, 1e-6);
    lines.push_back({op, &o, f.seconds, row.share, first ? &*t.first_byte : nullptr});
  }
  return OpsTable(lines);
}

// Rank 0's report: the table, summary.json's figures, and how the job ended.
Sai3Outcome ReportSai3(JobFrame& frame, const config::Sai3Config& c,
                       const ops::PrepareFigures& prepared, const GetsCache& cache,
                       const std::vector<Sai3Rank>& gathered, const TimeseriesResult& timeseries) {
  const Sai3Totals t = SumSai3Ranks(gathered);
  const double span = t.span.Seconds();
  Sai3Summary f{.target = c.target,
                .duration_s = c.duration_s,
                .concurrency = c.concurrency,
                .ranks = frame.ranks().Size(),
                .operations = t.operations,
                .bytes = t.bytes,
                .errors = t.errors,
                .seconds = span,
                .ops_per_second = PerSecond(static_cast<double>(t.operations), span),
                .MiB_per_second = PerSecond(static_cast<double>(t.bytes) / kMiB, span),
                .ops = {},
                .prepare = prepared,
                .cleanup = c.cleanup,
                .cache = cache};
  Sai3Outcome out;
  out.text = Sai3Ops(t, f) +
             fmt::format(
                 "{} operations in {:.3f} s over {} rank(s) x {} worker(s): {:.1f} ops/s, {:.2f} "
                 "MiB/s; prepared {} ({} written)\n",
                 t.operations, span, frame.ranks().Size(), c.concurrency, f.ops_per_second,
                 f.MiB_per_second, CountOf(prepared.objects, "object"), prepared.written);
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
  const auto gathered = frame.Gather(RankOf(figures, *storages.front()));
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
