#include "app/replay_job.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <optional>
#include <set>
#include <thread>

#include "app/job_checks.h"
#include "app/job_log.h"
#include "app/job_op_log.h"
#include "app/job_worker.h"
#include "app/results_writer.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/live_display.h"
#include "common/output_path.h"
#include "common/storage_option_names.h"
#include "common/units.h"
#include "metrics/op_log_reader.h"
#include "metrics/run_record_json.h"
#include "ops/replay_plan.h"
#include "ops/step_io_estimate.h"
#include "ops/workers.h"
#include "report/latency_histogram_json.h"
#include "report/result_envelope.h"
#include "report/timeseries_csv.h"

namespace trainbench::app {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr unsigned kDefaultMaxConcurrency = 64;

void CheckReplayOptions(const ReplayOptions& o) {
  if (o.mode != "sequential" && o.mode != "parallel" && o.mode != "timed")
    throw UsageError(fmt::format(
        "--mode {}: give sequential (one at a time), parallel (as fast as --concurrency "
        "workers go) or timed (each at its original time over --speed)",
        o.mode));
  if (!std::isfinite(o.speed) || o.speed <= 0 || o.speed > 1000)
    throw UsageError(fmt::format("--speed {}: give a factor above 0 and at most 1000", o.speed));
  if (o.speed != 1 && o.mode != "timed")
    throw UsageError("--speed applies to --mode timed only (the others go as fast as they can)");
  if (o.concurrency > kMaxReplayConcurrency)
    throw UsageError(
        fmt::format("--concurrency {}: at most {}", o.concurrency, kMaxReplayConcurrency));
  if (o.mode == "sequential" && o.concurrency > 1)
    throw UsageError("--mode sequential replays one operation at a time: drop --concurrency");
  for (const auto& op : o.ops) ops::ReplayOpOf(op);
  for (const auto& [key, value] : o.storage_options)
    if (const std::string wrong = UnknownStorageOption(key); !wrong.empty())
      throw UsageError("--s3-option " + wrong);
  if (!o.own_op_log.empty()) CheckWritableFile(o.own_op_log, "--op-log");
  CheckInterval(o.interval_s);
  if (!o.train_results.empty() && o.mode != "parallel")
    throw UsageError(fmt::format(
        "--train-results estimates a training's steps from how fast the loader's reads go: "
        "give --mode parallel (with the loader's concurrency), not {}",
        o.mode));
}

// Replayed writes land only where nothing is: a log's PUTs would otherwise overwrite what is
// there, and its DELETEs could remove it.
void CheckWritesTarget(const ops::ReplayPlan& plan, const ReplayOptions& o,
                       std::vector<std::unique_ptr<storage::Storage>>& storages) {
  if (!plan.writes) return;
  if (o.target.empty())
    throw UsageError(
        "the op-log has PUTs or DELETEs: give --target URI, an empty folder or s3://bucket/prefix "
        "for them (a replay writes random data; it never writes where the original did), or "
        "--ops GET,HEAD,LIST to replay its reads alone");
  const auto there = storages.front()->List("");
  if (!there.empty())
    throw UsageError(fmt::format(
        "--target {} holds {} object(s) ({} first): the op-log has PUTs or DELETEs, which would "
        "replace them with random data; give an empty folder or prefix",
        o.target, there.size(), storages.front()->Describe(there.front().path)));
}

// One rank's plan and replay, as JSON for rank 0 to sum.
json RankJson(const ops::ReplayPlan& plan, const ops::ReplayFigures& f) {
  json by_op = json::object();
  for (const auto& [op, original] : plan.original) {
    const auto it = f.ops.find(op);
    by_op[ops::ReplayOpName(op)] = {
        {"original",
         {{"count", original.count},
          {"bytes", original.bytes},
          {"errors", original.errors},
          {"latency", original.latency_ns}}},
        {"replayed", ops::ReplayedToJson(it == f.ops.end() ? ops::ReplayedOps() : it->second)}};
  }
  return {{"ops", by_op},
          {"original_start_ns", plan.first_start_ns},
          {"original_end_ns", plan.last_end_ns},
          {"start_ns", f.start_ns},
          {"end_ns", f.end_ns},
          {"late", f.late},
          {"max_late_ns", f.max_late_ns},
          {"interrupted", f.interrupted},
          {"dropped_by_ops", plan.dropped_by_ops}};
}

struct OpTotals {
  ops::OriginalOps original;
  ops::ReplayedOps replayed;
};

ordered_json StepIoJson(const ops::TrainingShape& t, const ops::StepIoEstimate& e) {
  ordered_json j;
  j["train_results"] = t.path;
  j["batch_size"] = t.batch_size;
  j["workers"] = t.workers;
  j["step_s"] = e.step_s;
  j["data_wait_s_per_step"] = e.data_wait_s;
  j["compute_s_per_step"] = e.compute_s;
  j["images_per_second_per_process"] = e.images_per_s;
  j["load_s_per_batch"] = e.load_s;
  j["predicted_step_s"] = e.predicted_step_s;
  j["io_lost_s_per_step"] = e.lost_s;
  j["predicted_images_per_second_per_process"] = e.predicted_images_per_s;
  return j;
}

std::string StepIoText(const ops::TrainingShape& t, const ops::StepIoEstimate& e,
                       unsigned concurrency) {
  std::string text = fmt::format(
      "the training ({}): {:.3f} s a step of {} images, {:.3f} s of it waiting for data\n"
      "here its loader ({} reads in flight) brings {:.1f} images/s: {:.3f} s a batch against "
      "{:.3f} s of compute\n"
      "predicted: {:.3f} s a step, {:.3f} s of it lost to I/O, {:.1f} images/s per process\n",
      t.path, e.step_s, t.batch_size, e.data_wait_s, concurrency, e.images_per_s, e.load_s,
      e.compute_s, e.predicted_step_s, e.lost_s, e.predicted_images_per_s);
  if (t.workers != 0 && t.workers != concurrency)
    text += fmt::format(
        "note: the training's loader had {} workers and this replay {}: give --concurrency {} "
        "for its figure\n",
        t.workers, concurrency, t.workers);
  return text;
}

}  // namespace

