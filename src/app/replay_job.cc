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
#include "app/job_frame.h"
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

// A rank's simulated loader (ops/loader_pipeline.h) over its plan's GETs, each taking the
// time its replay took, for rank 0 to pick the slowest rank's: a data-parallel step waits
// for every process's batch.
json PipelineToJson(const ops::TrainingShape& t, const ops::ReplayPlan& plan,
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
  return {{"shape", shape}, {"estimate", ops::SimulateLoader(run, shape)}};
}

void ApplyRanksPipeline(const std::vector<json>& gathered, ops::StepIoEstimate& e) {
  const json* slowest = nullptr;
  for (const json& r : gathered)
    if (r.contains("pipeline") && (!slowest || r.at("pipeline").at("estimate").at("step_s") >
                                                   slowest->at("estimate").at("step_s")))
      slowest = &r.at("pipeline");
  if (slowest)
    ops::ApplyPipeline(e, slowest->at("shape").get<ops::LoaderShape>(),
                       slowest->at("estimate").get<ops::PipelineEstimate>());
}

ordered_json StepIoJson(const ops::TrainingShape& t, const ops::StepIoEstimate& e) {
  ordered_json j;
  j["train_results"] = t.path;
  j["model"] = e.model;
  j["batch_size"] = t.batch_size;
  j["workers"] = e.model == "pipeline" ? e.loader.workers : t.workers;
  j["step_s"] = e.step_s;
  j["data_wait_s_per_step"] = e.data_wait_s;
  j["compute_s_per_step"] = e.compute_s;
  j["images_per_second_per_process"] = e.images_per_s;
  j["load_s_per_batch"] = e.load_s;
  j["mean_model_step_s"] = e.mean_step_s;
  if (e.model == "pipeline") {
    j["io_depth"] = e.loader.io_depth;
    j["prefetch_batches"] = e.loader.prefetch;
    j["hold_s_per_image"] = e.loader.hold_s;
    j["simulated_gets"] = e.pipeline.gets;
    j["simulated_batches"] = e.pipeline.batches;
    j["simulated_timed_steps"] = e.pipeline.timed_steps;
    j["simulated_load_s_per_batch"] = e.pipeline.load_s;
    j["first_batch_wait_s"] = e.first_batch_wait_s;
  }
  j["predicted_step_s"] = e.predicted_step_s;
  j["io_lost_s_per_step"] = e.lost_s;
  j["io_lost_share"] = e.lost_share;
  j["predicted_images_per_second_per_process"] = e.predicted_images_per_s;
  return j;
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
  std::map<std::string, OpTotals> ops;
  int64_t original_start = INT64_MAX, original_end = 0;
  RanksSpan span;
  uint64_t late = 0, max_late_ns = 0, dropped = 0;
  double OriginalSeconds() const { return SecondsBetween(original_start, original_end); }
};

ReplayTotals SumReplayRanks(const std::vector<json>& gathered) {
  ReplayTotals t;
  for (const json& r : gathered) {
    for (const auto& [op, j] : r.at("ops").items()) {
      OpTotals& o = t.ops[op];
      const json& orig = j.at("original");
      o.original.count += orig.at("count").get<uint64_t>();
      o.original.bytes += orig.at("bytes").get<uint64_t>();
      o.original.errors += orig.at("errors").get<uint64_t>();
      o.original.latency_ns.Merge(orig.at("latency").get<metrics::Histogram>());
      o.replayed.Add(ops::ReplayedFromJson(j.at("replayed")));
    }
    t.original_start = std::min(t.original_start, r.at("original_start_ns").get<int64_t>());
    t.original_end = std::max(t.original_end, r.at("original_end_ns").get<int64_t>());
    t.span.Add(r);
    t.late += r.at("late").get<uint64_t>();
    t.max_late_ns = std::max(t.max_late_ns, r.at("max_late_ns").get<uint64_t>());
    t.dropped += r.at("dropped_by_ops").get<uint64_t>();
  }
  return t;
}

// One operation kind's row, original beside replayed, for summary.json.
ordered_json ReplayOpRow(const std::string& op, const OpTotals& t, double original_span,
                         double span) {
  return {
      {"op", op},
      {"original",
       {{"count", t.original.count},
        {"bytes", t.original.bytes},
        {"errors", t.original.errors},
        {"ops_per_second", PerSecond(static_cast<double>(t.original.count), original_span)},
        {"MiB_per_second", PerSecond(static_cast<double>(t.original.bytes) / kMiB, original_span)},
        {"latency_ms", report::LatencyJson(t.original.latency_ns, 1e-6)}}},
      {"replayed",
       {{"count", t.replayed.count},
        {"bytes", t.replayed.bytes},
        {"errors", t.replayed.errors},
        {"skipped", t.replayed.skipped},
        {"first_error", t.replayed.first_error},
        {"ops_per_second", PerSecond(static_cast<double>(t.replayed.count), span)},
        {"MiB_per_second", PerSecond(static_cast<double>(t.replayed.bytes) / kMiB, span)},
        {"latency_ms", report::LatencyJson(t.replayed.latency_ns, 1e-6)}}}};
}

