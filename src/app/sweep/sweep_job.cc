#include "app/sweep/sweep_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "app/frame/binary_job.h"
#include "app/frame/job_frame.h"
#include "app/official_commands.h"
#include "app/sweep/sweep_probe.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/json_fields.h"
#include "common/log.h"
#include "common/units.h"
#include "config/datasize.h"
#include "config/workload_yaml.h"
#include "dist/communicator.h"
#include "formats/wire/crc32c.h"
#include "metrics/process_stats.h"
#include "report/results_folder.h"
#include "sweep/answer.h"

namespace trainbench::app {
namespace {

constexpr const char* kProbeJournal = "probes.jsonl";

// What the search is: the resolved config, its range and probe length, and the ranks.
// A mix's jobs (the sweep's own among them), as a search over one of them depends on them.
struct SweepMix {
  std::vector<MixPart> parts;
  size_t vary = 0;
};

std::string SearchId(const config::WorkloadConfig& config, const SweepOptions& o,
                     uint64_t probe_steps, int ranks, const std::optional<SweepMix>& mix) {
  std::string text = config::ToYaml(config) + fmt::format("min={};max={};probe_steps={};ranks={};",
                                                          o.lowest, o.highest, probe_steps, ranks);
  if (mix) {
    text += fmt::format("vary={};", mix->vary);
    for (const auto& p : mix->parts)
      text += fmt::format("job={};accelerators={};every_s={};", p.spec.name, p.spec.accelerators,
                          p.spec.every_s) +
              config::ToYaml(p.run.config);
  }
  return fmt::format("{:08x}", formats::Crc32c(text.data(), text.size()));
}

// A probe's place in the search: its count, full-length or not, and which repeat.
using ProbeKey = std::tuple<uint64_t, bool, int>;

// The probes an earlier invocation journaled, by their place; a line cut by a kill is skipped
// (that probe runs again).
std::map<ProbeKey, sweep::SweepProbe> ReadProbeJournal(const std::string& path) {
  std::map<ProbeKey, sweep::SweepProbe> probes;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    try {
      const sweep::SweepProbe p = sweep::ProbeFromJson(nlohmann::json::parse(line));
      if (p.complete) probes[{p.accelerators, p.full, p.repeat}] = p;
    } catch (const std::exception&) {
    }
  }
  return probes;
}

// The lines that would confirm a sweep's answer with the official tools, and the dataset
// they need for it (app/official_commands.h).
struct OfficialFigures {
  uint64_t dataset_files = 0;
  double dataset_GB = 0;
  std::string mlpstorage_datasize, mlpstorage_datagen, mlpstorage_run, dlio;
};
TB_JSON_FIELDS(OfficialFigures, dataset_files, dataset_GB, mlpstorage_datasize, mlpstorage_datagen,
               mlpstorage_run, dlio)

// A job of the mix beside the varied one (sweep --mix), and the mix in the summary.
struct SweepMixBeside {
  std::string name, workload;
  uint64_t accelerators = 0;
  Nullable<double> every_s;
};
TB_JSON_FIELDS(SweepMixBeside, name, workload, accelerators, every_s)

struct SweepMixFigures {
  std::string source, vary;
  std::vector<SweepMixBeside> beside;
};
TB_JSON_FIELDS(SweepMixFigures, source, vary, beside)

// A find-max sweep's figures in summary.json, in the order a reader sees them.
struct FindMaxFigures {
  std::string mode = "find_max";  // the page's sign that the search ended (a grid's is "grid")
  // A stopped search has no answer: null, not 0 (0 is the answer "not even --min passes").
  Nullable<uint64_t> answer_accelerators;
  Nullable<uint64_t> first_failure_accelerators;
  // The count whose AU was no verdict (too few steps), which is not a failure.
  Nullable<uint64_t> no_verdict_accelerators;
  // Confirmed: the full-length runs agree with the search, every repeat included.
  bool confirmed = false;
  Nullable<bool> stable;  // null: no repeats were asked
  nlohmann::ordered_json confirmation;
  bool limited_by_dataset = false;
  bool limited_by_range = false;
  std::string sentence;
  // What limited the answer (storage, client, memory) and the figures that said so.
  Nullable<std::string> limited_by;
  Nullable<std::string> limit_evidence;
  double au_target_percentage = 0;
  uint64_t probe_steps = 0;
  uint64_t counts_tried = 0;  // distinct accelerator counts run (probes and full)
  uint64_t min_accelerators = 0;
  uint64_t max_accelerators = 0;
  double demand_MB_per_second_per_accelerator = 0;
  int ranks = 1;
  std::optional<OfficialFigures> official;  // where an answer was found
  std::vector<nlohmann::ordered_json> probes;
};
TB_JSON_FIELDS(FindMaxFigures, mode, answer_accelerators, first_failure_accelerators,
               no_verdict_accelerators, confirmed, stable, confirmation, limited_by_dataset,
               limited_by_range, sentence, limited_by, limit_evidence, au_target_percentage,
               probe_steps, counts_tried, min_accelerators, max_accelerators,
               demand_MB_per_second_per_accelerator, ranks, official, probes)

// The summary's figures before the answer: the probes so far (what a killed sweep leaves).
struct SweepSoFar {
  Nullable<uint64_t> answer_accelerators;  // none yet
  std::vector<nlohmann::ordered_json> probes;
};
TB_JSON_FIELDS(SweepSoFar, answer_accelerators, probes)

nlohmann::ordered_json SoFar(const std::vector<sweep::SweepProbe>& probes) {
  SweepSoFar f;
  for (const auto& p : probes) f.probes.push_back(sweep::ProbeJson(p));
  return f;
}

// What the checks settle before any run.
struct SweepPlan {
  uint64_t probe_steps = 0;
  double demand_per_accel = 0;  // bytes/s one accelerator asks at 100% AU
};

// Refused before any probe (UsageError, exit 2): what can give no answer or no verdict, where
// every count would read as "no verdict" and the sentence would blame the dataset.
SweepPlan CheckSweep(const SweepOptions& options) {
  const auto& config = options.run.config;
  if (options.lowest < 1 || options.highest < options.lowest)
    throw UsageError(fmt::format("--min {} --max {}: give 1 <= --min <= --max (accelerator counts)",
                                 options.lowest, options.highest));
  if (!config.workflow.train)
    throw UsageError(
        fmt::format("{} is a checkpointing workload (workflow.train false): it has no AU to sweep",
                    config.workload_name));
  if (options.confirm_runs < 1 || options.confirm_runs > sweep::kMaxConfirmRuns)
    throw UsageError(fmt::format(
        "--confirm {}: give 1 to {} full-length runs at each side of the answer ({} by default; "
        "MLPerf Storage's submissions take 5)",
        options.confirm_runs, sweep::kMaxConfirmRuns, sweep::kDefaultConfirmRuns));
  const double step_s = config.train.computation_time.mean;
  if (step_s <= 0)
    throw UsageError(
        "train.computation_time is 0: AU is not meaningful, so no count can pass; give the "
        "accelerator's step time (`trainbench train --calibrate` measures one)");
  SweepPlan plan;
  plan.probe_steps = options.probe_steps > 0 ? options.probe_steps : DefaultProbeSteps(config);
  const uint64_t verdict_steps = config::MinStepsForAuVerdict(config);
  if (plan.probe_steps < verdict_steps)
    throw UsageError(fmt::format(
        "--probe-steps {}: an AU verdict needs at least {} steps (metric.exclude_start_steps "
        "{} plus the prefetch's); give --probe-steps {} or more",
        plan.probe_steps, verdict_steps, config.metric.exclude_start_steps, verdict_steps));
  const uint64_t samples = config.dataset.num_files_train * config.dataset.num_samples_per_file;
  const uint64_t steps_at_min =
      samples / std::max<uint64_t>(1, config.reader.batch_size * options.lowest);
  if (steps_at_min < verdict_steps)
    throw UsageError(fmt::format(
        "--min {}: {} train samples give {} steps per epoch at batch {} x {} accelerator(s), "
        "fewer than the {} an AU verdict needs: add files (`trainbench datasize {} -a {}` says "
        "how many) or lower --min",
        options.lowest, samples, steps_at_min, config.reader.batch_size, options.lowest,
        verdict_steps, config.workload_name, options.lowest));
  // What one accelerator asks of the storage at 100% AU: a batch per step time.
  plan.demand_per_accel =
      static_cast<double>(config.reader.batch_size) * config.dataset.record_length_bytes / step_s;
  return plan;
}

// A sweep while it runs, in its steps: Open (the folder and the journal of an earlier
// invocation), Search (the probes, then the repeats that hold the boundary), Report (the
// figures, the files, the sentence, the final line). Rank 0 keeps the probes; every rank
// takes its verdicts, so the next count is the same everywhere.
class SweepRun {
 public:
  SweepRun(const SweepOptions& options, const SweepPlan& plan, JobEnv& env,
           const std::function<std::unique_ptr<ResultsSink>(const std::string&)>& probe_results,
           std::optional<SweepMix> mix)
      : options_(options),
        mix_(std::move(mix)),
        config_(options.run.config),
        plan_(plan),
        env_(env),
        ranks_(env.ranks),
        lead_(ranks_.Rank() == 0),
        probe_results_(probe_results) {}

