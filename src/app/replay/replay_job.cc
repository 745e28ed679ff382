#include "app/replay/replay_job.h"

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
#include "common/output_path.h"
#include "common/units.h"
#include "metrics/op_log_reader.h"
#include "metrics/run_record_json.h"
#include "ops/replay_plan.h"
#include "ops/step_io_estimate.h"
#include "ops/workers.h"
#include "report/result_envelope.h"
#include "report/timeseries_csv.h"
#include "storage/storage_options.h"

namespace trainbench::app {
namespace {

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
  storage::CheckStorageOptionNames(o.storage_options, "--s3-option");
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

// A rank's simulated loader over its GETs (below).
struct RankPipeline {
  ops::LoaderShape shape;
  ops::PipelineEstimate estimate;
};
TB_JSON_FIELDS(RankPipeline, shape, estimate)

// One rank's plan and replay, for rank 0 to sum.
struct ReplayRank {
  ops::ReplayFigures replayed;
  std::map<ops::ReplayOp, ops::OpFigures> original;  // the op-log's, of the ops kept
  int64_t original_start_ns = 0, original_end_ns = 0;
  uint64_t dropped_by_ops = 0;
  std::optional<RankPipeline> pipeline;  // --train-results
};
TB_JSON_FIELDS(ReplayRank, replayed, original, original_start_ns, original_end_ns, dropped_by_ops,
               pipeline)

// A rank's simulated loader (ops/loader_pipeline.h) over its plan's GETs, each taking the
// time its replay took, for rank 0 to pick the slowest rank's: a data-parallel step waits
// for every process's batch.
RankPipeline PipelineOf(const ops::TrainingShape& t, const ops::ReplayPlan& plan,
                        const std::vector<float>& op_seconds) {
  std::vector<ops::LoggedGet> gets;
  for (size_t i = 0; i < plan.ops.size(); ++i) {
    const ops::PlannedOp& op = plan.ops[i];
    if (op.op != ops::ReplayOp::kGet) continue;
    const int64_t start = plan.first_start_ns + op.offset_ns;
    gets.push_back(
        {op.thread, start, start + op.duration_ns, i < op_seconds.size() ? op_seconds[i] : NAN});
  }
  const ops::LoaderRun run = ops::ReadLoaderRun(gets, t.batch_size);
  const ops::LoaderShape shape = ops::LoaderShapeOf(t, run);
  return {shape, ops::SimulateLoader(run, shape)};
}

void ApplyRanksPipeline(const std::vector<ReplayRank>& ranks, ops::StepIoEstimate& e) {
  const RankPipeline* slowest = nullptr;
  for (const ReplayRank& r : ranks)
    if (r.pipeline && (!slowest || r.pipeline->estimate.step_s > slowest->estimate.step_s))
      slowest = &*r.pipeline;
  if (slowest) ops::ApplyPipeline(e, slowest->shape, slowest->estimate);
}

// summary.json's "training": what the training's steps lose to I/O against this storage.
struct TrainingFigures {
  std::string train_results;
  std::string model;
  uint64_t batch_size = 0;
  unsigned workers = 0;
  double step_s = 0, data_wait_s_per_step = 0, compute_s_per_step = 0;
  double images_per_second_per_process = 0, load_s_per_batch = 0, mean_model_step_s = 0;
  // The simulated loader's (model "pipeline").
  std::optional<unsigned> io_depth, prefetch_batches;
  std::optional<double> hold_s_per_image;
  std::optional<uint64_t> simulated_gets, simulated_batches, simulated_timed_steps;
  std::optional<double> simulated_load_s_per_batch, first_batch_wait_s;
  double predicted_step_s = 0, io_lost_s_per_step = 0, io_lost_share = 0;
  double predicted_images_per_second_per_process = 0;
};
TB_JSON_FIELDS(TrainingFigures, train_results, model, batch_size, workers, step_s,
               data_wait_s_per_step, compute_s_per_step, images_per_second_per_process,
               load_s_per_batch, mean_model_step_s, io_depth, prefetch_batches, hold_s_per_image,
               simulated_gets, simulated_batches, simulated_timed_steps, simulated_load_s_per_batch,
               first_batch_wait_s, predicted_step_s, io_lost_s_per_step, io_lost_share,
               predicted_images_per_second_per_process)

TrainingFigures TrainingFiguresOf(const ops::TrainingShape& t, const ops::StepIoEstimate& e) {
  const bool pipeline = e.model == "pipeline";
  TrainingFigures f;
  f.train_results = t.path;
  f.model = e.model;
  f.batch_size = t.batch_size;
  f.workers = pipeline ? e.loader.workers : t.workers;
  f.step_s = e.step_s;
  f.data_wait_s_per_step = e.data_wait_s;
  f.compute_s_per_step = e.compute_s;
  f.images_per_second_per_process = e.images_per_s;
  f.load_s_per_batch = e.load_s;
  f.mean_model_step_s = e.mean_step_s;
  if (pipeline) {
    f.io_depth = e.loader.io_depth;
    f.prefetch_batches = e.loader.prefetch;
    f.hold_s_per_image = e.loader.hold_s;
    f.simulated_gets = e.pipeline.gets;
    f.simulated_batches = e.pipeline.batches;
    f.simulated_timed_steps = e.pipeline.timed_steps;
    f.simulated_load_s_per_batch = e.pipeline.load_s;
    f.first_batch_wait_s = e.first_batch_wait_s;
  }
  f.predicted_step_s = e.predicted_step_s;
  f.io_lost_s_per_step = e.lost_s;
  f.io_lost_share = e.lost_share;
  f.predicted_images_per_second_per_process = e.predicted_images_per_s;
  return f;
}

std::string StepIoText(const ops::TrainingShape& t, const ops::StepIoEstimate& e,
                       unsigned concurrency) {
  std::string text = fmt::format(
      "the training ({}): {:.3f} s a step of {} images, {:.3f} s of it waiting for data, "
      "{:.3f} s computing\n",
      t.path, e.step_s, t.batch_size, e.data_wait_s, e.compute_s);
  if (e.model != "pipeline")
    return text + fmt::format(
                      "here its loader ({} reads in flight) brings {:.1f} images/s: {:.3f} s a "
                      "batch\npredicted (means): {:.3f} s a step, {:.3f} s of it lost to I/O, "
                      "{:.1f} images/s per process\n",
                      concurrency, e.images_per_s, e.load_s, e.predicted_step_s, e.lost_s,
                      e.predicted_images_per_s);
  const ops::LoaderShape& l = e.loader;
  text += fmt::format(
      "its loader simulated over the {} replayed GETs ({} worker(s) x {} read(s) in flight, {} "
      "batches ahead{}): {:.3f} s a batch, the first after {:.3f} s\n"
      "predicted: {:.3f} s a step, {:.3f} s of it lost to I/O ({:.1f}%), {:.1f} images/s per "
      "process (the means: {:.3f} s a step)\n",
      e.pipeline.gets, l.workers, l.io_depth, l.prefetch,
      l.hold_s > 0 ? fmt::format(", {:.2f} ms an image after its read", l.hold_s * 1e3) : "",
      e.pipeline.load_s, e.first_batch_wait_s, e.predicted_step_s, e.lost_s, 100 * e.lost_share,
      e.predicted_images_per_s, e.mean_step_s);
  if (l.workers * l.io_depth != concurrency)
    text += fmt::format(
        "note: the training's loader had {} worker(s) x {} read(s) in flight and this replay {}: "
        "give --concurrency {} for its GETs' times\n",
        l.workers, l.io_depth, concurrency, l.workers * l.io_depth);
  return text;
}

// The options a storage of the log opens with. An s3:// one goes to the server the log says
// it is on (its endpoint_url column: `from_log`) unless an endpoint is given (--s3-option
// endpoint_url, AWS_ENDPOINT_URL, ~/.aws/config); where the log does not say either, it is
// refused at once: S3's default endpoint is AWS, and a log of another server replayed there
// fails every operation, after the retries, on names AWS does not know.
std::map<std::string, std::string> StorageOptionsFor(const ops::PlannedStorage& s,
                                                     const ReplayOptions& o,
                                                     const std::string& path, bool& from_log) {
  from_log = false;
  if (s.uri.rfind("s3://", 0) != 0 || !o.target.empty() ||
      storage::S3EndpointGiven(o.storage_options))
    return o.storage_options;
  if (s.endpoint_url.empty())
    throw UsageError(fmt::format(
        "op-log {} names {} but not the S3 server it is on (it has no endpoint_url column: "
        "an op-log of an older trainbench, or of sai3-bench), and no endpoint is given, so the "
        "replay would go to AWS: give --s3-option endpoint_url=URL (or set AWS_ENDPOINT_URL); "
        "for AWS S3 itself, --s3-option endpoint_url=https://s3.REGION.amazonaws.com",
        path, s.uri));
  from_log = true;
  auto options = o.storage_options;
  options["endpoint_url"] = s.endpoint_url;
  return options;
}

// The job of a mix whose op-log this is: the name after '/' that every line's client id ends
// with (`mix --op-log` writes "host:rank/job"); "" for any other log.
std::string MixJobOf(const metrics::OpLogContents& log) {
  std::string job;
  for (const auto& e : log.entries) {
    const auto slash = e.client_id.rfind('/');
    if (slash == std::string::npos) return "";
    const std::string mine = e.client_id.substr(slash + 1);
    if (!job.empty() && mine != job) return "";
    job = mine;
  }
  return job;
}

// What a replay reads and replays against, opened before the job begins.
struct ReplayInputs {
  std::optional<ops::TrainingShape> training;
  std::string path;  // this rank's op-log
  metrics::OpLogContents log;
  ops::ReplayPlan plan;
  std::vector<std::unique_ptr<storage::Storage>> storages;
  std::string where;              // the storages, for the text
  std::vector<float> op_seconds;  // --train-results: each op's replayed time (a float per op)
};

ReplayInputs OpenReplay(const ReplayOptions& options, JobEnv& env) {
  ReplayInputs in;
  if (!options.train_results.empty()) in.training = ops::ReadTrainingShape(options.train_results);
  dist::Communicator& ranks = env.ranks;
  in.path = OpLogPath(options.op_log, ranks);
  if (access(in.path.c_str(), R_OK) != 0)
    throw UsageError(fmt::format(
        "op-log {}: cannot read it ({}){}", in.path, std::strerror(errno),
        ranks.Size() > 1 ? ": under mpirun each rank replays its own rank's file, as `run "
                           "--op-log` wrote them"
                         : ""));
  in.log = metrics::ReadOpLog(in.path);
  std::set<ops::ReplayOp> kinds;
  for (const auto& op : options.ops) kinds.insert(ops::ReplayOpOf(op));
  in.plan = ops::PlanReplay(in.log.entries, kinds, options.target, in.path);
  for (const auto& s : in.plan.storages) {
    bool from_log = false;
    in.storages.push_back(
        env.open_storage(s.uri, StorageOptionsFor(s, options, in.path, from_log)));
    in.where += (in.where.empty() ? "" : ", ") + s.uri +
                (from_log ? fmt::format(" (at {}, as the op-log says)", s.endpoint_url) : "");
  }
  CheckWritesTarget(in.plan, options, in.storages);
  return in;
}

ops::ReplaySettings ReplaySettingsFor(const ReplayOptions& options, const ops::ReplayPlan& plan) {
  ops::ReplaySettings settings;
  settings.timed = options.mode == "timed";
  settings.speed = options.speed;
  settings.concurrency =
      options.mode == "sequential" ? 1
      : options.concurrency
          ? options.concurrency
          // As many workers as the original had operations in flight: a training's loader
          // thread keeps several reads in flight (train --io-depth), so its threads undercount.
          : static_cast<unsigned>(std::clamp<uint64_t>(std::max(plan.threads, plan.most_in_flight),
                                                       1, kDefaultMaxConcurrency));
  return settings;
}

// The work: every rank replays its plan from a start rank 0 sets for all, under the live
// display, its bytes and operations sampled into the time series.
ops::ReplayFigures ReplayWork(JobFrame& frame, const ReplayOptions& options, ReplayInputs& in,
                              ops::ReplaySettings& settings, TimeseriesResult& timeseries) {
  dist::Communicator& ranks = frame.ranks();
  InstallInterruptHandler();
  // A timed replay keeps the ranks' operations where they were relative to each other: offsets
  // from the first operation of any rank's log, from a start that rank 0 sets for all (the
  // hosts' clocks agree as NTP makes them).
  int64_t job_first_ns = in.plan.first_start_ns;
  for (const auto& first : ranks.AllGather(std::to_string(in.plan.first_start_ns)))
    job_first_ns = std::min<int64_t>(job_first_ns, std::stoll(first));
  settings.rank_offset_ns = in.plan.first_start_ns - job_first_ns;
  const int64_t start_ns =
      std::stoll(ranks.AllGather(std::to_string(metrics::WallNanos() + 100000000)).front());
  if (!ranks.Barrier()) throw Interrupted("replay interrupted before it started");
  ops::ReplayProgress progress;
  LiveDisplay display(STDERR_FILENO,
                      LiveDisplay::ModeFor(STDERR_FILENO, options.progress && frame.lead()), 10.0,
                      0.25);
  auto sampling = frame.Sample([&progress](metrics::IntervalProbe& p) {
    p.bytes = progress.bytes.load(std::memory_order_relaxed);
    p.reads = progress.ops.load(std::memory_order_relaxed);
    p.phase = metrics::LivePhase::kReplay;
  });
  ops::ReplayFigures figures;
  const auto t0 = std::chrono::steady_clock::now();
  RunShowingStatus(
      [&] { figures = ops::RunReplay(in.plan, in.storages, settings, start_ns, progress); },
      [&] {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return fmt::format("replay: {}/{} ops, {}, {:.1f} s", progress.ops.load(),
                           in.plan.ops.size(),
                           FormatBytes(static_cast<double>(progress.bytes.load())), elapsed);
      },
      display);
  timeseries = sampling->Finish();
  return figures;
}

// The ranks' figures summed on rank 0.
struct ReplayTotals {
  ops::OpFiguresByName original, replayed;
  int64_t original_start = INT64_MAX, original_end = 0;
  RanksSpan span;
  uint64_t late = 0, max_late_ns = 0, dropped = 0;
  double OriginalSeconds() const { return SecondsBetween(original_start, original_end); }
};

ReplayTotals SumReplayRanks(const std::vector<ReplayRank>& ranks) {
  ReplayTotals t;
  for (const ReplayRank& r : ranks) {
    ops::MergeByName(t.original, ops::ByName(r.original));
    ops::MergeByName(t.replayed, ops::ByName(r.replayed.ops));
    t.original_start = std::min(t.original_start, r.original_start_ns);
    t.original_end = std::max(t.original_end, r.original_end_ns);
    t.span.Add(r.replayed);
    t.late += r.replayed.late;
    t.max_late_ns = std::max(t.max_late_ns, r.replayed.max_late_ns);
    t.dropped += r.dropped_by_ops;
  }
  return t;
}

// One operation kind's row of summary.json, the original beside the replay.
struct ReplayOpRow {
  std::string op;
  OpRow original, replayed;
};
TB_JSON_FIELDS(ReplayOpRow, op, original, replayed)

// summary.json's figures of a replay.
struct ReplaySummary {
  std::string op_log, mode;
  std::string job;  // the mix's job whose op-log this is ("" for any other)
  double speed = 1;
  unsigned concurrency = 0;
  int ranks = 1;
  std::string target, storages;
  uint64_t operations = 0, original_operations = 0, not_in_ops = 0, errors = 0;
  double seconds = 0, original_seconds = 0, speedup = 0;
  uint64_t late_operations = 0;
  double max_late_ms = 0;
  std::vector<ReplayOpRow> ops;
  std::optional<TrainingFigures> training;  // --train-results
};
TB_JSON_FIELDS(ReplaySummary, op_log, mode, job, speed, concurrency, ranks, target, storages,
               operations, original_operations, not_in_ops, errors, seconds, original_seconds,
               speedup, late_operations, max_late_ms, ops, training)

ReplaySummary SummaryOf(const ReplayTotals& t, const ReplayOptions& options,
                        const ops::ReplaySettings& settings, int ranks, const std::string& where,
                        const metrics::OpLogContents& in_log) {
  ReplaySummary f{.op_log = options.op_log,
                  .mode = options.mode,
                  .job = MixJobOf(in_log),
                  .speed = options.speed,
                  .concurrency = settings.concurrency,
                  .ranks = ranks,
                  .target = options.target,
                  .storages = where,
                  .ops = {},
                  .training = std::nullopt};
  f.seconds = t.span.Seconds();
  f.original_seconds = t.OriginalSeconds();
  for (const auto& [op, original] : t.original) {
    const auto it = t.replayed.find(op);
    const ops::OpFigures& replayed = it == t.replayed.end() ? ops::OpFigures() : it->second;
    f.original_operations += original.count;
    f.operations += replayed.count;
    f.errors += replayed.errors;
    f.ops.push_back({op, RowOf(original, f.original_seconds), RowOf(replayed, f.seconds)});
  }
  f.not_in_ops = t.dropped;
  f.speedup = f.seconds > 0 ? f.original_seconds / f.seconds : 0.0;
  f.late_operations = t.late;
  f.max_late_ms = static_cast<double>(t.max_late_ns) / 1e6;
  return f;
}

// The table of operation kinds: each one's original line above its replay's.
std::string ReplayOpsTable(const ReplayTotals& t) {
  static const ops::OpFigures kNone;
  std::vector<OpLine> lines;
  for (const auto& [op, original] : t.original) {
    const auto it = t.replayed.find(op);
    lines.push_back({.label = op + " orig",
                     .figures = &original,
                     .seconds = t.OriginalSeconds(),
                     .share = std::nullopt,
                     .first_byte = nullptr});
    lines.push_back({.label = op,
                     .figures = it == t.replayed.end() ? &kNone : &it->second,
                     .seconds = t.span.Seconds(),
                     .share = std::nullopt,
                     .first_byte = nullptr});
  }
  return OpsTable(lines);
}

// Rank 0's report: the table, the figures of summary.json, and how the replay ended.
ReplayOutcome ReportReplay(JobFrame& frame, const ReplayOptions& options, const ReplayInputs& in,
                           const ops::ReplaySettings& settings,
                           const std::vector<ReplayRank>& gathered,
                           const TimeseriesResult& timeseries) {
  const ReplayTotals t = SumReplayRanks(gathered);
  ReplaySummary f = SummaryOf(t, options, settings, frame.ranks().Size(), in.where, in.log);
  std::optional<ops::StepIoEstimate> step_io;
  if (in.training) {
    const auto get = t.replayed.find("GET");
    step_io = ops::EstimateStepIo(*in.training, get == t.replayed.end() ? 0 : get->second.count,
                                  f.seconds, frame.ranks().Size());
    ApplyRanksPipeline(gathered, *step_io);
    f.training = TrainingFiguresOf(*in.training, *step_io);
  }
  ReplayOutcome out;
  out.text =
      ReplayOpsTable(t) +
      fmt::format(
          "replayed {} of {} operations in {:.3f} s (the original took {:.3f} s: {:.2f}x){}\n",
          f.operations, f.original_operations, f.seconds, f.original_seconds, f.speedup,
          settings.timed ? fmt::format("; {} began over 1 ms late (at most {:.1f} ms): raise "
                                       "--concurrency if many did",
                                       t.late, f.max_late_ms)
                         : "");
  if (step_io) out.text += StepIoText(*in.training, *step_io, settings.concurrency);
  frame.End(
      out,
      {t.span.interrupted, !t.span.interrupted && f.operations == f.original_operations, f.errors},
      f, timeseries, "trainbench_replay",
      {"mode", "speed", "concurrency", "ranks", "operations", "original_operations", "errors",
       "seconds", "original_seconds", "speedup"},
      step_io ? ordered_json{{"io_lost_s_per_step", step_io->lost_s}} : ordered_json::object());
  return out;
}

}  // namespace

ReplayOutcome ReplayJob(const ReplayOptions& options, JobEnv& env) {
  CheckReplayOptions(options);
  ReplayInputs in = OpenReplay(options, env);
  ops::ReplaySettings settings = ReplaySettingsFor(options, in.plan);
  if (in.training) {
    in.op_seconds.assign(in.plan.ops.size(), NAN);
    settings.op_seconds = &in.op_seconds;
  }
  JobFrame frame(env, "replay", options.op_log,
                 {{"op_log", options.op_log},
                  {"target", options.target},
                  {"mode", options.mode},
                  {"speed", options.speed},
                  {"ops", options.ops},
                  {"concurrency", settings.concurrency},
                  {"own_op_log", options.own_op_log}},
                 options.interval_s);
  // A mix's job's operations replayed are still that job's: its own log's lines say so too.
  const std::string job = MixJobOf(in.log);
  JobOpLog own_log(options.own_op_log, frame.ranks(), in.storages.front()->Describe(""), job);
  if (own_log) own_log.log()->NoteEndpointUrl(in.storages.front()->EndpointUrl());
  settings.op_log = own_log.log();
  frame.Begin("replay", {{"op_log", options.op_log},
                         {"mode", options.mode},
                         {"original_operations", in.plan.ops.size()}});
  if (!in.log.dropped.empty())
    frame.log().Warn(
        fmt::format("op-log {}: read up to its last whole line ({})", in.path, in.log.dropped));
  frame.log().Info(fmt::format(
      "replay {}{}: {} operations over {:.3f} s, {} mode{}, {} worker(s){}, against {}", in.path,
      job.empty() ? "" : fmt::format(" (job {} of a mix)", job), in.plan.ops.size(),
      SecondsBetween(in.plan.first_start_ns, in.plan.last_end_ns), options.mode,
      settings.timed ? fmt::format(" at {}x", options.speed) : "", settings.concurrency,
      frame.ranks().Size() > 1 ? fmt::format(" per rank, {} ranks", frame.ranks().Size()) : "",
      in.where));
  TimeseriesResult timeseries;
  const ops::ReplayFigures figures = ReplayWork(frame, options, in, settings, timeseries);
  if (own_log) frame.log().Info(own_log.Close());
  ReplayRank mine{.replayed = figures,
                  .original = in.plan.original,
                  .original_start_ns = in.plan.first_start_ns,
                  .original_end_ns = in.plan.last_end_ns,
                  .dropped_by_ops = in.plan.dropped_by_ops,
                  .pipeline = std::nullopt};
  if (in.training) mine.pipeline = PipelineOf(*in.training, in.plan, in.op_seconds);
  const auto gathered = frame.Gather(mine);
  if (!frame.lead()) return {};
  return ReportReplay(frame, options, in, settings, gathered, timeseries);
}

}  // namespace trainbench::app
