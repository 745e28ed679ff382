#include "app/mix/mix_job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "app/frame/binary_job.h"
#include "app/frame/job_frame.h"
#include "app/run/run_job.h"
#include "app/workload_load.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "dist/communicator.h"
#include "metrics/op_log.h"
#include "metrics/process_stats.h"
#include "report/results_folder.h"

namespace trainbench::app {
namespace {

// A background training repeats its epochs until the foreground jobs end: this many at most.
constexpr uint64_t kBackgroundEpochs = 1000000;
constexpr auto kSupervisePoll = std::chrono::milliseconds(50);

void CheckPart(const MixPart& part, int ranks) {
  const auto& job = part.spec;
  const auto& c = part.run.config;
  if (job.accelerators < static_cast<uint64_t>(ranks))
    throw UsageError(fmt::format(
        "job {}: {} accelerator(s) over {} ranks leaves a rank without one: give it {} or more",
        job.name, job.accelerators, ranks, ranks));
  if (!c.workflow.train && !c.workflow.checkpoint)
    throw UsageError(fmt::format(
        "job {}: {} neither trains nor checkpoints (workflow.train and workflow.checkpoint are "
        "false): a mix runs trainings and checkpointing workloads",
        job.name, c.workload_name));
  if (job.every_s > 0 && c.workflow.train)
    throw UsageError(fmt::format(
        "job {}: every_s is for checkpointing workloads (workflow.train false, as llama3_8b); {} "
        "trains: checkpoint it with checkpoint.steps_between_checkpoints",
        job.name, c.workload_name));
  if (job.every_s > 0 && !job.Background())
    throw UsageError(fmt::format(
        "job {}: a checkpoint every {:g} s goes on until the other jobs end: it cannot be a "
        "foreground job (drop background: false)",
        job.name, job.every_s));
}

// A job as the envelope keeps it: its workload, accelerators, role and the command that runs
// it alone (secrets shown as <redacted>).
struct MixConfigJob {
  std::string name, workload;
  uint64_t accelerators = 0;
  std::string role;
  Nullable<double> every_s;
  std::string command;
};
TB_JSON_FIELDS(MixConfigJob, name, workload, accelerators, role, every_s, command)

struct MixConfigFigures {
  std::string source;
  std::vector<MixConfigJob> jobs;
  double interval_s = 0;
  bool baseline = false;
};
TB_JSON_FIELDS(MixConfigFigures, source, jobs, interval_s, baseline)

// A job in the mix's final line.
struct MixJobLine {
  std::string name;
  Nullable<double> au_percentage, samples_per_second, MB_per_second;
  uint64_t checkpoints_written = 0;
};
TB_JSON_FIELDS(MixJobLine, name, au_percentage, samples_per_second, MB_per_second,
               checkpoints_written)

struct MixLineExtra {
  std::vector<MixJobLine> jobs;
  double storage_MB_per_second = 0;
};
TB_JSON_FIELDS(MixLineExtra, jobs, storage_MB_per_second)

MixConfigFigures MixConfig(const MixOptions& options, const std::vector<MixPart>& parts) {
  MixConfigFigures config{options.mix.source, {}, options.interval_s, options.baseline};
  for (const auto& p : parts) {
    MixConfigJob& job = config.jobs.emplace_back();
    job.name = p.spec.name;
    job.workload = p.run.config.workload_name;
    job.accelerators = p.spec.accelerators;
    job.role = p.spec.Background() ? "background" : "foreground";
    if (p.spec.every_s > 0) job.every_s.emplace(p.spec.every_s);
    job.command = TrainbenchCommand("run", p.spec.workload, p.spec.overrides);
  }
  return config;
}

// One job on its own thread: RunJob on the job's communicator, its lines tagged with its
// name, stopped when the mix sets `stop` (saying `reason`).
void RunPart(const MixPart& part, dist::Communicator& ranks, const JobEnv& env, ResultsSink* sink,
             const std::atomic<bool>& stop, const std::string& reason, MixJobResult& out) {
  ThreadLogTag tag(part.spec.name);
  ThreadStop stop_scope(stop, reason);
  JobEnv job_env{ranks, env.open_storage, sink, env.check_local_folders};
  try {
    RunOutcome run = RunJob(part.run, job_env);
    out.exit_code = run.exit_code;
    out.error = run.error;
    out.folder = run.results.folder;
    out.summary = std::move(run.summary);
    out.record = std::move(run.record);
    if (!run.line.empty())
      nlohmann::json::parse(run.line)
          .value("trainbench_metrics", nlohmann::json::object())
          .get_to(out.metrics);
  } catch (const Error& e) {
    out.exit_code = static_cast<int>(e.code());
    out.error = e.what();
    LogError(e.what());
  } catch (const std::exception& e) {
    out.exit_code = static_cast<int>(ExitCode::kRuntime);
    out.error = e.what();
    LogError(e.what());
  }
}

// The jobs' ends, watched from the mix's thread: a job that fails stops the others; the
// background jobs stop once the foreground ones have ended (or after `background_s`).
class Supervisor {
 public:
  Supervisor(const std::vector<MixPart>& parts, MixRecord& record, double background_s)
      : parts_(parts),
        record_(record),
        background_s_(background_s),
        stop_(parts.size()),
        reasons_(parts.size()),
        done_(parts.size()),
        seen_(parts.size(), false) {}