// The table of operation kinds, original against replayed.
std::string ReplayOpsTable(const ReplayTotals& t) {
  const double span = t.span.Seconds();
  std::string text = fmt::format("{:<7} {:>9} {:>9} {:>11} {:>11} {:>10} {:>21} {:>21}  {}\n", "op",
                                 "orig ops", "ops", "orig MB", "MB", "ops/s", "p50 ms orig/replay",
                                 "p99 ms orig/replay", "errors");
  for (const auto& [op, o] : t.ops) {
    const auto& ol = o.original.latency_ns;
    const auto& rl = o.replayed.latency_ns;
    text += fmt::format(
        "{:<7} {:>9} {:>9} {:>11.3f} {:>11.3f} {:>10.1f} {:>10.3f}/{:<10.3f} {:>10.3f}/{:<10.3f}  "
        "{}\n",
        op, o.original.count, o.replayed.count, static_cast<double>(o.original.bytes) / 1e6,
        static_cast<double>(o.replayed.bytes) / 1e6,
        PerSecond(static_cast<double>(o.replayed.count), span), ol.Percentile(0.5) / 1e6,
        rl.Percentile(0.5) / 1e6, ol.Percentile(0.99) / 1e6, rl.Percentile(0.99) / 1e6,
        o.replayed.errors ? fmt::format("{} ({})", o.replayed.errors, o.replayed.first_error)
                          : "0");
  }
  return text;
}

// Rank 0's report: the table, the figures of summary.json, and how the replay ended.
ReplayOutcome ReportReplay(JobFrame& frame, const ReplayOptions& options, const ReplayInputs& in,
                           const ops::ReplaySettings& settings, const std::vector<json>& gathered,
                           const TimeseriesResult& timeseries) {
  const ReplayTotals t = SumReplayRanks(gathered);
  const double original_span = t.OriginalSeconds();
  const double span = t.span.Seconds();
  std::optional<ops::StepIoEstimate> step_io;
  if (in.training) {
    const auto get = t.ops.find("GET");
    step_io = ops::EstimateStepIo(*in.training, get == t.ops.end() ? 0 : get->second.replayed.count,
                                  span, frame.ranks().Size());
    ApplyRanksPipeline(gathered, *step_io);
  }
  uint64_t original_ops = 0, replayed_ops = 0, errors = 0;
  ordered_json op_rows = ordered_json::array();
  for (const auto& [op, o] : t.ops) {
    original_ops += o.original.count;
    replayed_ops += o.replayed.count;
    errors += o.replayed.errors;
    op_rows.push_back(ReplayOpRow(op, o, original_span, span));
  }
  ReplayOutcome out;
  out.text =
      ReplayOpsTable(t) +
      fmt::format(
          "replayed {} of {} operations in {:.3f} s (the original took {:.3f} s: {:.2f}x){}\n",
          replayed_ops, original_ops, span, original_span, span > 0 ? original_span / span : 0.0,
          settings.timed ? fmt::format("; {} began over 1 ms late (at most {:.1f} ms): raise "
                                       "--concurrency if many did",
                                       t.late, static_cast<double>(t.max_late_ns) / 1e6)
                         : "");
  if (step_io) out.text += StepIoText(*in.training, *step_io, settings.concurrency);
  ordered_json f;
  f["op_log"] = options.op_log;
  f["mode"] = options.mode;
  f["speed"] = options.speed;
  f["concurrency"] = settings.concurrency;
  f["ranks"] = frame.ranks().Size();
  f["target"] = options.target;
  f["storages"] = in.where;
  f["operations"] = replayed_ops;
  f["original_operations"] = original_ops;
  f["not_in_ops"] = t.dropped;
  f["errors"] = errors;
  f["seconds"] = span;
  f["original_seconds"] = original_span;
  f["speedup"] = span > 0 ? original_span / span : 0.0;
  f["late_operations"] = t.late;
  f["max_late_ms"] = static_cast<double>(t.max_late_ns) / 1e6;
  f["ops"] = op_rows;
  ordered_json extra = ordered_json::object();
  if (step_io) {
    f["training"] = StepIoJson(*in.training, *step_io);
    extra["io_lost_s_per_step"] = step_io->lost_s;
  }
  frame.End(out, {t.span.interrupted, !t.span.interrupted && replayed_ops == original_ops, errors},
            f, timeseries, "trainbench_replay",
            {"mode", "speed", "concurrency", "ranks", "operations", "original_operations", "errors",
             "seconds", "original_seconds", "speedup"},
            extra);
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
  JobOpLog own_log(options.own_op_log, frame.ranks(), in.storages.front()->Describe(""));
  if (own_log) own_log.log()->NoteEndpointUrl(in.storages.front()->EndpointUrl());
  settings.op_log = own_log.log();
  frame.Begin("replay", {{"op_log", options.op_log},
                         {"mode", options.mode},
                         {"original_operations", in.plan.ops.size()}});
  if (!in.log.dropped.empty())
    frame.log().Warn(
        fmt::format("op-log {}: read up to its last whole line ({})", in.path, in.log.dropped));
  frame.log().Info(fmt::format(
      "replay {}: {} operations over {:.3f} s, {} mode{}, {} worker(s){}, against {}", in.path,
      in.plan.ops.size(), SecondsBetween(in.plan.first_start_ns, in.plan.last_end_ns), options.mode,
      settings.timed ? fmt::format(" at {}x", options.speed) : "", settings.concurrency,
      frame.ranks().Size() > 1 ? fmt::format(" per rank, {} ranks", frame.ranks().Size()) : "",
      in.where));
  TimeseriesResult timeseries;
  const ops::ReplayFigures figures = ReplayWork(frame, options, in, settings, timeseries);
  if (own_log) frame.log().Info(own_log.Close());
  json mine = RankJson(in.plan, figures);
  if (in.training) mine["pipeline"] = PipelineToJson(*in.training, in.plan, in.op_seconds);
  const auto gathered = frame.Gather(mine);
  if (!frame.lead()) return {};
  return ReportReplay(frame, options, in, settings, gathered, timeseries);
}

}  // namespace trainbench::app