  void Open();
  void Search();
  SweepOutcome Report();

 private:
  sweep::ProbeVerdict Probe(uint64_t n, bool full, int repeat);
  // A probe an earlier invocation finished: its verdict on every rank, without a run.
  std::optional<sweep::ProbeVerdict> Recall(uint64_t n, bool full, int repeat,
                                            const std::string& what);
  sweep::ProbeVerdict Measure(const RunJobOptions& run, uint64_t n, bool full, int repeat,
                              const std::string& what);
  ProbeRun RunOne(const RunJobOptions& run);
  void Journal(const sweep::SweepProbe& p);
  nlohmann::ordered_json Figures(const sweep::SweepAnswer& answer) const;
  // summary.json (marked not ended) and probes.csv with the probes so far.
  void KeepSoFar(const std::vector<sweep::SweepProbe>& probes);
  void WriteFiles();

  const SweepOptions& options_;
  const std::optional<SweepMix> mix_;  // --mix: the jobs beside every probe
  const config::WorkloadConfig& config_;
  const SweepPlan plan_;
  JobEnv& env_;
  dist::Communicator& ranks_;
  const bool lead_;
  const std::function<std::unique_ptr<ResultsSink>(const std::string&)>& probe_results_;
  std::optional<JobFrame> frame_;  // from Open; rank 0's results into env.results
  std::string folder_;             // rank 0's, where it keeps results
  std::map<ProbeKey, sweep::SweepProbe> earlier_;
  int stop_code_ = 0;  // the exit status of the run that stopped the search
  SweepOutcome out_;
};

// The sweep's folder is named by what it searches: the same command finds it again, and with
// it the journal of the probes an earlier invocation finished (probes.jsonl, a synced line as
// each ends), which it does not run again.
void SweepRun::Open() {
  frame_.emplace(env_, "sweep", config_.workload_name, config::ToJson(config_), 0.0);
  out_.reports = lead_;
  if (lead_ && env_.results) {
    try {
      frame_->BeginResumable(
          fmt::format("sweep-{}{}-max-{}", mix_ ? "mix-" : "",
                      mix_ ? mix_->parts[mix_->vary].spec.name : config_.workload_name,
                      SearchId(config_, options_, plan_.probe_steps, ranks_.Size(), mix_)),
          SoFar({}));
    } catch (const UsageError&) {
      throw;  // another sweep holds the folder: its message says what to do
    } catch (const std::exception& e) {
      throw UsageError(std::string(e.what()) + ": the sweep keeps its probes there");
    }
    folder_ = frame_->folder();
    earlier_ = ReadProbeJournal(folder_ + "/" + kProbeJournal);
    // The summary keeps what the earlier invocation measured while this one runs.
    if (!earlier_.empty()) {
      std::vector<sweep::SweepProbe> kept;
      for (const auto& [key, probe] : earlier_) kept.push_back(probe);
      KeepSoFar(kept);
    }
  }
  const std::string reused =
      ranks_.AllGather(earlier_.empty() ? "" : std::to_string(earlier_.size())).front();
  if (!reused.empty())
    LogInfo(
        fmt::format("sweep: {} probe(s) finished by an earlier run of this sweep in {} are "
                    "taken as they are",
                    reused, folder_));
  LogInfo(fmt::format(
      "sweep {}: the most accelerators at AU >= {:.0f}%, counts {} to {}, probes of {} steps "
      "then {} full-length run(s) at the answer and above it to confirm; each accelerator asks "
      "{:.2f} MB/s at 100% AU",
      config_.workload_name, 100.0 * config_.metric.au, options_.lowest, options_.highest,
      plan_.probe_steps, options_.confirm_runs, plan_.demand_per_accel / 1e6));
}

void SweepRun::Search() {
  try {
    out_.search =
        sweep::FindMaxAccelerators(options_.lowest, options_.highest,
                                   [&](uint64_t n, bool full) { return Probe(n, full, 0); });
    out_.held = sweep::HoldBoundary(out_.search, options_.confirm_runs,
                                    [&](uint64_t n, int repeat) { return Probe(n, true, repeat); });
  } catch (...) {
    // Refused before it measured anything (no dataset, a bad key): no folder that would pass
    // for a sweep. A folder an earlier invocation filled keeps its journal.
    if (lead_ && env_.results && out_.probes.empty() && earlier_.empty()) env_.results->Discard();
    throw;
  }
  if (out_.search.stopped) out_.exit_code = StoppedSweepExitCode(stop_code_);
}

sweep::ProbeVerdict SweepRun::Probe(uint64_t n, bool full, int repeat) {
  const std::string what =
      !full         ? "probe"
      : repeat == 0 ? "full-length"
                    : fmt::format("full-length {} of {}", repeat + 1, options_.confirm_runs);
  RunJobOptions run = options_.run;
  // This rank's share of n, as `run --accelerators` per rank adds up.
  const auto size = static_cast<uint64_t>(ranks_.Size());
  const auto rank = static_cast<uint64_t>(ranks_.Rank());
  run.accelerators = n / size + (rank < n % size ? 1 : 0);
  if (!full) run.config.train.total_training_steps = static_cast<int64_t>(plan_.probe_steps);
  if (!folder_.empty()) run.config.output.folder = folder_ + "/probes";
  if (run.accelerators == 0) {
    // More ranks than accelerators: this rank has none, which `run` refuses.
    throw UsageError(fmt::format(
        "{} accelerator(s) over {} ranks leaves a rank without one: give --min {} or more", n, size,
        size));
  }
  if (const auto kept = Recall(n, full, repeat, what)) return *kept;
  return Measure(run, n, full, repeat, what);
}

std::optional<sweep::ProbeVerdict> SweepRun::Recall(uint64_t n, bool full, int repeat,
                                                    const std::string& what) {
  std::string kept;
  if (lead_)
    if (const auto it = earlier_.find({n, full, repeat}); it != earlier_.end()) {
      const sweep::SweepProbe& p = it->second;
      kept = fmt::format("{}{}", p.passed ? 1 : 0, p.au_meaningful ? 1 : 0);
      out_.probes.push_back(p);
      LogInfo(fmt::format("sweep: {} accelerator(s) {}: AU {:.2f}% {} (an earlier run's)", n, what,
                          p.au_percentage, sweep::VerdictWord(p)));
    }
  kept = ranks_.AllGather(kept).front();
  if (kept.empty()) return std::nullopt;
  return sweep::ProbeVerdict{kept[0] == '1', kept[1] == '1', false};
}

sweep::ProbeVerdict SweepRun::Measure(const RunJobOptions& run, uint64_t n, bool full, int repeat,
                                      const std::string& what) {
  const ProbeRun done = RunOne(run);
  if (done.code != 0) stop_code_ = done.code;
  std::string verdict;
  if (lead_) {
    sweep::SweepProbe p = sweep::ProbeOf(done.summary, n, full, plan_.demand_per_accel);
    p.repeat = repeat;
    p.folder = done.folder;
    const bool stopped =
        done.code != 0 || done.summary.is_null() || !done.summary.value("complete", false);
    LogInfo(fmt::format("sweep: {} accelerator(s) {}: AU {:.2f}% {} ({:.1f} MB/s of {:.1f} asked)",
                        n, what, p.au_percentage, sweep::VerdictWord(p), p.mb_per_second,
                        p.demand_mb_per_second));
    // A stopped probe is not journaled: the rerun runs it again.
    if (!stopped) Journal(p);
    verdict = fmt::format("{}{}{}", p.passed ? 1 : 0, p.au_meaningful ? 1 : 0, stopped ? 1 : 0);
    out_.probes.push_back(std::move(p));
    KeepSoFar(out_.probes);
  }
  // Every rank takes rank 0's verdict: the next count is the same everywhere.
  verdict = ranks_.AllGather(verdict).front();
  return sweep::ProbeVerdict{verdict[0] == '1', verdict[1] == '1',
                             verdict[2] == '1' || done.code != 0};
}

// The probe's run: alone, or with the mix's other jobs beside it (its folder then the varied
// job's, inside the probe's mix folder).
ProbeRun SweepRun::RunOne(const RunJobOptions& run) {
  const std::string probes = folder_.empty() ? "" : folder_ + "/probes";
  if (!mix_) return RunProbe(run, env_, lead_ ? probe_results_(probes) : nullptr);
  MixJobResult job = RunMixProbe(mix_->parts, mix_->vary, run, env_, probes);
  return ProbeRun{job.exit_code, std::move(job.summary), job.folder};
}

// Journaled as it ends, beside the summary so far (KeepSoFar): a sweep killed later keeps both.
void SweepRun::Journal(const sweep::SweepProbe& p) {
  if (folder_.empty()) return;
  try {
    report::AppendResultLine(folder_, kProbeJournal, sweep::ProbeJson(p).dump());
  } catch (const std::exception& e) {
    LogWarning(fmt::format("sweep: {}: a rerun will run this probe again", e.what()));
  }
}

nlohmann::ordered_json SweepRun::Figures(const sweep::SweepAnswer& answer) const {
  const sweep::SearchResult& r = out_.search;
  FindMaxFigures f;
  if (!r.stopped) f.answer_accelerators.emplace(r.answer);
  if (r.first_failure) f.first_failure_accelerators.emplace(*r.first_failure);
  if (r.no_verdict) f.no_verdict_accelerators.emplace(*r.no_verdict);
  f.confirmed = r.confirmed && out_.held.Stable();
  if (out_.held.runs_per_side > 0) f.stable.emplace(out_.held.Stable());
  f.confirmation = sweep::ConfirmationJson(out_.held, out_.probes);
  f.limited_by_dataset = r.limited_by_dataset;
  f.limited_by_range = r.limited_by_range;
  f.sentence = answer.sentence;
  if (answer.limit) {
    f.limited_by.emplace(sweep::LimitName(answer.limit->limit));
    f.limit_evidence.emplace(answer.limit->evidence);
  }
  f.au_target_percentage = 100.0 * config_.metric.au;
  f.probe_steps = plan_.probe_steps;
  std::set<uint64_t> counts;
  for (const auto& p : out_.probes) counts.insert(p.accelerators);
  f.counts_tried = counts.size();
  f.min_accelerators = options_.lowest;
  f.max_accelerators = options_.highest;
  f.demand_MB_per_second_per_accelerator = plan_.demand_per_accel / 1e6;
  f.ranks = ranks_.Size();
  if (r.answer > 0) {
    // The lines that confirm N* with the official tools, and the dataset they need for it.
    const double memory_gib = static_cast<double>(metrics::HostMemoryBytes()) / kGiB;
    const auto official =
        OfficialCommandsFor(config_, r.answer, frame_->envelope().host_names, memory_gib);
    f.official = OfficialFigures{official.size.files, official.size.bytes / 1e9,
                                 official.datasize,   official.datagen,
                                 official.run,        official.dlio};
  }
  for (const auto& p : out_.probes) f.probes.push_back(sweep::ProbeJson(p));
  return f;
}

void SweepRun::KeepSoFar(const std::vector<sweep::SweepProbe>& probes) {
  if (folder_.empty()) return;
  frame_->writer().Update(SoFar(probes));
  // The end says what it could not write.
  frame_->writer().File("probes.csv", sweep::ProbesCsv(probes));
}

// The envelope stamped on every rank 0, the files written where it keeps results.
void SweepRun::WriteFiles() {
  if (!folder_.empty()) frame_->writer().File("probes.csv", sweep::ProbesCsv(out_.probes));
  JobEnding ending;
  ending.complete = !out_.search.stopped;
  ending.stop_reason = out_.search.stop_reason;
  out_.results = frame_->Finish(ending, out_.figures, TimeseriesResult{});
  if (!out_.results.error.empty()) out_.results.folder.clear();
}

SweepOutcome SweepRun::Report() {
  if (!lead_) return std::move(out_);
  const sweep::SweepAnswer answer = sweep::AnswerOf(out_.search, out_.held, out_.probes, config_,
                                                    std::thread::hardware_concurrency());
  out_.sentence = answer.sentence;
  if (mix_)
    out_.sentence += fmt::format(", while the mix's other jobs ran beside it: {}",
                                 OtherJobsWords(mix_->parts, mix_->vary));
  out_.figures = Figures(answer);
  out_.figures["sentence"] = out_.sentence;
  if (mix_) {
    SweepMixFigures figures{options_.mix->mix.source, mix_->parts[mix_->vary].spec.name, {}};
    for (size_t j = 0; j < mix_->parts.size(); ++j) {
      if (j == mix_->vary) continue;
      const auto& p = mix_->parts[j];
      SweepMixBeside& beside = figures.beside.emplace_back();
      beside.name = p.spec.name;
      beside.workload = p.run.config.workload_name;
      beside.accelerators = p.spec.accelerators;
      if (p.spec.every_s > 0) beside.every_s.emplace(p.spec.every_s);
    }
    out_.figures["mix"] = figures;
  }
  WriteFiles();
  nlohmann::ordered_json brief;
  for (const char* key :
       {"answer_accelerators", "first_failure_accelerators", "confirmed", "stable", "confirmation",
        "au_target_percentage", "limited_by", "sentence"})
    brief[key] = out_.figures[key];
  nlohmann::ordered_json line;
  line["trainbench_sweep"] = brief;
  out_.line = FinalLine(line, frame_->envelope(), out_.results.folder);
  out_.text =
      sweep::SweepText(out_.probes, out_.held, out_.sentence, out_.figures, out_.search.answer);
  if (out_.search.stopped) out_.error = out_.sentence;
  return std::move(out_);
}

}  // namespace