  const std::atomic<bool>& Stop(size_t j) const { return stop_[j]; }
  const std::string& Reason(size_t j) const { return reasons_[j]; }
  void Ended(size_t j) { done_[j].store(true, std::memory_order_release); }

  void Watch() {
    bool any_foreground = false;
    for (const auto& p : parts_) any_foreground = any_foreground || !p.spec.Background();
    for (;;) {
      bool running = false, foreground = false;
      for (size_t j = 0; j < parts_.size(); ++j) {
        if (!done_[j].load(std::memory_order_acquire)) {
          running = true;
          foreground = foreground || !parts_[j].spec.Background();
        } else if (!seen_[j]) {
          seen_[j] = true;
          OnEnd(j);
        }
      }
      if (!running) return;
      const double elapsed = NowSeconds() - record_.started_at_s;
      if (any_foreground && !foreground)
        StopBackground("ended with the mix: its foreground jobs ended");
      else if (background_s_ > 0 && elapsed >= background_s_)
        StopBackground(
            fmt::format("ran {:.1f} s alone, as long as the mix's foreground jobs", background_s_));
      std::this_thread::sleep_for(kSupervisePoll);
    }
  }

 private:
  void OnEnd(size_t j) {
    const auto& job = record_.jobs[j];
    if (job.exit_code == 0) return;
    // A job that failed (or was refused) stops the others: their figures would no longer be
    // a mix's.
    for (size_t k = 0; k < parts_.size(); ++k)
      if (k != j)
        Request(k, fmt::format("stopped: job {} of the mix stopped ({})", parts_[j].spec.name,
                               job.error.empty() ? job.record.stop_reason : job.error));
  }

  void StopBackground(const std::string& reason) {
    for (size_t k = 0; k < parts_.size(); ++k)
      if (parts_[k].spec.Background()) Request(k, reason);
  }

  void Request(size_t k, const std::string& reason) {
    if (stop_[k].load(std::memory_order_relaxed)) return;
    reasons_[k] = reason;  // before the flag: the job reads it once the flag is set
    stop_[k].store(true, std::memory_order_release);
  }

