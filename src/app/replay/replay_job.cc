#include "app/replay/replay_job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
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
#include "metrics/op_log.h"
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
  if (o.op_logs.empty()) throw UsageError("replay needs an op-log: give OPLOG");
  for (size_t i = 0; i < o.op_logs.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (o.op_logs[i] == o.op_logs[k])
        throw UsageError(fmt::format("op-log {} is given twice: give each once", o.op_logs[i]));
  if (o.op_logs.size() > 1 && !o.train_results.empty())
    throw UsageError(
        "--train-results estimates one training's steps: give that training's op-log alone");
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
// `target` is the op-log's (--target, or its --job-target), `where` the op-log and its flag.
void CheckWritesTarget(const ops::ReplayPlan& plan, const std::string& target,
                       const std::string& flag, const std::string& where,
                       std::vector<std::unique_ptr<storage::Storage>>& storages) {
  if (!plan.writes) return;
  if (target.empty())
    throw UsageError(fmt::format(
        "op-log {} has PUTs or DELETEs: give --target URI (or, among several op-logs, "
        "--job-target JOB=URI for its job alone), an empty folder or s3://bucket/prefix for "
        "them (a replay writes random data; it never writes where the original did), or --ops "
        "GET,HEAD,LIST to replay its reads alone",
        where));
  const auto there = storages.front()->List("");
  if (!there.empty())
    throw UsageError(fmt::format(
        "{}{} holds {} object(s) ({} first): op-log {} has PUTs or DELETEs, which would "
        "replace them with random data; give an empty folder or prefix",
        flag, target, there.size(), storages.front()->Describe(there.front().path), where));
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
                                                     const std::string& target,
                                                     const std::string& path, bool& from_log) {
  from_log = false;
  if (s.uri.rfind("s3://", 0) != 0 || !target.empty() ||
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

// What a replay reads and replays against for one op-log, opened before the job begins.
struct ReplayInputs {
  std::optional<ops::TrainingShape> training;
  std::string given;  // the op-log as given
  std::string path;   // this rank's file of it
  // The mix's job it is (MixJobOf), or with several op-logs and none named, the op-log as
  // given: what its figures are listed under.
  std::string job;
  std::string target, target_flag;  // --target, or its job's --job-target
  metrics::OpLogContents log;
  ops::ReplayPlan plan;
  std::vector<std::unique_ptr<storage::Storage>> storages;
  std::string where;              // the storages, for the text
  std::vector<float> op_seconds;  // --train-results: each op's replayed time (a float per op)
};

// Reads an op-log (this rank's file of it).
ReplayInputs ReadReplay(const ReplayOptions& options, const std::string& given, JobEnv& env) {
  ReplayInputs in;
  dist::Communicator& ranks = env.ranks;
  in.given = given;
  in.path = OpLogPath(given, ranks);
  if (access(in.path.c_str(), R_OK) != 0)
    throw UsageError(fmt::format(
        "op-log {}: cannot read it ({}){}", in.path, std::strerror(errno),
        ranks.Size() > 1 ? ": under mpirun each rank replays its own rank's file, as `run "
                           "--op-log` wrote them"
                         : ""));
  in.log = metrics::ReadOpLog(in.path);
  in.job = MixJobOf(in.log);
  in.target = options.target;
  in.target_flag = "--target ";
  if (const auto it = options.job_targets.find(in.job); it != options.job_targets.end()) {
    in.target = it->second;
    in.target_flag = fmt::format("--job-target {}=", in.job);
  }
  return in;
}

// Plans its replay and opens its storages.
void OpenReplay(const ReplayOptions& options, JobEnv& env, ReplayInputs& in) {
  if (!options.train_results.empty()) in.training = ops::ReadTrainingShape(options.train_results);
  std::set<ops::ReplayOp> kinds;
  for (const auto& op : options.ops) kinds.insert(ops::ReplayOpOf(op));
  in.plan = ops::PlanReplay(in.log.entries, kinds, in.target, in.path);
  for (const auto& s : in.plan.storages) {
    bool from_log = false;
    in.storages.push_back(
        env.open_storage(s.uri, StorageOptionsFor(s, options, in.target, in.path, from_log)));
    in.where += (in.where.empty() ? "" : ", ") + s.uri +
                (from_log ? fmt::format(" (at {}, as the op-log says)", s.endpoint_url) : "");
  }
  CheckWritesTarget(in.plan, in.target, in.target_flag, in.path, in.storages);
}

// Every op-log opened (all refusals before any work): each listed under a name of its own,
// and, for a timed replay, recorded at overlapping times (each operation is replayed at its
// original time relative to every log's first).
std::vector<ReplayInputs> OpenReplays(const ReplayOptions& options, JobEnv& env) {
  std::vector<ReplayInputs> inputs;
  for (const auto& given : options.op_logs) inputs.push_back(ReadReplay(options, given, env));
  for (const auto& [job, target] : options.job_targets)
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&job](const ReplayInputs& in) { return in.job == job; })) {
      std::vector<std::string> jobs;
      for (const auto& in : inputs)
        if (!in.job.empty()) jobs.push_back(in.job);
      throw UsageError(fmt::format(
          "--job-target {}={}: no op-log given is job {}'s (their jobs: {}; an op-log names its "
          "job when `mix --op-log` wrote it)",
          job, target, job, jobs.empty() ? "none" : fmt::format("{}", fmt::join(jobs, ", "))));
    }
  for (auto& in : inputs) OpenReplay(options, env, in);
  if (inputs.size() == 1) return inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].job.empty()) inputs[i].job = inputs[i].given;
    for (size_t k = 0; k < i; ++k)
      if (inputs[k].job == inputs[i].job)
        throw UsageError(
            fmt::format("op-logs {} and {} are both job {}'s: give each job's op-log once",
                        inputs[k].given, inputs[i].given, inputs[i].job));
  }
  if (options.mode == "timed") {
    std::vector<const ReplayInputs*> by_start;
    for (const auto& in : inputs) by_start.push_back(&in);
    std::sort(by_start.begin(), by_start.end(), [](const auto* a, const auto* b) {
      return a->plan.first_start_ns < b->plan.first_start_ns;
    });
    int64_t end = by_start.front()->plan.last_end_ns;
    for (size_t i = 1; i < by_start.size(); ++i) {
      const auto& plan = by_start[i]->plan;
      if (plan.first_start_ns > end)
        throw UsageError(fmt::format(
            "op-log {} begins {:.1f} s after the op-logs before it end: a timed replay keeps "
            "their times, so it would wait that long; give op-logs recorded together (a mix's), "
            "or --mode parallel",
            by_start[i]->given, static_cast<double>(plan.first_start_ns - end) / 1e9));
      end = std::max(end, plan.last_end_ns);
    }
  }
  return inputs;
}

