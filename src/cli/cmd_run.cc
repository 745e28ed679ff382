// `trainbench run WORKLOAD [overrides]`: emulated training over the workload's dataset
// (MLPerf-Storage style): AU, samples/s, MB/s, latencies, I/O characterization, into a
// results folder, a table, and a final JSON line on stdout.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "cli/command.h"
#include "cli/run_rules.h"
#include "cli/validators.h"
#include "cli/workload_args.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/page_cache.h"
#include "common/units.h"
#include "config/workload_yaml.h"
#include "dataset/dataset_lock.h"
#include "dataset/generator.h"
#include "dist/communicator.h"
#include "loader/dataset_files.h"
#include "metrics/process_stats.h"
#include "metrics/run_record_merge.h"
#include "metrics/timeseries.h"
#include "report/live_view.h"
#include "report/ranks_report.h"
#include "report/results_folder.h"
#include "report/summary.h"
#include "report/tables.h"
#include "report/timeseries_csv.h"
#include "report/timeseries_log.h"
#include "sim/checkpoint_run.h"
#include "sim/emulated_training.h"
#include "sim/llm_checkpoint.h"
#include "sim/ranks.h"
#include "sim/sampling.h"
#include "storage/read_engines.h"
#include "storage/storage.h"

namespace trainbench::cli {
namespace {

struct RunFlags {
  WorkloadArgs workload;
  uint64_t accelerators = 1;
  bool no_barrier = false;
  sim::ReadFlags reads;
  bool no_progress = false;
  bool drop_caches = false;
  double interval = 1;  // seconds per time-series row; 0: none
};

std::string ShellQuote(const std::string& s) {
  if (s.find_first_of(" '\"$`\\*?&;|<>()") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string DatagenCommand(const WorkloadArgs& args) {
  std::string cmd = "trainbench datagen " + ShellQuote(args.workload);
  for (const auto& o : args.overrides) cmd += " " + ShellQuote(o);
  return cmd;
}

// The run's log: every event line goes to stderr and to the results folder.
class RunLog {
 public:
  void Open(const std::string& path) { file_.open(path, std::ios::app); }
  void Line(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_) file_ << UtcStamp() << " " << line << "\n" << std::flush;
  }
  // An event line on stderr (LogInfo: rank 0's, unless --quiet) and in the log.
  void Info(const std::string& line) {
    LogInfo(line);
    Line(line);
  }
  void Warn(const std::string& line) {
    LogWarning(line);
    Line("warning: " + line);
  }

 private:
  std::ofstream file_;
  std::mutex mutex_;
};

// Rank 0's results folder for a run started at `started`: made, the run's log opened in it
// and the resolved config saved; "" on the other ranks.
std::string OpenResultsFolder(const config::WorkloadConfig& config, bool lead,
                              const std::string& started, RunLog& log) {
  if (!lead) return "";
  const std::string folder =
      report::CreateResultsFolder(config.output.folder, config.workload_name, started);
  log.Open(folder + "/" + config.output.log_file);
  report::WriteResultFile(folder, "config.yaml", config::ToYaml(config));
  return folder;
}

// What a finished run hands over for reporting.
struct JobReport {
  const config::WorkloadConfig& config;
  dist::Communicator& ranks;
  const sim::RankLayout& layout;
  const std::string& folder;  // rank 0's results folder ("" elsewhere)
  const std::string& started;
  RunLog& log;
  bool drop_caches;
  double interval;                   // seconds per time-series row; 0: none
  const report::RulesReport* rules;  // rank 0's checks of the setup (null elsewhere)
};

// Rank 0 gathers the ranks' records, prints the table and the JSON line and writes the
// results files; every rank returns its exit status.
int ReportJob(const JobReport& job, const metrics::RunRecord& mine) {
  const auto& [config, ranks, layout, folder, started, log, drop_caches, interval, rules] = job;
  const bool lead = ranks.Rank() == 0;
  // A signal to rank 0 under several ranks is mpirun ending the job (Ctrl-C, or a rank
  // that died): the others may be gone, so rank 0 keeps its own measurements rather than
  // wait for theirs, and ends the job once they are written.
  const bool job_ending = lead && ranks.Size() > 1 && InterruptRequested();
  const auto records = job_ending ? std::vector{mine} : sim::GatherRecords(ranks, mine);
  if (!lead) {
    if (!mine.complete && !mine.stopped_by_peer) LogWarning("stopped: " + mine.stop_reason);
    return mine.complete ? 0 : mine.stop_reason == "interrupted" ? 130 : 1;
  }
  const auto record = metrics::MergeRanks(records);

  // The table and the JSON line first: a results file that cannot be written (a full disk)
  // must not take them along. Each file is written whole or not at all, and the summary
  // lists those that could not be written.
  auto summary = report::Summary(record, config, started, UtcStamp());
  summary["cache"]["dropped_before_run"] = drop_caches;
  if (rules) summary.update(rules->summary);
  if (ranks.Size() > 1) {
    std::vector<uint64_t> counts;
    for (const auto& rank : layout.ranks) counts.push_back(rank.accelerators);
    counts.resize(records.size());
    summary["hosts"] = report::HostRows(records, counts);
    summary["ranks"] = report::RankRows(records, counts);
    if (job_ending) {
      summary["ranks_missing"] = ranks.Size() - 1;
      log.Warn(fmt::format(
          "the job is ending (a signal): these results hold rank 0's measurements only, not "
          "the other {} ranks'",
          ranks.Size() - 1));
    }
  }
  fmt::print("{}{}", report::ConsoleTable(record, config), rules ? rules->table : "");
  fmt::print("results: {}\n", folder);
  fmt::print("{}\n", report::MetricsLine(record, config).dump());
  std::fflush(stdout);
  std::vector<std::string> unwritten;
  auto write = [&](const std::string& name, const std::string& text) {
    try {
      report::WriteResultFile(folder, name, text);
    } catch (const std::exception& e) {
      unwritten.push_back(name);
      log.Warn(fmt::format("could not write {}: {}", name, e.what()));
    }
  };
  write("epochs.csv", report::EpochsCsv(record));
  if (interval > 0) {
    std::vector<std::vector<metrics::TimeseriesRow>> rows;
    for (const auto& r : records) rows.push_back(r.timeseries);
    std::vector<metrics::TimeseriesRow> merged;
    if (records.size() > 1) {
      std::vector<uint64_t> counts;
      for (const auto& rank : layout.ranks) counts.push_back(rank.accelerators);
      counts.resize(records.size());
      merged = metrics::MergeRankRows(rows, counts);
    }
    write("timeseries.csv", report::TimeseriesCsv(rows, records.size() > 1 ? &merged : nullptr));
  }
  if (ranks.Size() > 1)  // each rank as it measured itself
    for (size_t r = 0; r < records.size(); ++r)
      write(fmt::format("rank-{:04}.json", r),
            report::Summary(records[r], config, started, UtcStamp()).dump(2) + "\n");
  if (!unwritten.empty()) summary["unwritten_files"] = unwritten;
  write("summary.json", summary.dump(2) + "\n");
  if (!unwritten.empty())
    throw RuntimeError(fmt::format("results incomplete: could not write {} in {}",
                                   fmt::join(unwritten, ", "), folder));
  if (record.complete) {
    const auto& au = summary["metric"]["train_au_mean_percentage"];
    if (!config.workflow.train)
      log.Info("run complete: checkpoints written and read");
    else
      log.Info(fmt::format(
          "run complete: AU {:.2f}%, {}", au.is_number() ? au.get<double>() : 0.0,
          summary["passed"].is_null()
              ? "AU not meaningful: " + summary["au_not_meaningful_reason"].get<std::string>()
          : summary["passed"].get<bool>() ? std::string("passed")
                                          : std::string("failed")));
    return 0;
  }
  if (record.stop_reason == "interrupted") {
    log.Warn("interrupted: partial results (marked incomplete) in " + folder);
    // The other ranks did not hand over their records and may wait for rank 0: end them.
    if (job_ending) dist::AbortJob(static_cast<int>(ExitCode::kInterrupted));
    return 130;
  }
  log.Line("error: " + record.stop_reason);
  // Not thrown: under several ranks an exception ends the job at once (dist::AbortJob).
  LogError(record.stop_reason + "; partial results (marked incomplete) in " + folder);
  return static_cast<int>(ExitCode::kRuntime);
}

// A checkpointing workload (workflow.train false): no dataset; every rank writes and reads
// its checkpoint shards.
int ExecuteCheckpointing(const RunFlags& flags, const config::WorkloadConfig& config,
                         dist::Communicator& ranks) {
  const bool lead = ranks.Rank() == 0;
  if (lead) CheckWritableFolder(config.output.folder, "output.folder");
  const auto checkpoints =
      storage::OpenStorage(config.checkpoint.checkpoint_folder, config.storage.storage_options);
  if (const auto local = checkpoints->LocalPath(""))
    CheckWritableFolder(*local, "checkpoint.checkpoint_folder");
  const sim::RankLayout layout = sim::ExchangeRankLayout(ranks, flags.accelerators);
  if (sim::IsSizedTransformer(config.model))  // refuses more ranks than a subset's job
    sim::CheckpointJobRanks(config.model, static_cast<uint64_t>(ranks.Size()));
  const std::string started = UtcStamp();
  RunLog log;
  const std::string folder = OpenResultsFolder(config, lead, started, log);
  sim::CheckpointRunOptions options;
  options.ranks_on_host = 0;
  for (size_t r = 0; r < layout.ranks.size(); ++r) {
    if (layout.ranks[r].host != ranks.Host()) continue;
    if (options.ranks_on_host == 0)  // the host's first rank empties its page cache
      options.first_rank_on_host = r == static_cast<size_t>(ranks.Rank());
    ++options.ranks_on_host;
  }
  options.drop_caches = flags.drop_caches;
  options.accelerators = layout.total_accelerators;
  options.log = [&](const std::string& line) {
    LogInfo(line);
    log.Line(line);
  };
  InstallInterruptHandler();
  const std::string line = fmt::format(
      "run {}: checkpointing to {} over {} rank(s), {} writes then {} reads, results in {}",
      config.workload_name, checkpoints->Describe(""), ranks.Size(),
      config.checkpoint.num_checkpoints_write, config.checkpoint.num_checkpoints_read, folder);
  LogInfo(line);
  log.Line(line);
  report::RulesReport rules;
  if (lead) {
    rules = CheckRunRules(layout, *checkpoints, "the checkpoints", std::nullopt, folder);
    AddCheckpointRules(config, static_cast<uint64_t>(ranks.Size()), rules);
    for (const auto& w : rules.warnings) {
      LogWarning(w);
      log.Line("warning: " + w);
    }
  }
  const auto mine = sim::RunCheckpointWorkload(config, ranks, options);
  return ReportJob({config, ranks, layout, folder, started, log, flags.drop_caches, flags.interval,
                    lead ? &rules : nullptr},
                   mine);
}

// Under several ranks only rank 0 writes results; the others hand it their record.
int Execute(const RunFlags& flags) {
  if (flags.accelerators == 0) throw UsageError("--accelerators must be at least 1");
  CheckInterval(flags.interval);
  CheckReadsInFlight(flags.reads.io_threads, flags.reads.io_depth);
  dist::Communicator& ranks = dist::World();
  const bool lead = ranks.Rank() == 0;
  const auto config = LoadWorkloadOrThrow(flags.workload);
  if (!config.workflow.train && !config.workflow.checkpoint)
    throw UsageError(
        "workflow.train and workflow.checkpoint are false: `trainbench run` emulates training "
        "or checkpointing; set one of them true");
  if (!config.workflow.train) return ExecuteCheckpointing(flags, config, ranks);
  // Where results and checkpoints go must be writable before the first byte is read.
  if (lead) CheckWritableFolder(config.output.folder, "output.folder");
  std::string checkpoint_folder;
  if (config.workflow.checkpoint) {
    const auto checkpoints =
        storage::OpenStorage(config.checkpoint.checkpoint_folder, config.storage.storage_options);
    checkpoint_folder = checkpoints->Describe("");
    if (const auto local = checkpoints->LocalPath(""))
      CheckWritableFolder(*local, "checkpoint.checkpoint_folder");
  }
  const std::string uri = config::DatasetUri(config);
  auto storage = storage::OpenStorage(uri, config.storage.storage_options);
  if (config.workflow.generate_data) {
    // DLIO's workflow: generate (or finish generating) the dataset, then train on it.
    LogInfo(fmt::format("workflow.generate_data: writing the dataset to {} first", uri));
    const auto generated =
        dataset::Generate(config, *storage, {0, false, !flags.no_progress}, &ranks);
    LogInfo(fmt::format("datagen: {} files written, {} already complete, {:.3f} s",
                        generated.files_written, generated.files_skipped, generated.seconds));
  } else if (lead) {  // one rank: ranks probing the lock at once would see each other
    dataset::DatasetLock::RefuseIfBeingWritten(*storage);
  }
  const auto dataset = loader::ResolveDataset(config, *storage, DatagenCommand(flags.workload));

  const sim::RankLayout layout = sim::ExchangeRankLayout(ranks, flags.accelerators);
  sim::TrainStepsPerEpoch(config, dataset, layout.total_accelerators);
  size_t hosts_dropped = 0;
  if (flags.drop_caches) {
    // The first rank on each host empties that host's cache; all start after every host has.
    for (size_t r = 0; r < layout.ranks.size(); ++r) {
      const auto& host = layout.ranks[r].host;
      bool first = true;
      for (size_t q = 0; q < r; ++q) first = first && layout.ranks[q].host != host;
      if (!first) continue;
      ++hosts_dropped;
      if (r == static_cast<size_t>(ranks.Rank())) DropPageCache();
    }
    if (!ranks.Barrier()) throw RuntimeError("--drop-caches: another rank failed");
  }

  const std::string started = UtcStamp();
  RunLog log;
  const std::string folder = OpenResultsFolder(config, lead, started, log);

  sim::EmulationOptions options;
  options.accelerators = flags.accelerators;
  options.first_accelerator = layout.first_accelerator;
  options.total_accelerators = layout.total_accelerators;
  options.random_shuffle_seed = layout.random_shuffle_seed;
  options.barrier = !flags.no_barrier;
  options.reads = flags.reads;
  options.reads.ranks_on_host = static_cast<unsigned>(
      std::count_if(layout.ranks.begin(), layout.ranks.end(),
                    [&ranks](const sim::RankInfo& r) { return r.host == ranks.Host(); }));
  // Plain lines (stderr not a terminal) every 10 rows: every 10 s by default.
  report::LiveView progress(
      STDERR_FILENO, report::LiveView::ModeFor(STDERR_FILENO, lead && !flags.no_progress),
      config.workload_name, 100 * config.metric.au, flags.interval > 0 ? 10 * flags.interval : 10);
  options.progress = [&](const sim::Progress& p) {
    progress.OnStatus({p.kind, p.epoch, p.epochs, p.step, p.steps, p.samples_per_second,
                       p.bytes_per_second, p.au_percentage});
  };
  options.interval_s = flags.interval;
  report::TimeseriesLog rows_so_far(lead && flags.interval > 0 ? folder : "");
  options.on_row = [&](const metrics::TimeseriesRow& row) {
    progress.OnRow(row);
    rows_so_far.Append(row);
  };
  options.log = [&](const std::string& line) { progress.Above([&] { log.Info(line); }); };

  // MLPerf Storage's checks of the setup (dataset >= 5x memory, results elsewhere, ...).
  report::RulesReport rules;
  if (lead) {
    rules = CheckRunRules(layout, *storage, "the data", dataset.TrainBytes(), folder);
    for (const auto& w : rules.warnings) log.Warn(w);
  }
  InstallInterruptHandler();  // before the line that tells a watcher the run has begun
  std::string spread;
  if (ranks.Size() > 1) {
    std::vector<std::string> hosts;
    for (const auto& rank : layout.ranks)
      if (std::find(hosts.begin(), hosts.end(), rank.host) == hosts.end())
        hosts.push_back(rank.host);
    spread = fmt::format(" over {} ranks on {} host(s) ({})", ranks.Size(), hosts.size(),
                         fmt::join(hosts, ", "));
  }
  log.Info(fmt::format(
      "run {}: {} accelerator(s){}, {} train files ({}) at {}, {} epochs, results in {}",
      config.workload_name, layout.total_accelerators, spread, dataset.train.size(),
      FormatBytes(static_cast<double>(dataset.TrainBytes())), uri, config.train.epochs, folder));

  if (flags.drop_caches)
    log.Info(fmt::format("--drop-caches: page caches dropped on {} host(s) before the run",
                         hosts_dropped));
  if (config.workflow.checkpoint)
    log.Info(fmt::format("checkpoints ({} model bytes, twice that of optimizer state) go to {}",
                         FormatBytes(static_cast<double>(config.model.model_size_bytes)),
                         checkpoint_folder));
  metrics::RunRecord mine;
  try {
    mine = sim::RunEmulatedTraining(config, dataset, *storage, ranks, options);
  } catch (const UsageError&) {
    // Refused before the first read (what the reads need cannot be done, e.g. compressed
    // HDF5 on S3): a results folder with nothing measured would pass for a run.
    if (lead) {
      std::error_code ignored;
      std::filesystem::remove_all(folder, ignored);
    }
    throw;
  }
  mine.storage_counters = storage->Counters();
  for (auto& [op, latency] : storage->OperationLatencies())
    mine.storage_latency_ns[op] = std::move(latency);
  progress.End();

  return ReportJob({config, ranks, layout, folder, started, log, flags.drop_caches, flags.interval,
                    lead ? &rules : nullptr},
                   mine);
}

}  // namespace

void AddRunCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "run",
      "Emulate training over a workload's dataset (MLPerf Storage style): AU, samples/s, MB/s");
  command->footer(
      "Examples:\n"
      "  trainbench run resnet50_h100 --accelerators 8 dataset.data_folder=/mnt/fs/resnet50\n"
      "  trainbench run my_workload.yaml train.computation_time=0 reader.read_threads=4\n"
      "  mpirun -np 8 --hostfile hosts trainbench run resnet50_h100 -a 4   # 32 accelerators\n"
      "Results: <output.folder>/<workload>-<UTC time>/ (config.yaml, summary.json, epochs.csv, "
      "log);\nthe last stdout line is {\"trainbench_metrics\": {...}}. Ctrl-C stops and keeps "
      "partial results.");
  static RunFlags flags;
  AddWorkloadArgs(*command, flags.workload);
  command
      ->add_option("--accelerators,-a", flags.accelerators,
                   "Emulated accelerators in this process (default 1); under mpirun, per rank "
                   "(ranks may differ: set it per host with mpirun's MPMD form)")
      ->check(AtLeast(1));
  command->add_flag("--no-barrier", flags.no_barrier,
                    "Let accelerators run their steps independently (no all-reduce barrier)");
  std::string engines = "How reads are done (fio's ioengine):";
  std::vector<std::string> names;
  for (const auto& e : storage::KnownReadEngines()) {
    engines += fmt::format("\n  {:7} {}", e.name, e.help);
    names.push_back(e.name);
  }
  engines += "\n(default: the storage's own, pread on a file system; hdf5 reads through libhdf5)";
  command->add_option("--io-engine", flags.reads.engine, engines)->check(CLI::IsMember(names));
  command
      ->add_option("--io-threads", flags.reads.io_threads,
                   "Reader loops, each with its own queue (default: accelerators x "
                   "read_threads, at most 4 per core for pread, 1 per core for deeper engines; "
                   "at most 1024)")
      ->check(Between(0, 1024));
  command
      ->add_option("--io-depth", flags.reads.io_depth,
                   "Reads in flight per reader loop (default: 1 for pread; for uring and "
                   "null, accelerators x read_threads / loops, at most 256; at most 1024, and "
                   "--io-threads x --io-depth at most 4096)")
      ->check(Between(0, 1024));
  command->add_flag("--no-progress", flags.no_progress,
                    "No live progress (a block redrawn on a terminal, else a line every 10 "
                    "intervals)");
  command
      ->add_option("--interval", flags.interval,
                   "Seconds per row of timeseries.csv in the results (samples/s, MB/s, read "
                   "latency p50/p99, data wait, CPU, memory per interval; default 1; 0: none)")
      ->check(NonNegativeFinite());
  command->add_flag("--drop-caches", flags.drop_caches,
                    "Empty the page cache of every host before the run (root only; one rank "
                    "per host does it), so reads come from storage");
  command->callback([&action] { action = [] { return Execute(flags); }; });
}

}  // namespace trainbench::cli