  const std::vector<MixPart>& parts_;
  MixRecord& record_;
  double background_s_;
  std::vector<std::atomic<bool>> stop_;
  std::vector<std::string> reasons_;
  std::vector<std::atomic<bool>> done_;
  std::vector<bool> seen_;
};

int WorstExit(const MixRecord& record) {
  int worst = 0;
  for (const auto& job : record.jobs) {
    // Usage (2) before interrupted (130) before failed (1): what the user must fix first.
    auto rank = [](int code) { return code == 2 ? 3 : code == 130 ? 2 : code != 0 ? 1 : 0; };
    if (rank(job.exit_code) > rank(worst)) worst = job.exit_code;
  }
  return worst;
}

// Each job by itself, before the mix: the foreground ones one after another, then each
// background one for as long as the longest foreground one took.
MixRecord RunAlone(const std::vector<MixPart>& parts, JobEnv& env, const std::string& folder,
                   const MixResults& results, bool drop_caches, JobLog& log) {
  MixRecord alone;
  alone.jobs.resize(parts.size());
  alone.started_at_s = NowSeconds();
  double longest = 0;
  for (const bool background : {false, true}) {
    for (size_t j = 0; j < parts.size(); ++j) {
      if (parts[j].spec.Background() != background || InterruptRequested()) continue;
      log.Info(fmt::format("mix: --baseline: job {} alone", parts[j].spec.name));
      MixRecord one = RunTogether({parts[j]}, env, folder.empty() ? "" : folder + "/alone", results,
                                  background ? std::max(longest, 1.0) : 0, drop_caches);
      longest = std::max(longest, one.wall_s);
      alone.jobs[j] = std::move(one.jobs.front());
      // A job that cannot run alone cannot run in the mix either: nothing more is run.
      if (alone.jobs[j].exit_code != 0) {
        alone.wall_s = NowSeconds() - alone.started_at_s;
        return alone;
      }
    }
  }
  alone.wall_s = NowSeconds() - alone.started_at_s;
  return alone;
}

}  // namespace

std::vector<MixPart> PrepareMix(const MixOptions& options, int ranks, int rank) {
  std::vector<MixPart> parts;
  for (const auto& job : options.mix.jobs) {
    MixPart part;
    part.spec = job;
    RunJobOptions& run = part.run;
    run.config = LoadCheckedWorkload(job.workload, job.overrides, options.quiet);
    run.datagen_command = TrainbenchCommand("datagen", job.workload, job.overrides);
    const auto size = static_cast<uint64_t>(ranks);
    run.accelerators =
        job.accelerators / size + (static_cast<uint64_t>(rank) < job.accelerators % size ? 1 : 0);
    run.progress = false;  // the jobs' lines, each tagged with its name, say how they go
    run.interval_s = options.interval_s;
    run.reads = options.reads;
    run.checkpoint_every_s = job.every_s;
    run.mix_job = job.name;
    if (!options.op_log.empty())
      run.op_log = metrics::TaggedOpLogPath(options.op_log, "." + job.name);
    CheckPart(part, ranks);
    if (job.Background() && run.config.workflow.train) run.config.train.epochs = kBackgroundEpochs;
    CheckRunOptions(run);
    parts.push_back(std::move(part));
  }
  return parts;
}

void ResolveMixDatasets(std::vector<MixPart>& parts, JobEnv& env, std::optional<size_t> least_of) {
  // Every rank finds every dataset; an error on any rank (only rank 0 probes the writer's
  // lock) is every rank's, so none goes on to collectives the others never reach.
  std::string error;
  int code = 0;
  for (size_t j = 0; j < parts.size() && error.empty(); ++j) {
    auto& part = parts[j];
    const uint64_t accelerators =
        least_of == j ? static_cast<uint64_t>(env.ranks.Size()) : part.spec.accelerators;
    try {
      part.run.dataset = ResolveRunDataset(part.run, accelerators, env);
    } catch (const Error& e) {
      error = fmt::format("job {}: {}", part.spec.name, e.what());
      code = static_cast<int>(e.code());
    }
  }
  for (const auto& said : env.ranks.AllGather(fmt::format("{}\t{}", code, error))) {
    const auto tab = said.find('\t');
    if (tab + 1 == said.size()) continue;
    const auto exit = static_cast<ExitCode>(std::stoi(said.substr(0, tab)));
    if (exit == ExitCode::kUsage) throw UsageError(said.substr(tab + 1));
    throw Error(exit, said.substr(tab + 1));
  }
}

MixRecord RunTogether(const std::vector<MixPart>& given, JobEnv& env, const std::string& folder,
                      const MixResults& results, double background_s, bool drop_caches) {
  const size_t n = given.size();
  // Each job's results are in the mix's folder: its config says so (config.yaml), and its
  // checks look there, not at the output.folder it would take alone.
  std::vector<MixPart> parts = given;
  if (!folder.empty())
    for (auto& p : parts) p.run.config.output.folder = folder;
  // Collective, in the same order on every rank, before any job's thread calls its own.
  std::vector<std::unique_ptr<dist::Communicator>> ranks;
  for (size_t j = 0; j < n; ++j) ranks.push_back(env.ranks.Duplicate());
  std::vector<std::unique_ptr<ResultsSink>> sinks(n);
  if (env.ranks.Rank() == 0 && !folder.empty())
    for (size_t j = 0; j < n; ++j)
      sinks[j] = results(folder, parts[j].spec.name, parts[j].run.config.output.log_file);
  MixRecord record;
  record.jobs.resize(n);
  for (size_t j = 0; j < n; ++j) {
    record.jobs[j].spec = parts[j].spec;
    record.jobs[j].workload = parts[j].run.config.workload_name;
    record.jobs[j].trains = parts[j].run.config.workflow.train;
  }
  if (drop_caches) {
    const size_t hosts = DropPageCaches(sim::ExchangeRankLayout(env.ranks, 1), env.ranks);
    if (env.ranks.Rank() == 0)
      LogInfo(fmt::format("mix: --drop-caches: page caches dropped on {} host(s)", hosts));
  }
  Supervisor supervisor(parts, record, background_s);
  const double cpu0 = metrics::ProcessCpuSeconds();
  record.started_at_s = NowSeconds();
  std::vector<std::thread> threads;
  for (size_t j = 0; j < n; ++j)
    threads.emplace_back([&, j] {
      RunPart(parts[j], *ranks[j], env, sinks[j].get(), supervisor.Stop(j), supervisor.Reason(j),
              record.jobs[j]);
      supervisor.Ended(j);
    });
  supervisor.Watch();
  for (auto& t : threads) t.join();
  record.wall_s = NowSeconds() - record.started_at_s;
  record.cpu_seconds = metrics::ProcessCpuSeconds() - cpu0;
  return record;
}

MixJobResult RunMixProbe(std::vector<MixPart> parts, size_t vary, const RunJobOptions& run,
                         JobEnv& env, const std::string& output) {
  for (size_t j = 0; j < parts.size(); ++j) {
    MixPart& part = parts[j];
    part.spec.background = j != vary;
    if (j == vary)
      part.run = run;
    else if (part.run.config.workflow.train)
      part.run.config.train.epochs = kBackgroundEpochs;
  }
  std::string folder;
  if (env.ranks.Rank() == 0 && !output.empty())
    folder = report::CreateResultsFolder(output, "mix", UtcStamp());
  MixRecord record =
      RunTogether(parts, env, folder,
                  [](const std::string& in, const std::string& name, const std::string& log) {
                    return std::make_unique<FolderResults>(in, log, name);
                  });
  return std::move(record.jobs[vary]);
}

std::string OtherJobsWords(const std::vector<MixPart>& parts, size_t vary) {
  std::vector<std::string> words;
  for (size_t j = 0; j < parts.size(); ++j) {
    if (j == vary) continue;
    const auto& p = parts[j];
    words.push_back(fmt::format(
        "{} ({}, {} accelerator(s){})", p.spec.name, p.run.config.workload_name,
        p.spec.accelerators,
        p.spec.every_s > 0 ? fmt::format(", a checkpoint every {:g} s", p.spec.every_s) : ""));
  }
  return fmt::format("{}", fmt::join(words, ", "));
}

MixOutcome MixJob(const MixOptions& options, JobEnv& env, const MixResults& results) {
  auto parts = PrepareMix(options, env.ranks.Size(), env.ranks.Rank());
  ResolveMixDatasets(parts, env);
  std::vector<std::string> names;
  for (const auto& p : parts) names.push_back(p.spec.name);
  JobFrame frame(env, "mix", fmt::format("{}", fmt::join(names, "+")), MixConfig(options, parts),
                 options.interval_s);
  frame.Begin("mix", {{"jobs", names}});
  const std::string folder = frame.folder();
  InstallInterruptHandler();
  frame.log().Info(fmt::format("mix: {} job(s) together on {} rank(s): {}{}, results in {}",
                               parts.size(), env.ranks.Size(), fmt::join(names, ", "),
                               options.baseline ? " (each alone first: --baseline)" : "",
                               folder.empty() ? "(rank 0's)" : folder));
  std::optional<MixRecord> alone;
  if (options.baseline)
    alone = RunAlone(parts, env, folder, results, options.drop_caches, frame.log());
  MixRecord together;
  if (!InterruptRequested() && (!alone || WorstExit(*alone) == 0)) {
    if (options.baseline) frame.log().Info("mix: the jobs together");
    together = RunTogether(parts, env, folder, results, 0, options.drop_caches);
  }
  MixOutcome out;
  const int worst = std::max(WorstExit(together), alone ? WorstExit(*alone) : 0);
  if (!frame.lead()) {
    out.exit_code = worst;
    return out;
  }
  out.figures = MixFigures(together, alone ? &*alone : nullptr, options.interval_s);
  out.text = MixTable(out.figures);
  JobEnding ending;
  ending.interrupted = InterruptRequested();
  // The job that stopped the mix first (a failure), then one the mix stopped for it.
  for (const bool failed : {true, false})
    for (const auto& job : together.jobs)
      if (failed ? job.exit_code != 0 : !job.record.complete && !job.spec.Background()) {
        ending.complete = false;
        if (ending.stop_reason.empty())
          ending.stop_reason = fmt::format("job {}: {}", job.spec.name,
                                           job.error.empty() ? job.record.stop_reason : job.error);
      }
  if (together.jobs.empty()) {  // not run: Ctrl-C, or a job failed alone first
    ending.complete = false;
    ending.stop_reason = "interrupted";
    if (alone)
      for (const auto& job : alone->jobs)
        if (job.exit_code != 0) {
          ending.stop_reason = fmt::format("job {} alone (--baseline): {}", job.spec.name,
                                           job.error.empty() ? job.record.stop_reason : job.error);
          break;
        }
  }
  MixLineExtra line{{}, out.figures.storage.MB_per_second};
  for (const auto& job : out.figures.jobs)
    line.jobs.push_back({job.name, job.au_percentage, job.samples_per_second, job.MB_per_second,
                         job.checkpoints_written});
  frame.End(out, ending, nlohmann::ordered_json(out.figures), {}, "trainbench_mix", {"mix"},
            nlohmann::ordered_json(line));
  if (worst != 0 && (out.exit_code == 0 || worst == 2)) {
    out.exit_code = worst;
    if (out.error.empty()) out.error = ending.stop_reason;
  }
  return out;
}

MixOutcome MixJob(const MixOptions& options) {
  dist::WorldServesThreads();  // before the world is made: each job on its own thread
  std::string output = options.output_folder;
  if (output.empty() && !options.mix.jobs.empty())
    output = LoadCheckedWorkload(options.mix.jobs.front().workload,
                                 options.mix.jobs.front().overrides, true)
                 .output.folder;
  BinaryJob binary(output, "mix.log", "--output");
  return MixJob(options, binary.env(),
                [](const std::string& folder, const std::string& name, const std::string& log) {
                  return std::make_unique<FolderResults>(folder, log, name);
                });
}

}  // namespace trainbench::app