uint64_t DefaultProbeSteps(const config::WorkloadConfig& config) {
  // The steps AU excludes at the start, and at least as many measured: a probe's AU then
  // covers steps that prefetching cannot hide.
  return std::max<uint64_t>(20, 2 * config::MinStepsForAuVerdict(config));
}

SweepOutcome SweepJob(
    const SweepOptions& options, JobEnv& env,
    const std::function<std::unique_ptr<ResultsSink>(const std::string&)>& probe_results) {
  if (options.mix) {
    // The varied job's run is the sweep's; the others are prepared as the mix gives them.
    MixOptions given = *options.mix;
    config::MixJob& vary = config::MixJobNamed(given.mix, options.vary, "--vary");
    // The search sets the varied job's count; what the mix file gives it does not count.
    vary.accelerators = std::max<uint64_t>(vary.accelerators, env.ranks.Size());
    SweepMix mix;
    mix.vary = static_cast<size_t>(&vary - given.mix.jobs.data());
    mix.parts = PrepareMix(given, env.ranks.Size(), env.ranks.Rank());
    ResolveMixDatasets(mix.parts, env, mix.vary);
    SweepOptions own = options;
    own.run = mix.parts[mix.vary].run;
    const SweepPlan plan = CheckSweep(own);
    SweepRun sweep(own, plan, env, probe_results, std::move(mix));
    sweep.Open();
    sweep.Search();
    return sweep.Report();
  }
  const SweepPlan plan = CheckSweep(options);
  SweepRun sweep(options, plan, env, probe_results, std::nullopt);
  sweep.Open();
  sweep.Search();
  return sweep.Report();
}

SweepOutcome SweepJob(const SweepOptions& options) {
  // Before the world is made: a mix's probes run each job on its own thread.
  if (options.mix) dist::WorldServesThreads();
  const auto& output = options.run.config.output;
  BinaryJob binary(output.folder, "sweep.log");
  return SweepJob(options, binary.env(), [&output](const std::string& folder) {
    return std::make_unique<FolderResults>(folder, output.log_file);
  });
}

}  // namespace trainbench::app
