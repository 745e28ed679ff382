// `trainbench sweep WORKLOAD --find-max-accelerators`: how many accelerators this storage
// feeds. Runs RunJob at the counts sweep/accelerator_search.h picks: short probes (a step budget,
// train.total_training_steps, long enough that the AU is a verdict: the start steps it
// excludes plus as many measured) and full-length runs to confirm, repeated at N* and N*+1
// (sweep/confirm.h) so the answer carries its spread or says that it is not stable; its words
// are sweep/answer.h's. Every probe keeps its own run results under the sweep's folder
// (<output>/sweep-<workload>-max-<id>/probes/, named by what it searches, with the probes'
// journal that a rerun resumes from), and the sweep's summary.json (kind sweep) lists them
// with the answer. Under mpirun a count is split over the ranks as `run --accelerators` takes
// it (the first ranks take one more). With --mix (SweepOptions::mix) the count searched is one
// job's of a mix, each probe a run of the whole mix (probes/mix-<stamp>/<job>/), in
// <output>/sweep-mix-<job>-max-<id>/. Not thread-safe: one job per process.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/frame/job_results.h"
#include "app/mix/mix_job.h"
#include "app/run/run_job.h"
#include "sweep/accelerator_search.h"
#include "sweep/confirm.h"
#include "sweep/probe.h"

namespace trainbench::app {

struct SweepOptions {
  RunJobOptions run;  // the workload and the run's flags; accelerators is set per probe
  uint64_t lowest = 1, highest = 1024;
  uint64_t probe_steps = 0;  // per probe; 0: twice what an AU verdict needs, at least 20
  // Full-length runs at N* and at N*+1 each, the search's own included (sweep/confirm.h says
  // why 3); 1 to kMaxConfirmRuns.
  int confirm_runs = sweep::kDefaultConfirmRuns;
  // --mix FILE --vary JOB: the count of job `vary` of this mix is searched while the mix's
  // other jobs run beside every probe as they are given (mix_job.h's RunMixProbe); `run` is
  // then that job's.
  std::optional<MixOptions> mix;
  std::string vary;
};

// text: the probes' table, the answer, the official tools' commands; line:
// {"trainbench_sweep": {...}, "trainbench": {...}}; exit_code 130 when Ctrl-C stopped the
// search, 1 when anything else did (StoppedSweepExitCode).
struct SweepOutcome : JobReport {
  sweep::SearchResult search;
  sweep::Confirmation held;  // the repeats at N* and N*+1
  std::vector<sweep::SweepProbe> probes;
  std::string sentence;  // the answer in one sentence
  nlohmann::ordered_json figures;
};

// `env.results` keeps the sweep's own files (rank 0); `probe_results(folder)` makes the sink
// a probe's run writes into (a FolderResults under the sweep's folder, MemoryResults in
// tests). Throws UsageError before any run for a range out of order.
SweepOutcome SweepJob(
    const SweepOptions& options, JobEnv& env,
    const std::function<std::unique_ptr<ResultsSink>(const std::string&)>& probe_results);

// The binary's sweep: the world's ranks and storage, the sweep's files under the config's
// output.folder (its log sweep.log), each probe's run in a FolderResults there.
SweepOutcome SweepJob(const SweepOptions& options);

// The probe budget SweepJob uses for `config` (options.probe_steps 0).
uint64_t DefaultProbeSteps(const config::WorkloadConfig& config);

}  // namespace trainbench::app