// The tag of an op-log's own file of the replay (ops.<tag>.tsv): its job's name, or the op-log's
// place in the list where it names none.
std::string SafeJobTag(const ReplayInputs& in, size_t index) {
  return in.job != in.given ? in.job : fmt::format("log{}", index + 1);
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

// Each op-log's plan on its own workers (several op-logs: a thread each), all from `start_ns`;
// an exception of one is rethrown once all have ended.
std::vector<ops::ReplayFigures> RunReplays(std::vector<ReplayInputs>& inputs,
                                           const std::vector<ops::ReplaySettings>& settings,
                                           int64_t start_ns, ops::ReplayProgress& progress) {
  std::vector<ops::ReplayFigures> figures(inputs.size());
  if (inputs.size() == 1) {
    figures[0] =
        ops::RunReplay(inputs[0].plan, inputs[0].storages, settings[0], start_ns, progress);
    return figures;
  }
  std::vector<std::exception_ptr> errors(inputs.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < inputs.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        figures[i] =
            ops::RunReplay(inputs[i].plan, inputs[i].storages, settings[i], start_ns, progress);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return figures;
}

// The work: every rank replays its plans from a start rank 0 sets for all, under the live
// display, its bytes and operations sampled into the time series.
std::vector<ops::ReplayFigures> ReplayWork(JobFrame& frame, const ReplayOptions& options,
                                           std::vector<ReplayInputs>& inputs,
                                           std::vector<ops::ReplaySettings>& settings,
                                           TimeseriesResult& timeseries) {
  dist::Communicator& ranks = frame.ranks();
  InstallInterruptHandler();
  // A timed replay keeps the ranks' (and op-logs') operations where they were relative to
  // each other: offsets from the first operation of any rank's log, from a start that rank 0
  // sets for all (the hosts' clocks agree as NTP makes them).
  int64_t job_first_ns = INT64_MAX;
  size_t planned = 0;
  for (const auto& in : inputs) {
    job_first_ns = std::min(job_first_ns, in.plan.first_start_ns);
    planned += in.plan.ops.size();
  }
  for (const auto& first : ranks.AllGather(std::to_string(job_first_ns)))
    job_first_ns = std::min<int64_t>(job_first_ns, std::stoll(first));
  for (size_t i = 0; i < inputs.size(); ++i)
    settings[i].rank_offset_ns = inputs[i].plan.first_start_ns - job_first_ns;
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
  std::vector<ops::ReplayFigures> figures;
  const auto t0 = std::chrono::steady_clock::now();
  RunShowingStatus(
      [&] { figures = RunReplays(inputs, settings, start_ns, progress); },
      [&] {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return fmt::format("replay: {}/{} ops, {}, {:.1f} s", progress.ops.load(), planned,
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

// One op-log's operations (or every op-log's together) beside the original's.
struct ReplayComparison {
  uint64_t operations = 0, original_operations = 0, errors = 0;
  double seconds = 0, original_seconds = 0, speedup = 0;
  std::vector<ReplayOpRow> ops;
};

ReplayComparison CompareOf(const ReplayTotals& t) {
  ReplayComparison c;
  c.seconds = t.span.Seconds();
  c.original_seconds = t.OriginalSeconds();
  for (const auto& [op, original] : t.original) {
    const auto it = t.replayed.find(op);
    const ops::OpFigures& replayed = it == t.replayed.end() ? ops::OpFigures() : it->second;
    c.original_operations += original.count;
    c.operations += replayed.count;
    c.errors += replayed.errors;
    c.ops.push_back({op, RowOf(original, c.original_seconds), RowOf(replayed, c.seconds)});
  }
  c.speedup = c.seconds > 0 ? c.original_seconds / c.seconds : 0.0;
  return c;
}

// With several op-logs: one's figures, beside its own original.
struct ReplayJobFigures {
  std::string job, op_log;
  uint64_t operations = 0, original_operations = 0, errors = 0;
  double seconds = 0, original_seconds = 0, speedup = 0;
  std::vector<ReplayOpRow> ops;
};
TB_JSON_FIELDS(ReplayJobFigures, job, op_log, operations, original_operations, errors, seconds,
               original_seconds, speedup, ops)

// summary.json's figures of a replay (with several op-logs, of all of them together, and each
// one's in `jobs`).
struct ReplaySummary {
  std::string op_log, mode;  // op_log: the op-logs as given, ", " between
  std::string job;           // the mix's job whose op-log this is ("" for any other, or several)
  double speed = 1;
  unsigned concurrency = 0;  // an op-log's workers (the most of any)
  int ranks = 1;
  std::string target, storages;
  uint64_t operations = 0, original_operations = 0, not_in_ops = 0, errors = 0;
  double seconds = 0, original_seconds = 0, speedup = 0;
  uint64_t late_operations = 0;
  double max_late_ms = 0;
  std::vector<ReplayOpRow> ops;
  std::optional<std::vector<ReplayJobFigures>> jobs;  // several op-logs
  std::optional<TrainingFigures> training;            // --train-results
};
TB_JSON_FIELDS(ReplaySummary, op_log, mode, job, speed, concurrency, ranks, target, storages,
               operations, original_operations, not_in_ops, errors, seconds, original_seconds,
               speedup, late_operations, max_late_ms, ops, jobs, training)

std::string JoinedOpLogs(const ReplayOptions& options) {
  return fmt::format("{}", fmt::join(options.op_logs, ", "));
}

ReplaySummary SummaryOf(const ReplayTotals& t, const ReplayOptions& options, unsigned concurrency,
                        int ranks, const std::vector<ReplayInputs>& inputs) {
  std::string where;
  for (const auto& in : inputs)
    if (where.find(in.where) == std::string::npos) where += (where.empty() ? "" : ", ") + in.where;
  const ReplayComparison c = CompareOf(t);
  ReplaySummary f{.op_log = JoinedOpLogs(options),
                  .mode = options.mode,
                  .job = inputs.size() == 1 ? inputs.front().job : "",
                  .speed = options.speed,
                  .concurrency = concurrency,
                  .ranks = ranks,
                  .target = options.target,
                  .storages = where,
                  .operations = c.operations,
                  .original_operations = c.original_operations,
                  .not_in_ops = t.dropped,
                  .errors = c.errors,
                  .seconds = c.seconds,
                  .original_seconds = c.original_seconds,
                  .speedup = c.speedup,
                  .late_operations = t.late,
                  .max_late_ms = static_cast<double>(t.max_late_ns) / 1e6,
                  .ops = c.ops,
                  .jobs = std::nullopt,
                  .training = std::nullopt};
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

std::string ReplayedLine(const ReplayComparison& c) {
  return fmt::format(
      "replayed {} of {} operations in {:.3f} s (the original took {:.3f} s: {:.2f}x)",
      c.operations, c.original_operations, c.seconds, c.original_seconds, c.speedup);
}

// Rank 0's report: the table (each op-log's first when there are several), the figures of
// summary.json, and how the replay ended. `gathered`: each rank's figures of each op-log.
ReplayOutcome ReportReplay(JobFrame& frame, const ReplayOptions& options,
                           const std::vector<ReplayInputs>& inputs,
                           const std::vector<ops::ReplaySettings>& settings,
                           const std::vector<std::vector<ReplayRank>>& gathered,
                           const TimeseriesResult& timeseries) {
  std::vector<ReplayRank> every;
  for (const auto& rank : gathered) every.insert(every.end(), rank.begin(), rank.end());
  const ReplayTotals t = SumReplayRanks(every);
  unsigned concurrency = 0;
  for (const auto& s : settings) concurrency = std::max(concurrency, s.concurrency);
  ReplaySummary f = SummaryOf(t, options, concurrency, frame.ranks().Size(), inputs);
  ReplayOutcome out;
  if (inputs.size() > 1) {
    f.jobs.emplace();
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::vector<ReplayRank> its;
      for (const auto& rank : gathered)
        if (i < rank.size()) its.push_back(rank[i]);
      const ReplayTotals job_totals = SumReplayRanks(its);
      const ReplayComparison c = CompareOf(job_totals);
      f.jobs->push_back({inputs[i].job, inputs[i].given, c.operations, c.original_operations,
                         c.errors, c.seconds, c.original_seconds, c.speedup, c.ops});
      out.text += fmt::format("job {} ({}, {} worker(s)):\n", inputs[i].job, inputs[i].given,
                              settings[i].concurrency) +
                  ReplayOpsTable(job_totals) + ReplayedLine(c) + "\n";
    }
    out.text += fmt::format("all {} op-logs together:\n", inputs.size());
  }
  std::optional<ops::StepIoEstimate> step_io;
  const ReplayInputs& in = inputs.front();
  if (in.training) {
    const auto get = t.replayed.find("GET");
    step_io = ops::EstimateStepIo(*in.training, get == t.replayed.end() ? 0 : get->second.count,
                                  f.seconds, frame.ranks().Size());
    ApplyRanksPipeline(every, *step_io);
    f.training = TrainingFiguresOf(*in.training, *step_io);
  }
  out.text +=
      ReplayOpsTable(t) + ReplayedLine(CompareOf(t)) +
      (settings.front().timed ? fmt::format("; {} began over 1 ms late (at most {:.1f} ms): raise "
                                            "--concurrency if many did",
                                            t.late, f.max_late_ms)
                              : "") +
      "\n";
  if (step_io) out.text += StepIoText(*in.training, *step_io, settings.front().concurrency);
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
  std::vector<ReplayInputs> inputs = OpenReplays(options, env);
  std::vector<ops::ReplaySettings> settings;
  for (auto& in : inputs) {
    settings.push_back(ReplaySettingsFor(options, in.plan));
    if (in.training) {
      in.op_seconds.assign(in.plan.ops.size(), NAN);
      settings.back().op_seconds = &in.op_seconds;
    }
  }
  const std::string op_logs = JoinedOpLogs(options);
  JobFrame frame(env, "replay", op_logs,
                 {{"op_log", op_logs},
                  {"target", options.target},
                  {"mode", options.mode},
                  {"speed", options.speed},
                  {"ops", options.ops},
                  {"concurrency", settings.front().concurrency},
                  {"own_op_log", options.own_op_log}},
                 options.interval_s);
  // A mix's job's operations replayed are still that job's: its own log's lines say so too,
  // each job's in a file of its own when several are replayed.
  std::vector<std::unique_ptr<JobOpLog>> own_logs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = inputs[i];
    const std::string own =
        inputs.size() == 1 || options.own_op_log.empty()
            ? options.own_op_log
            : metrics::TaggedOpLogPath(options.own_op_log, "." + SafeJobTag(in, i));
    own_logs.push_back(std::make_unique<JobOpLog>(
        own, frame.ranks(), in.storages.front()->Describe(""), in.job == in.given ? "" : in.job));
    if (*own_logs.back())
      own_logs.back()->log()->NoteEndpointUrl(in.storages.front()->EndpointUrl());
    settings[i].op_log = own_logs.back()->log();
  }
  size_t planned = 0;
  for (const auto& in : inputs) planned += in.plan.ops.size();
  frame.Begin("replay",
              {{"op_log", op_logs}, {"mode", options.mode}, {"original_operations", planned}});
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = inputs[i];
    if (!in.log.dropped.empty())
      frame.log().Warn(
          fmt::format("op-log {}: read up to its last whole line ({})", in.path, in.log.dropped));
    frame.log().Info(fmt::format(
        "replay {}{}: {} operations over {:.3f} s, {} mode{}, {} worker(s){}, against {}", in.path,
        in.job.empty() || in.job == in.given ? "" : fmt::format(" (job {} of a mix)", in.job),
        in.plan.ops.size(), SecondsBetween(in.plan.first_start_ns, in.plan.last_end_ns),
        options.mode, settings[i].timed ? fmt::format(" at {}x", options.speed) : "",
        settings[i].concurrency,
        frame.ranks().Size() > 1 ? fmt::format(" per rank, {} ranks", frame.ranks().Size()) : "",
        in.where));
  }
  if (inputs.size() > 1)
    frame.log().Info(fmt::format("replay: the {} op-logs together, from one start", inputs.size()));
  TimeseriesResult timeseries;
  const std::vector<ops::ReplayFigures> figures =
      ReplayWork(frame, options, inputs, settings, timeseries);
  for (auto& own : own_logs)
    if (*own) frame.log().Info(own->Close());
  std::vector<ReplayRank> mine;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = inputs[i];
    mine.push_back({.replayed = figures[i],
                    .original = in.plan.original,
                    .original_start_ns = in.plan.first_start_ns,
                    .original_end_ns = in.plan.last_end_ns,
                    .dropped_by_ops = in.plan.dropped_by_ops,
                    .pipeline = std::nullopt});
    if (in.training) mine.back().pipeline = PipelineOf(*in.training, in.plan, in.op_seconds);
  }
  const auto gathered = frame.Gather(mine);
  if (!frame.lead()) return {};
  return ReportReplay(frame, options, inputs, settings, gathered, timeseries);
}

}  // namespace trainbench::app