ReplayOutcome ReplayJob(const ReplayOptions& options, JobEnv& env) {
  CheckReplayOptions(options);
  std::optional<ops::TrainingShape> training;
  if (!options.train_results.empty()) training = ops::ReadTrainingShape(options.train_results);
  dist::Communicator& ranks = env.ranks;
  const std::string path = OpLogPath(options.op_log, ranks);
  if (access(path.c_str(), R_OK) != 0)
    throw UsageError(fmt::format(
        "op-log {}: cannot read it ({}){}", path, std::strerror(errno),
        ranks.Size() > 1 ? ": under mpirun each rank replays its own rank's file, as `run "
                           "--op-log` wrote them"
                         : ""));
  const metrics::OpLogContents log = metrics::ReadOpLog(path);
  std::set<ops::ReplayOp> kinds;
  for (const auto& op : options.ops) kinds.insert(ops::ReplayOpOf(op));
  const ops::ReplayPlan plan = ops::PlanReplay(log.entries, kinds, options.target, path);
  std::vector<std::unique_ptr<storage::Storage>> storages;
  for (const auto& s : plan.storages)
    storages.push_back(env.open_storage(s.uri, options.storage_options));
  CheckWritesTarget(plan, options, storages);

  ResultsSink* results = ranks.Rank() == 0 ? env.results : nullptr;
  JobLog job_log(results);
  report::ResultEnvelope envelope = StartEnvelope("replay", options.op_log, ranks);
  ReplayOutcome out;
  ops::ReplaySettings settings;
  settings.timed = options.mode == "timed";
  settings.speed = options.speed;
  settings.concurrency =
      options.mode == "sequential" ? 1
      : options.concurrency
          ? options.concurrency
          : static_cast<unsigned>(std::clamp<uint64_t>(plan.threads, 1, kDefaultMaxConcurrency));
  JobOpLog own_log(options.own_op_log, ranks, storages.front()->Describe(""));
  settings.op_log = own_log.log();
  envelope.config = {{"op_log", options.op_log},
                     {"target", options.target},
                     {"mode", options.mode},
                     {"speed", options.speed},
                     {"ops", options.ops},
                     {"concurrency", settings.concurrency},
                     {"own_op_log", options.own_op_log}};
  // The folder and its first summary before any operation: a killed replay leaves them.
  ResultsWriter writer(results, envelope, options.interval_s);
  writer.Open("replay", {{"op_log", options.op_log},
                         {"mode", options.mode},
                         {"original_operations", plan.ops.size()}});
  if (!log.dropped.empty())
    job_log.Warn(fmt::format("op-log {}: read up to its last whole line ({})", path, log.dropped));
  std::string where;
  for (const auto& s : plan.storages) where += (where.empty() ? "" : ", ") + s.uri;
  job_log.Info(fmt::format(
      "replay {}: {} operations over {:.3f} s, {} mode{}, {} worker(s){}, against {}", path,
      plan.ops.size(), SecondsBetween(plan.first_start_ns, plan.last_end_ns), options.mode,
      settings.timed ? fmt::format(" at {}x", options.speed) : "", settings.concurrency,
      ranks.Size() > 1 ? fmt::format(" per rank, {} ranks", ranks.Size()) : "", where));

  InstallInterruptHandler();
  // A timed replay keeps the ranks' operations where they were relative to each other: offsets
  // from the first operation of any rank's log, from a start that rank 0 sets for all (the
  // hosts' clocks agree as NTP makes them).
  int64_t job_first_ns = plan.first_start_ns;
  for (const auto& first : ranks.AllGather(std::to_string(plan.first_start_ns)))
    job_first_ns = std::min<int64_t>(job_first_ns, std::stoll(first));
  settings.rank_offset_ns = plan.first_start_ns - job_first_ns;
  const int64_t start_ns =
      std::stoll(ranks.AllGather(std::to_string(metrics::WallNanos() + 100000000)).front());
  if (!ranks.Barrier()) throw Interrupted("replay interrupted before it started");
  ops::ReplayProgress progress;
  LiveDisplay display(STDERR_FILENO,
                      LiveDisplay::ModeFor(STDERR_FILENO, options.progress && ranks.Rank() == 0),
                      10.0, 0.25);
  JobTimeseries sampling(
      results ? options.interval_s : 0, nullptr, nullptr,
      [&progress](metrics::IntervalProbe& p) {
        p.bytes = progress.bytes.load(std::memory_order_relaxed);
        p.reads = progress.ops.load(std::memory_order_relaxed);
        p.phase = metrics::LivePhase::kReplay;
      },
      [&writer](const metrics::TimeseriesRow& row) { writer.Row(row); });
  ops::ReplayFigures figures;
  const auto t0 = std::chrono::steady_clock::now();
  RunShowingStatus(
      [&] { figures = ops::RunReplay(plan, storages, settings, start_ns, progress); },
      [&] {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return fmt::format("replay: {}/{} ops, {}, {:.1f} s", progress.ops.load(), plan.ops.size(),
                           FormatBytes(static_cast<double>(progress.bytes.load())), elapsed);
      },
      display);
  const TimeseriesResult timeseries = sampling.Finish();
  if (own_log) job_log.Info(own_log.Close());

  // Rank 0 sums the ranks.
  const auto gathered = ranks.Gather(RankJson(plan, figures).dump());
  envelope.finished = UtcStamp();
  if (ranks.Rank() != 0) return out;
  out.reports = true;
  std::map<std::string, OpTotals> totals;
  int64_t original_start = INT64_MAX, original_end = 0, start = INT64_MAX, end = 0;
  uint64_t late = 0, max_late_ns = 0, dropped = 0;
  bool interrupted = false;
  for (const auto& text : gathered) {
    const json r = json::parse(text);
    for (const auto& [op, j] : r.at("ops").items()) {
      OpTotals& t = totals[op];
      const json& o = j.at("original");
      t.original.count += o.at("count").get<uint64_t>();
      t.original.bytes += o.at("bytes").get<uint64_t>();
      t.original.errors += o.at("errors").get<uint64_t>();
      t.original.latency_ns.Merge(o.at("latency").get<metrics::Histogram>());
      t.replayed.Add(ops::ReplayedFromJson(j.at("replayed")));
    }
    original_start = std::min(original_start, r.at("original_start_ns").get<int64_t>());
    original_end = std::max(original_end, r.at("original_end_ns").get<int64_t>());
    if (r.at("end_ns").get<int64_t>() > 0) {
      start = std::min(start, r.at("start_ns").get<int64_t>());
      end = std::max(end, r.at("end_ns").get<int64_t>());
    }
    late += r.at("late").get<uint64_t>();
    max_late_ns = std::max(max_late_ns, r.at("max_late_ns").get<uint64_t>());
    interrupted = interrupted || r.at("interrupted").get<bool>();
    dropped += r.at("dropped_by_ops").get<uint64_t>();
  }
  const double original_span = SecondsBetween(original_start, original_end);
  const double span = SecondsBetween(start, end);
  std::optional<ops::StepIoEstimate> step_io;
  if (training) {
    const auto get = totals.find("GET");
    step_io = ops::EstimateStepIo(*training, get == totals.end() ? 0 : get->second.replayed.count,
                                  span, ranks.Size());
  }
  uint64_t original_ops = 0, replayed_ops = 0, errors = 0;
  ordered_json op_rows = ordered_json::array();
  out.text = fmt::format("{:<7} {:>9} {:>9} {:>11} {:>11} {:>10} {:>21} {:>21}  {}\n", "op",
                         "orig ops", "ops", "orig MB", "MB", "ops/s", "p50 ms orig/replay",
                         "p99 ms orig/replay", "errors");
  for (const auto& [op, t] : totals) {
    original_ops += t.original.count;
    replayed_ops += t.replayed.count;
    errors += t.replayed.errors;
    const auto& ol = t.original.latency_ns;
    const auto& rl = t.replayed.latency_ns;
    op_rows.push_back(
        {{"op", op},
         {"original",
          {{"count", t.original.count},
           {"bytes", t.original.bytes},
           {"errors", t.original.errors},
           {"ops_per_second", PerSecond(static_cast<double>(t.original.count), original_span)},
           {"MiB_per_second",
            PerSecond(static_cast<double>(t.original.bytes) / kMiB, original_span)},
           {"latency_ms", report::LatencyJson(ol, 1e-6)}}},
         {"replayed",
          {{"count", t.replayed.count},
           {"bytes", t.replayed.bytes},
           {"errors", t.replayed.errors},
           {"skipped", t.replayed.skipped},
           {"first_error", t.replayed.first_error},
           {"ops_per_second", PerSecond(static_cast<double>(t.replayed.count), span)},
           {"MiB_per_second", PerSecond(static_cast<double>(t.replayed.bytes) / kMiB, span)},
           {"latency_ms", report::LatencyJson(rl, 1e-6)}}}});
    out.text += fmt::format(
        "{:<7} {:>9} {:>9} {:>11.3f} {:>11.3f} {:>10.1f} {:>10.3f}/{:<10.3f} {:>10.3f}/{:<10.3f}  "
        "{}\n",
        op, t.original.count, t.replayed.count, static_cast<double>(t.original.bytes) / 1e6,
        static_cast<double>(t.replayed.bytes) / 1e6,
        PerSecond(static_cast<double>(t.replayed.count), span), ol.Percentile(0.5) / 1e6,
        rl.Percentile(0.5) / 1e6, ol.Percentile(0.99) / 1e6, rl.Percentile(0.99) / 1e6,
        t.replayed.errors ? fmt::format("{} ({})", t.replayed.errors, t.replayed.first_error)
                          : "0");
  }
  out.text += fmt::format(
      "replayed {} of {} operations in {:.3f} s (the original took {:.3f} s: {:.2f}x){}\n",
      replayed_ops, original_ops, span, original_span, span > 0 ? original_span / span : 0.0,
      settings.timed ? fmt::format("; {} began over 1 ms late (at most {:.1f} ms): raise "
                                   "--concurrency if many did",
                                   late, static_cast<double>(max_late_ns) / 1e6)
                     : "");
  if (step_io) out.text += StepIoText(*training, *step_io, settings.concurrency);
  envelope.complete = !interrupted && replayed_ops == original_ops;
  if (interrupted) envelope.stop_reason = "interrupted";
  // Interrupted, it exits 130 as every job does; an operation that failed is a failure.
  out.exit_code = interrupted  ? static_cast<int>(ExitCode::kInterrupted)
                  : errors > 0 ? static_cast<int>(ExitCode::kRuntime)
                               : 0;
  if (interrupted) out.error = "interrupted: what ran is reported above, marked incomplete";

  ordered_json f;
  f["op_log"] = options.op_log;
  f["mode"] = options.mode;
  f["speed"] = options.speed;
  f["concurrency"] = settings.concurrency;
  f["ranks"] = ranks.Size();
  f["target"] = options.target;
  f["storages"] = where;
  f["operations"] = replayed_ops;
  f["original_operations"] = original_ops;
  f["not_in_ops"] = dropped;
  f["errors"] = errors;
  f["seconds"] = span;
  f["original_seconds"] = original_span;
  f["speedup"] = span > 0 ? original_span / span : 0.0;
  f["late_operations"] = late;
  f["max_late_ms"] = static_cast<double>(max_late_ns) / 1e6;
  f["ops"] = op_rows;
  if (step_io) f["training"] = StepIoJson(*training, *step_io);
  out.results = writer.Finish(envelope, f, timeseries);
  ordered_json line;
  ordered_json short_figures;
  for (const char* key :
       {"mode", "speed", "concurrency", "ranks", "operations", "original_operations", "errors",
        "seconds", "original_seconds", "speedup"})
    short_figures[key] = f[key];
  if (step_io) short_figures["io_lost_s_per_step"] = step_io->lost_s;
  line["trainbench_replay"] = short_figures;
  out.line = FinalLine(line, envelope, out.results.folder);
  return out;
}

}  // namespace trainbench::app
