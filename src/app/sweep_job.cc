#include "app/sweep_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "app/binary_job.h"
#include "app/official_commands.h"
#include "app/results_writer.h"
#include "app/sweep_limit.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/units.h"
#include "config/datasize.h"
#include "config/workload_yaml.h"
#include "formats/crc32c.h"
#include "metrics/process_stats.h"
#include "report/results_folder.h"

namespace trainbench::app {
namespace {

// The AU of the confirming run at `n` (else the last probe's), for the sentence.
const SweepProbe* Best(const std::vector<SweepProbe>& probes, uint64_t n) {
  const SweepProbe* found = nullptr;
  for (const auto& p : probes)
    if (p.accelerators == n && (found == nullptr || p.full)) found = &p;
  return found;
}

// The answer in one sentence, from what limited it (sweep_limit.h): "this storage feeds N"
// only where the storage was the limit.
struct Answer {
  std::string sentence;
  std::optional<LimitFinding> limit;  // none: stopped, or nothing to judge
};

// The failing side's finding: its full-length runs that failed (every repeat), else its probe.
std::optional<LimitFinding> FailingSide(const std::vector<SweepProbe>& probes, uint64_t n,
                                        double computation_time_s, unsigned cores) {
  std::vector<const SweepProbe*> failing;
  for (const auto& p : probes)
    if (p.full && p.accelerators == n && !(p.passed && p.au_meaningful)) failing.push_back(&p);
  if (!failing.empty()) return ClassifyRuns(failing, computation_time_s, cores);
  if (const SweepProbe* p = Best(probes, n)) return ClassifyLimit(*p, computation_time_s, cores);
  return std::nullopt;
}

Answer Sentence(const SearchResult& r, const Confirmation& held,
                const std::vector<SweepProbe>& probes, const config::WorkloadConfig& c) {
  const double target = 100.0 * c.metric.au;
  const std::string who =
      fmt::format("emulated accelerators training {} ({})", c.model.name, c.workload_name);
  if (r.stopped) return {"the sweep stopped before an answer: " + r.stop_reason, {}};
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // The failing side of the boundary says what limited the answer; without a failure (the
  // range or the dataset ended the search), the answer's own run says whether the reads came
  // from memory.
  std::optional<LimitFinding> limit;
  if (r.first_failure) {
    limit = FailingSide(probes, *r.first_failure, c.train.computation_time.mean, cores);
  } else if (r.answer > 0) {
    if (const SweepProbe* p = Best(probes, r.answer)) limit = ClassifyPassed(*p);
  }
  const std::string fed =
      r.answer == 0 ? fmt::format("no {}", who) : fmt::format("{} {}", r.answer, who);
  std::string text;
  switch (limit ? limit->limit : SweepLimit::kStorage) {
    case SweepLimit::kStorage:
      text = fmt::format("this storage feeds {} at AU >= {:.0f}%", fed, target);
      break;
    case SweepLimit::kClient:
      text = fmt::format(
          "this client host ({}) limits the answer to {} at AU >= {:.0f}%; the storage was not "
          "the limit: add client hosts (mpirun -np 2 --host A,B trainbench sweep {} "
          "--find-max-accelerators ...)",
          limit->evidence, fed, target, c.workload_name);
      break;
    case SweepLimit::kMemory:
      text = fmt::format(
          "{} at AU >= {:.0f}%, read from memory ({}): the dataset is below MLPerf's 5x-memory "
          "rule, so this is not the storage's answer (`trainbench datasize {}` says how big)",
          fed, target, limit->evidence, c.workload_name);
      break;
  }
  if (r.no_verdict)
    text += fmt::format(
        "; at {} the AU is no verdict: the dataset is too small for that many "
        "(`trainbench datasize` says how many files)",
        *r.no_verdict);
  if (r.first_failure) {
    // The median of its full-length runs where it was held by several.
    const AuSpread spread = SpreadAt(probes, *r.first_failure);
    const SweepProbe* p = Best(probes, *r.first_failure);
    if (spread.runs > 0 || p)
      text += fmt::format("; {} fail at {:.1f}%", *r.first_failure,
                          spread.runs > 0 ? spread.median : p->au_percentage);
  }
  if (r.limited_by_range)
    text += fmt::format(" (every count up to the --max {} passed: raise it)", r.answer);
  if (!r.confirmed && !r.stopped) text += " (not confirmed by full-length runs)";
  // Repeats that disagree lead the sentence: no side is picked, and the search's own answer
  // follows as what its runs said, never as the storage's.
  const std::string disagreement = Disagreement(held, probes, c.train.computation_time.mean, cores);
  if (!disagreement.empty()) text = disagreement + "; the search's own runs said: " + text;
  return {text, limit};
}

// The probes' table, the answer, and the commands that confirm it with the official tools.
std::string SweepText(const SweepOutcome& out) {
  std::string text = "accelerators  run          AU %      MB/s  asked MB/s  verdict\n";
  for (const auto& p : out.probes)
    text += fmt::format("{:>12}  {:<11} {:>6.2f} {:>9.1f} {:>11.1f}  {}\n", p.accelerators,
                        p.full ? "full-length" : "probe", p.au_percentage, p.mb_per_second,
                        p.demand_mb_per_second, VerdictWord(p));
  if (const std::string held = SpreadLine(out.held, out.probes); !held.empty()) text += held + "\n";
  text += out.sentence + "\n";
  if (const auto it = out.figures.find("official"); it != out.figures.end()) {
    const auto& o = *it;
    text += fmt::format(
        "Confirm it with MLPerf Storage's tools (its rule sizes the dataset for {} accelerators "
        "at {} files, {:.1f} GB):\n  {}\n  {}\n  {}\nor DLIO alone:\n  {}\n",
        out.search.answer, o["dataset_files"].get<uint64_t>(), o["dataset_GB"].get<double>(),
        o["mlpstorage_datasize"].get<std::string>(), o["mlpstorage_datagen"].get<std::string>(),
        o["mlpstorage_run"].get<std::string>(), o["dlio"].get<std::string>());
  }
  return text;
}

constexpr const char* kProbeJournal = "probes.jsonl";

// What the search is: the resolved config, its range and probe length, and the ranks.
std::string SearchId(const config::WorkloadConfig& config, const SweepOptions& o,
                     uint64_t probe_steps, int ranks) {
  const std::string text =
      config::ToYaml(config) + fmt::format("min={};max={};probe_steps={};ranks={};", o.lowest,
                                           o.highest, probe_steps, ranks);
  return fmt::format("{:08x}", formats::Crc32c(text.data(), text.size()));
}

// A probe's place in the search: its count, full-length or not, and which repeat.
using ProbeKey = std::tuple<uint64_t, bool, int>;

// The probes an earlier invocation journaled, by their place; a line cut by a kill is skipped
// (that probe runs again).
std::map<ProbeKey, SweepProbe> ReadProbeJournal(const std::string& path) {
  std::map<ProbeKey, SweepProbe> probes;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    try {
      const SweepProbe p = ProbeFromJson(nlohmann::json::parse(line));
      if (p.complete) probes[{p.accelerators, p.full, p.repeat}] = p;
    } catch (const std::exception&) {
    }
  }
  return probes;
}

// summary.json with the probes so far, marked incomplete: what a killed sweep leaves.
void KeepSoFar(ResultsSink& results, const report::ResultEnvelope& envelope,
               const std::vector<SweepProbe>& probes) {
  nlohmann::ordered_json f;
  f["answer_accelerators"] = nullptr;
  auto& rows = f["probes"] = nlohmann::ordered_json::array();
  for (const auto& p : probes) rows.push_back(ProbeJson(p));
  report::ResultEnvelope so_far = envelope;
  so_far.complete = false;
  so_far.stop_reason = kNotEndedReason;
  try {
    results.WriteFile("probes.csv", ProbesCsv(probes));
    results.WriteFile("summary.json", report::WithEnvelope(so_far, f).dump(2) + "\n");
  } catch (const std::exception&) {
    // The end writes them again and says what it could not write.
  }
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
  const auto& config = options.run.config;
  if (options.lowest < 1 || options.highest < options.lowest)
    throw UsageError(fmt::format("--min {} --max {}: give 1 <= --min <= --max (accelerator counts)",
                                 options.lowest, options.highest));
  if (!config.workflow.train)
    throw UsageError(
        fmt::format("{} is a checkpointing workload (workflow.train false): it has no AU to sweep",
                    config.workload_name));
  if (options.confirm_runs < 1 || options.confirm_runs > kMaxConfirmRuns)
    throw UsageError(fmt::format(
        "--confirm {}: give 1 to {} full-length runs at each side of the answer ({} by default; "
        "MLPerf Storage's submissions take 5)",
        options.confirm_runs, kMaxConfirmRuns, kDefaultConfirmRuns));
  const auto& t = config.train.computation_time;
  if (t.mean <= 0)
    throw UsageError(
        "train.computation_time is 0: AU is not meaningful, so no count can pass; give the "
        "accelerator's step time (`trainbench train --calibrate` measures one)");
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  const uint64_t probe_steps =
      options.probe_steps > 0 ? options.probe_steps : DefaultProbeSteps(config);
  // Refused before any probe what can give no verdict: every count would read as "no
  // verdict" and the sentence would blame the dataset.
  const uint64_t verdict_steps = config::MinStepsForAuVerdict(config);
  if (probe_steps < verdict_steps)
    throw UsageError(fmt::format(
        "--probe-steps {}: an AU verdict needs at least {} steps (metric.exclude_start_steps "
        "{} plus the prefetch's); give --probe-steps {} or more",
        probe_steps, verdict_steps, config.metric.exclude_start_steps, verdict_steps));
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
  const double demand_per_accel =
      static_cast<double>(config.reader.batch_size) * config.dataset.record_length_bytes / t.mean;

  report::ResultEnvelope envelope;
  envelope.kind = "sweep";
  envelope.workload = config.workload_name;
  envelope.started = UtcStamp();
  envelope.config = config::ToJson(config);
  envelope.host_names = report::DistinctHosts(ranks.Gather(ranks.Host()));
  SweepOutcome out;
  out.reports = lead;
  // The sweep's folder is named by what it searches: the same command finds it again, and
  // with it the journal of the probes an earlier invocation finished (probes.jsonl, a synced
  // line as each ends), which it does not run again.
  std::string folder;
  std::map<ProbeKey, SweepProbe> earlier;
  if (lead && env.results) {
    try {
      folder = env.results->OpenResumable(
          fmt::format("sweep-{}-max-{}", config.workload_name,
                      SearchId(config, options, probe_steps, ranks.Size())));
    } catch (const std::exception& e) {
      throw UsageError(std::string(e.what()) + ": the sweep keeps its probes there");
    }
    earlier = ReadProbeJournal(folder + "/" + kProbeJournal);
  }
  const std::string reused =
      ranks.AllGather(earlier.empty() ? "" : std::to_string(earlier.size())).front();
  if (!reused.empty())
    LogInfo(
        fmt::format("sweep: {} probe(s) finished by an earlier run of this sweep in {} are "
                    "taken as they are",
                    reused, folder));
  LogInfo(fmt::format(
      "sweep {}: the most accelerators at AU >= {:.0f}%, counts {} to {}, probes of {} steps "
      "then {} full-length run(s) at the answer and above it to confirm; each accelerator asks "
      "{:.2f} MB/s at 100% AU",
      config.workload_name, 100.0 * config.metric.au, options.lowest, options.highest, probe_steps,
      options.confirm_runs, demand_per_accel / 1e6));

  int stop_code = 0;  // the exit status of the run that stopped the search
  auto probe = [&](uint64_t n, bool full, int repeat) {
    const std::string what =
        !full         ? "probe"
        : repeat == 0 ? "full-length"
                      : fmt::format("full-length {} of {}", repeat + 1, options.confirm_runs);
    RunJobOptions run = options.run;
    // This rank's share of n, as `run --accelerators` per rank adds up.
    const auto size = static_cast<uint64_t>(ranks.Size());
    const auto rank = static_cast<uint64_t>(ranks.Rank());
    run.accelerators = n / size + (rank < n % size ? 1 : 0);
    if (!full) run.config.train.total_training_steps = static_cast<int64_t>(probe_steps);
    if (!folder.empty()) run.config.output.folder = folder + "/probes";
    if (run.accelerators == 0) {
      // More ranks than accelerators: this rank has none, which `run` refuses.
      throw UsageError(fmt::format(
          "{} accelerator(s) over {} ranks leaves a rank without one: give --min {} or more", n,
          size, size));
    }
    // A probe an earlier invocation finished: its verdict, on every rank, without a run.
    std::string kept;
    if (lead)
      if (const auto it = earlier.find({n, full, repeat}); it != earlier.end()) {
        const SweepProbe& p = it->second;
        kept = fmt::format("{}{}", p.passed ? 1 : 0, p.au_meaningful ? 1 : 0);
        out.probes.push_back(p);
        LogInfo(fmt::format("sweep: {} accelerator(s) {}: AU {:.2f}% {} (an earlier run's)", n,
                            what, p.au_percentage, VerdictWord(p)));
      }
    kept = ranks.AllGather(kept).front();
    if (!kept.empty()) return ProbeVerdict{kept[0] == '1', kept[1] == '1', false};
    const ProbeRun done = RunProbe(
        run, env, lead ? probe_results(folder.empty() ? "" : folder + "/probes") : nullptr);
    const int code = done.code;
    if (code != 0) stop_code = code;
    const nlohmann::json& summary = done.summary;
    const std::string& probe_folder = done.folder;
    ProbeVerdict v;
    std::string verdict;
    if (lead) {
      SweepProbe p = ProbeOf(summary, n, full, demand_per_accel);
      p.repeat = repeat;
      p.folder = probe_folder;
      v.passed = p.passed;
      v.meaningful = p.au_meaningful;
      v.stopped = code != 0 || summary.is_null() || !summary.value("complete", false);
      LogInfo(fmt::format(
          "sweep: {} accelerator(s) {}: AU {:.2f}% {} ({:.1f} MB/s of {:.1f} "
          "asked)",
          n, what, p.au_percentage, VerdictWord(p), p.mb_per_second, p.demand_mb_per_second));
      // Journaled as it ends (a stopped probe is not: the rerun runs it again), and the
      // summary so far rewritten: a sweep killed later keeps both.
      if (!folder.empty() && !v.stopped) {
        try {
          report::AppendResultLine(folder, kProbeJournal, ProbeJson(p).dump());
        } catch (const std::exception& e) {
          LogWarning(fmt::format("sweep: {}: a rerun will run this probe again", e.what()));
        }
      }
      out.probes.push_back(std::move(p));
      if (!folder.empty()) KeepSoFar(*env.results, envelope, out.probes);
      verdict = fmt::format("{}{}{}", v.passed ? 1 : 0, v.meaningful ? 1 : 0, v.stopped ? 1 : 0);
    }
    // Every rank takes rank 0's verdict: the next count is the same everywhere.
    verdict = ranks.AllGather(verdict).front();
    v.passed = verdict[0] == '1';
    v.meaningful = verdict[1] == '1';
    v.stopped = verdict[2] == '1' || code != 0;
    return v;
  };
  try {
    out.search = FindMaxAccelerators(options.lowest, options.highest,
                                     [&](uint64_t n, bool full) { return probe(n, full, 0); });
    out.held = HoldBoundary(out.search, options.confirm_runs,
                            [&](uint64_t n, int repeat) { return probe(n, true, repeat); });
  } catch (...) {
    // Refused before it measured anything (no dataset, a bad key): no folder that would pass
    // for a sweep.
    // A folder an earlier invocation filled keeps its journal.
    if (lead && env.results && out.probes.empty() && earlier.empty()) env.results->Discard();
    throw;
  }
  envelope.finished = UtcStamp();
  envelope.complete = !out.search.stopped;
  envelope.stop_reason = out.search.stop_reason;
  if (out.search.stopped) out.exit_code = StoppedSweepExitCode(stop_code);
  if (!lead) return out;

  const Answer answer = Sentence(out.search, out.held, out.probes, config);
  out.sentence = answer.sentence;
  auto& f = out.figures;
  // A stopped search has no answer: null, not 0 (0 is the answer "not even --min passes").
  f["answer_accelerators"] =
      out.search.stopped ? nlohmann::json() : nlohmann::json(out.search.answer);
  f["first_failure_accelerators"] =
      out.search.first_failure ? nlohmann::json(*out.search.first_failure) : nlohmann::json();
  // The count whose AU was no verdict (too few steps), which is not a failure.
  f["no_verdict_accelerators"] =
      out.search.no_verdict ? nlohmann::json(*out.search.no_verdict) : nlohmann::json();
  // Confirmed: the full-length runs agree with the search, every repeat included.
  f["confirmed"] = out.search.confirmed && out.held.Stable();
  f["stable"] = out.held.runs_per_side > 0 ? nlohmann::json(out.held.Stable()) : nullptr;
  f["confirmation"] = ConfirmationJson(out.held, out.probes);
  f["limited_by_dataset"] = out.search.limited_by_dataset;
  f["limited_by_range"] = out.search.limited_by_range;
  f["sentence"] = out.sentence;
  // What limited the answer (storage, client, memory) and the figures that said so.
  f["limited_by"] = answer.limit ? nlohmann::json(LimitName(answer.limit->limit)) : nullptr;
  f["limit_evidence"] = answer.limit ? nlohmann::json(answer.limit->evidence) : nullptr;
  f["au_target_percentage"] = 100.0 * config.metric.au;
  f["probe_steps"] = probe_steps;
  std::set<uint64_t> counts;
  for (const auto& p : out.probes) counts.insert(p.accelerators);
  f["counts_tried"] = counts.size();  // distinct accelerator counts run (probes and full)
  f["min_accelerators"] = options.lowest;
  f["max_accelerators"] = options.highest;
  f["demand_MB_per_second_per_accelerator"] = demand_per_accel / 1e6;
  f["ranks"] = ranks.Size();
  if (out.search.answer > 0) {
    // The lines that confirm N* with the official tools, and the dataset they need for it.
    const double memory_gib = static_cast<double>(metrics::HostMemoryBytes()) / kGiB;
    const auto official =
        OfficialCommandsFor(config, out.search.answer, envelope.host_names, memory_gib);
    f["official"] = {
        {"dataset_files", official.size.files},     {"dataset_GB", official.size.bytes / 1e9},
        {"mlpstorage_datasize", official.datasize}, {"mlpstorage_datagen", official.datagen},
        {"mlpstorage_run", official.run},           {"dlio", official.dlio}};
  }
  auto& rows = f["probes"] = nlohmann::ordered_json::array();
  for (const auto& p : out.probes) rows.push_back(ProbeJson(p));
  if (env.results && !folder.empty()) {
    try {
      env.results->WriteFile("probes.csv", ProbesCsv(out.probes));
      env.results->WriteFile("summary.json", report::WithEnvelope(envelope, f).dump(2) + "\n");
      out.results.folder = folder;
    } catch (const std::exception& e) {
      out.results.error = e.what();
    }
  }
  nlohmann::ordered_json line;
  nlohmann::ordered_json brief;
  for (const char* key :
       {"answer_accelerators", "first_failure_accelerators", "confirmed", "stable", "confirmation",
        "au_target_percentage", "limited_by", "sentence"})
    brief[key] = f[key];
  line["trainbench_sweep"] = brief;
  out.line = FinalLine(line, envelope, out.results.folder);
  out.text = SweepText(out);
  if (out.search.stopped) out.error = out.sentence;
  return out;
}

SweepOutcome SweepJob(const SweepOptions& options) {
  const auto& output = options.run.config.output;
  BinaryJob binary(output.folder, "sweep.log");
  return SweepJob(options, binary.env(), [&output](const std::string& folder) {
    return std::make_unique<FolderResults>(folder, output.log_file);
  });
}

}  // namespace trainbench::app
