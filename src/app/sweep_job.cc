#include "app/sweep_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <thread>

#include "app/job_env.h"
#include "app/official_commands.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/units.h"
#include "config/datasize.h"
#include "config/workload_yaml.h"
#include "metrics/process_stats.h"

namespace trainbench::app {
namespace {

// The AU of the confirming run at `n` (else the last probe's), for the sentence.
const SweepProbe* Best(const std::vector<SweepProbe>& probes, uint64_t n) {
  const SweepProbe* found = nullptr;
  for (const auto& p : probes)
    if (p.accelerators == n && (found == nullptr || p.full)) found = &p;
  return found;
}

std::string Sentence(const SearchResult& r, const std::vector<SweepProbe>& probes,
                     const config::WorkloadConfig& c) {
  const double target = 100.0 * c.metric.au;
  const std::string who =
      fmt::format("emulated accelerators training {} ({})", c.model.name, c.workload_name);
  if (r.stopped) return "the sweep stopped before an answer: " + r.stop_reason;
  std::string text =
      r.answer == 0
          ? fmt::format("this storage feeds no {} at AU >= {:.0f}%", who, target)
          : fmt::format("this storage feeds {} {} at AU >= {:.0f}%", r.answer, who, target);
  if (r.first_failure) {
    const SweepProbe* p = Best(probes, *r.first_failure);
    if (r.limited_by_dataset && p && !p->au_meaningful)
      text += fmt::format(
          "; at {} the AU is no verdict: the dataset is too small for that many "
          "(`trainbench datasize` says how many files)",
          *r.first_failure);
    else if (p)
      text += fmt::format("; {} fail at {:.1f}%", *r.first_failure, p->au_percentage);
  }
  if (r.first_failure) {
    // Past the answer, a client that used (nearly) every core is the limit as much as the
    // storage: say so rather than blame the storage.
    const SweepProbe* p = Best(probes, *r.first_failure);
    const double cores = static_cast<double>(std::max(1u, std::thread::hardware_concurrency()));
    if (p && p->run_seconds > 0 && p->cpu_seconds / p->run_seconds >= 0.8 * cores)
      text += fmt::format(
          "; at {} trainbench itself used {:.1f} of this host's {:.0f} cores: client-bound, "
          "the storage may feed more (add client hosts)",
          *r.first_failure, p->cpu_seconds / p->run_seconds, cores);
  }
  if (r.limited_by_range)
    text += fmt::format(" (every count up to the --max {} passed: raise it)", r.answer);
  if (!r.confirmed && !r.stopped) text += " (not confirmed by full-length runs)";
  return text;
}

// The probes' table, the answer, and the commands that confirm it with the official tools.
std::string SweepText(const SweepOutcome& out) {
  std::string text = "accelerators  run          AU %      MB/s  asked MB/s  verdict\n";
  for (const auto& p : out.probes)
    text += fmt::format("{:>12}  {:<11} {:>6.2f} {:>9.1f} {:>11.1f}  {}\n", p.accelerators,
                        p.full ? "full-length" : "probe", p.au_percentage, p.mb_per_second,
                        p.demand_mb_per_second, VerdictWord(p));
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
  const auto& t = config.train.computation_time;
  if (t.mean <= 0)
    throw UsageError(
        "train.computation_time is 0: AU is not meaningful, so no count can pass; give the "
        "accelerator's step time (`trainbench train --calibrate` measures one)");
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  const uint64_t probe_steps =
      options.probe_steps > 0 ? options.probe_steps : DefaultProbeSteps(config);
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
  std::string folder;
  if (lead && env.results) {
    try {
      folder = env.results->Open("sweep-" + config.workload_name, envelope.started);
    } catch (const std::exception& e) {
      throw UsageError(std::string(e.what()) + ": the sweep keeps its probes there");
    }
  }
  LogInfo(fmt::format(
      "sweep {}: the most accelerators at AU >= {:.0f}%, counts {} to {}, probes of {} steps "
      "then full-length runs to confirm; each accelerator asks {:.2f} MB/s at 100% AU",
      config.workload_name, 100.0 * config.metric.au, options.lowest, options.highest, probe_steps,
      demand_per_accel / 1e6));

  int stop_code = 0;  // the exit status of the run that stopped the search
  auto probe = [&](uint64_t n, bool full) {
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
      p.folder = probe_folder;
      v.passed = p.passed;
      v.meaningful = p.au_meaningful;
      v.stopped = code != 0 || summary.is_null() || !summary.value("complete", false);
      LogInfo(
          fmt::format("sweep: {} accelerator(s) {}: AU {:.2f}% {} ({:.1f} MB/s of {:.1f} "
                      "asked)",
                      n, full ? "full-length" : "probe", p.au_percentage, VerdictWord(p),
                      p.mb_per_second, p.demand_mb_per_second));
      out.probes.push_back(std::move(p));
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
    out.search = FindMaxAccelerators(options.lowest, options.highest, probe);
  } catch (...) {
    // Refused before it measured anything (no dataset, a bad key): no folder that would pass
    // for a sweep.
    if (lead && env.results && out.probes.empty()) env.results->Discard();
    throw;
  }
  envelope.finished = UtcStamp();
  envelope.complete = !out.search.stopped;
  envelope.stop_reason = out.search.stop_reason;
  if (out.search.stopped) out.exit_code = StoppedSweepExitCode(stop_code);
  if (!lead) return out;

  out.sentence = Sentence(out.search, out.probes, config);
  auto& f = out.figures;
  // A stopped search has no answer: null, not 0 (0 is the answer "not even --min passes").
  f["answer_accelerators"] =
      out.search.stopped ? nlohmann::json() : nlohmann::json(out.search.answer);
  f["first_failure_accelerators"] =
      out.search.first_failure ? nlohmann::json(*out.search.first_failure) : nlohmann::json();
  f["confirmed"] = out.search.confirmed;
  f["limited_by_dataset"] = out.search.limited_by_dataset;
  f["limited_by_range"] = out.search.limited_by_range;
  f["sentence"] = out.sentence;
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
  for (const char* key : {"answer_accelerators", "first_failure_accelerators", "confirmed",
                          "au_target_percentage", "sentence"})
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
