#include "app/run/run_job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <memory>
#include <optional>

#include "app/frame/job_checks.h"
#include "app/frame/job_log.h"
#include "app/frame/job_op_log.h"
#include "app/run/run_report.h"
#include "app/run/run_rules.h"
#include "app/run/shared_folders.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/page_cache.h"
#include "common/units.h"
#include "config/workload_yaml.h"
#include "dataset/dataset_files.h"
#include "dataset/dataset_lock.h"
#include "dataset/generator.h"
#include "report/console/live_view.h"
#include "sim/emulated_training.h"
#include "sim/ranks.h"
#include "sim/read_setup.h"
#include "sim/sampling.h"
#include "storage/read_engines.h"

namespace trainbench::app {

size_t DropPageCaches(const sim::RankLayout& layout, dist::Communicator& ranks) {
  const auto hosts = sim::Hosts(layout);
  for (const auto& host : hosts)
    if (sim::RanksOnHost(layout, host).front() == static_cast<size_t>(ranks.Rank()))
      DropPageCache();
  if (!ranks.Barrier()) throw RuntimeError("--drop-caches: another rank failed");
  return hosts.size();
}

namespace {

std::string Spread(const sim::RankLayout& layout, dist::Communicator& ranks) {
  if (ranks.Size() <= 1) return "";
  const auto hosts = sim::Hosts(layout);
  return fmt::format(" over {} ranks on {} host(s) ({})", ranks.Size(), hosts.size(),
                     fmt::join(hosts, ", "));
}

}  // namespace

void CheckRunOptions(const RunJobOptions& options) {
  if (options.accelerators == 0) throw UsageError("--accelerators must be at least 1");
  CheckInterval(options.interval_s);
  const uint64_t in_flight = uint64_t{options.reads.io_threads} * options.reads.io_depth;
  if (in_flight > sim::kMaxReadsInFlight)
    throw UsageError(fmt::format(
        "--io-threads {} x --io-depth {} = {} reads in flight; at most {}: lower one of them",
        options.reads.io_threads, options.reads.io_depth, in_flight, sim::kMaxReadsInFlight));
}

namespace {

// The storages a run reads and writes, opened and checked before the first byte is read.
struct RunStorages {
  std::unique_ptr<storage::Storage> dataset;
  std::string uri;                                // the dataset's
  std::unique_ptr<storage::Storage> checkpoints;  // null without workflow.checkpoint
  std::string checkpoint_folder;
};

RunStorages OpenRunStorages(const RunJobOptions& options, JobEnv& env) {
  const auto& config = options.config;
  // Where results and checkpoints go must be writable before the first byte is read.
  if (env.ranks.Rank() == 0 && env.check_local_folders)
    CheckWritableFolder(config.output.folder, "output.folder");
  if (!options.op_log.empty()) CheckWritableFile(options.op_log, "--op-log");
  RunStorages s;
  if (config.workflow.checkpoint) {
    s.checkpoints =
        env.open_storage(config.checkpoint.checkpoint_folder, config.storage.storage_options);
    s.checkpoint_folder = s.checkpoints->Describe("");
    if (const auto local = s.checkpoints->LocalPath(""); local && env.check_local_folders)
      CheckWritableFolder(*local, "checkpoint.checkpoint_folder");
  }
  s.uri = config::DatasetUri(config);
  s.dataset = env.open_storage(s.uri, config.storage.storage_options);
  storage::CheckReadEngine(*s.dataset, options.reads.engine);
  return s;
}

// DLIO's workflow.generate_data: generate (or finish generating) the dataset, then train on
// it. Otherwise a dataset another job is still writing is refused.
void GenerateOrCheckDataset(const RunJobOptions& options, dist::Communicator& ranks, RunStorages& s,
                            JobOpLog& op_log) {
  const auto& config = options.config;
  if (config.workflow.generate_data) {
    LogInfo(fmt::format("workflow.generate_data: writing the dataset to {} first", s.uri));
    const auto generated =
        dataset::Generate(config, op_log.Wrap(*s.dataset), {0, false, options.progress}, &ranks);
    LogInfo(fmt::format("datagen: {} files written, {} already complete, {:.3f} s",
                        generated.files_written, generated.files_skipped, generated.seconds));
  } else if (ranks.Rank() == 0) {  // one rank: ranks probing the lock at once would see each other
    dataset::DatasetLock::RefuseIfBeingWritten(*s.dataset);
  }
}

// The emulation's settings: this rank's accelerators, the reads, and where its progress, rows
// and lines go (the live view, rank 0's results so far, the log).
sim::EmulationOptions EmulationFor(const RunJobOptions& options, const sim::RankLayout& layout,
                                   report::LiveView& progress, JobFrame& frame) {
  dist::Communicator& ranks = frame.ranks();
  const auto& config = options.config;
  sim::EmulationOptions emulation;
  emulation.accelerators = options.accelerators;
  emulation.first_accelerator = layout.first_accelerator;
  emulation.total_accelerators = layout.total_accelerators;
  emulation.random_shuffle_seed = layout.random_shuffle_seed;
  emulation.barrier = options.barrier;
  emulation.reads = options.reads;
  emulation.reads.ranks_on_host =
      static_cast<unsigned>(sim::RanksOnHost(layout, ranks.Host()).size());
  emulation.progress = [&progress](const sim::Progress& p) {
    progress.OnStatus({p.kind, p.epoch, p.epochs, p.step, p.steps, p.samples_per_second,
                       p.bytes_per_second, p.au_percentage, p.measured});
  };
  emulation.interval_s = options.interval_s;
  const int size = ranks.Size();
  emulation.on_phase = [&config, &frame](const metrics::RunRecord& r) {
    KeepRunSoFar(config, frame, r);
  };
  const bool rows = options.interval_s > 0;
  emulation.on_row = [&progress, &frame, rows](const metrics::TimeseriesRow& row) {
    progress.OnRow(row);
    if (rows) frame.writer().Row(row);
  };
  // The step loop's lines (epochs, evaluations, checkpoints) are this rank's own figures:
  // over several ranks they say whose, as the table at the end sums them.
  const std::string whose = size > 1 ? fmt::format("rank {}'s share: ", ranks.Rank()) : "";
  emulation.log = [&progress, &frame, whose](const std::string& line) {
    progress.Above([&] { frame.log().Info(whose + line); });
  };
  return emulation;
}

// What the run is about to do, on rank 0's console and log.
void LogRunStart(const RunJobOptions& options, const sim::RankLayout& layout,
                 dist::Communicator& ranks, const RunStorages& s,
                 const dataset::DatasetFiles& dataset, const std::string& folder,
                 size_t hosts_dropped, JobLog& log) {
  const auto& config = options.config;
  log.Info(fmt::format(
      "run {}: {} accelerator(s){}, {} train files ({}) at {}, {} epochs, results in {}",
      config.workload_name, layout.total_accelerators, Spread(layout, ranks), dataset.num_train,
      FormatBytes(static_cast<double>(dataset.TrainBytes())), s.uri, config.train.epochs, folder));
  if (ranks.Size() > 1)
    log.Info(fmt::format(
        "lines marked \"rank {}'s share:\" are this rank's own accelerators ({} of {}); the "
        "table at the end sums the {} ranks",
        ranks.Rank(), options.accelerators, layout.total_accelerators, ranks.Size()));
  if (options.drop_caches)
    log.Info(fmt::format("--drop-caches: page caches dropped on {} host(s) before the run",
                         hosts_dropped));
  if (config.workflow.checkpoint)
    log.Info(fmt::format("checkpoints ({} model bytes, twice that of optimizer state) go to {}",
                         FormatBytes(static_cast<double>(config.model.model_size_bytes)),
                         s.checkpoint_folder));
}

}  // namespace

std::shared_ptr<const dataset::DatasetFiles> ResolveRunDataset(const RunJobOptions& options,
                                                               uint64_t total_accelerators,
                                                               JobEnv& env) {
  const auto& config = options.config;
  if (!config.workflow.train || config.workflow.generate_data) return nullptr;
  auto storage = env.open_storage(config::DatasetUri(config), config.storage.storage_options);
  if (env.ranks.Rank() == 0) dataset::DatasetLock::RefuseIfBeingWritten(*storage);
  auto found = std::make_shared<const dataset::DatasetFiles>(
      dataset::ResolveDataset(config, *storage, options.datagen_command));
  sim::TrainStepsPerEpoch(config, *found, total_accelerators);
  return found;
}

RunOutcome RunJob(const RunJobOptions& options, JobEnv& env) {
  CheckRunOptions(options);
  const auto& config = options.config;
  if (!config.workflow.train && !config.workflow.checkpoint)
    throw UsageError(
        "workflow.train and workflow.checkpoint are false: `trainbench run` emulates training "
        "or checkpointing; set one of them true");
  if (!config.workflow.train) return CheckpointJob(options, env);
  if (options.checkpoint_every_s > 0)
    throw UsageError(fmt::format(
        "a checkpoint every {:g} s is for checkpointing workloads (workflow.train false); {} "
        "trains: checkpoint it with checkpoint.steps_between_checkpoints or "
        "checkpoint.epochs_between_checkpoints",
        options.checkpoint_every_s, config.workload_name));
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  RunStorages s = OpenRunStorages(options, env);
  // Ranks on several hosts must share the folders, or each host measures its own disk:
  // refused before any work, and each host's file system named in the results.
  nlohmann::json filesystems = {
      {"data", CheckSharedFolder(ranks, *s.dataset, "dataset.data_folder")},
      {"checkpoint", s.checkpoints
                         ? CheckSharedFolder(ranks, *s.checkpoints, "checkpoint.checkpoint_folder")
                         : nlohmann::json()}};
  // One log for the run's reads (its engine's), the dataset's writes with
  // workflow.generate_data and the checkpoints' writes and reads.
  JobOpLog op_log(options.op_log, ranks, s.dataset->Describe(""), options.mix_job);
  GenerateOrCheckDataset(options, ranks, s, op_log);
  // Seen by clean while this run reads (the op-log does not show it: not the run's I/O).
  const dataset::ReaderMark reading(*s.dataset);
  std::optional<dataset::DatasetFiles> found;
  if (!options.dataset)
    found = dataset::ResolveDataset(config, *s.dataset, options.datagen_command);
  const dataset::DatasetFiles& dataset = options.dataset ? *options.dataset : *found;
  const sim::RankLayout layout = sim::ExchangeRankLayout(ranks, options.accelerators);
  sim::TrainStepsPerEpoch(config, dataset, layout.total_accelerators);
  const size_t hosts_dropped = options.drop_caches ? DropPageCaches(layout, ranks) : 0;

  JobFrame frame(ranks, env.results, RunEnvelope(config, UtcStamp(), layout), options.interval_s);
  JobLog& log = frame.log();
  const std::string folder = OpenRunResults(config, frame);
  // Plain lines (stderr not a terminal) every 10 rows: every 10 s by default.
  report::LiveView progress(STDERR_FILENO,
                            report::LiveView::ModeFor(STDERR_FILENO, lead && options.progress),
                            config.workload_name, 100 * config.metric.au,
                            options.interval_s > 0 ? 10 * options.interval_s : 10);
  sim::EmulationOptions emulation = EmulationFor(options, layout, progress, frame);
  // MLPerf Storage's checks of the setup (dataset >= 5x memory, results elsewhere, ...).
  report::RulesReport rules;
  if (lead) {
    rules = CheckRunRules(layout, *s.dataset, "the data", dataset.TrainBytes(), folder);
    for (const auto& w : rules.warnings) log.Warn(w);
    rules.summary["filesystems"] = filesystems;
  }
  InstallInterruptHandler();  // before the line that tells a watcher the run has begun
  LogRunStart(options, layout, ranks, s, dataset, folder, hosts_dropped, log);
  emulation.reads.op_log = op_log.log();
  if (s.checkpoints) emulation.checkpoint_storage = &op_log.Wrap(*s.checkpoints);
  metrics::RunRecord mine;
  try {
    mine = sim::RunEmulatedTraining(config, dataset, *s.dataset, ranks, emulation);
  } catch (const UsageError&) {
    // Refused before the first read (what the reads need cannot be done, e.g. compressed
    // HDF5 on S3): a results folder with nothing measured would pass for a run.
    frame.writer().Discard();
    throw;
  }
  if (op_log) log.Info(op_log.Close());
  mine.storage_counters = s.dataset->Counters();
  for (auto& [op, latency] : s.dataset->OperationLatencies())
    mine.storage_latency_ns[op] = std::move(latency);
  progress.End();
  return ReportRun({options, env, layout, folder, frame, lead ? &rules : nullptr}, mine);
}

}  // namespace trainbench::app
