// `trainbench mix`: several jobs against one storage at once (config/mix.h), each a `run`
// (RunJob: a training, or a checkpointing workload on a schedule) on a thread of its own with
// its own communicator (dist::Communicator::Duplicate), so one process or every rank under
// mpirun runs all of them. Foreground jobs run as given; background jobs (a checkpoint every
// every_s, or background: true) run until the foreground jobs end, a background training
// repeating its epochs. A job that fails stops the others. With --baseline each job first runs
// alone (a background job for as long as the longest foreground one took), so the cost of
// sharing is measured. The mix's folder (<output>/mix-<UTC stamp>/) holds each job's own
// results (<job>/, alone/<job>/) and the mix's summary.json (kind mix: mix_figures.h).
// Not thread-safe: one mix per process (its jobs' threads are its own).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/frame/job_env.h"
#include "app/frame/job_report.h"
#include "app/mix/mix_figures.h"
#include "app/run/run_options.h"
#include "config/mix.h"

namespace trainbench::app {

struct MixOptions {
  config::Mix mix;
  std::string output_folder;  // "": the first job's output.folder
  double interval_s = 1;      // every job's time-series interval (the AU over time)
  bool baseline = false;
  bool quiet = false;  // the workload loader's warnings
  sim::ReadFlags reads;
  // --op-log FILE: each job's operations in its own file, the job's name before the extension
  // (ops.resnet.tsv.zst; under mpirun ops.resnet.rank0001.tsv.zst), each line's client id
  // "host:rank/job". "": none.
  std::string op_log;
  bool drop_caches = false;  // every host's page cache emptied before the jobs start (each time)
};

// A job of the mix, loaded and checked: its spec and the run it is.
struct MixPart {
  config::MixJob spec;
  RunJobOptions run;  // this rank's share of the accelerators
};

// Loads and checks every job (UsageError, exit 2, before any work): workloads, overrides,
// a schedule only on a checkpointing workload, accelerators enough for every rank.
std::vector<MixPart> PrepareMix(const MixOptions& options, int ranks, int rank);

// Finds and checks every training's dataset (ResolveRunDataset) before any job starts, kept
// in its run: a job that cannot run is refused (exit 2, or 1 for a missing dataset, as `run`),
// naming it, before the others begin. Job `least_of` (a sweep's varied job) is checked for
// the fewest accelerators it may be given (one a rank). Collective: an error on any rank is
// thrown on every rank.
void ResolveMixDatasets(std::vector<MixPart>& parts, JobEnv& env,
                        std::optional<size_t> least_of = std::nullopt);

// Where a job's results go: the sink for job `name` under `folder` (rank 0's), its log named
// `log_file`.
using MixResults = std::function<std::unique_ptr<ResultsSink>(
    const std::string& folder, const std::string& name, const std::string& log_file)>;

// Runs `parts` together on every rank, each job's results in `results(folder, name)` on rank
// 0 ("" `folder`: none kept). Background jobs stop when the foreground jobs have ended, or,
// with `background_s` > 0, after that long (a baseline's background job, alone). Returns rank
// 0's record of each (the other ranks' hold exit codes only). `drop_caches`: every host's page
// cache is emptied first (--drop-caches).
MixRecord RunTogether(const std::vector<MixPart>& parts, JobEnv& env, const std::string& folder,
                      const MixResults& results, double background_s = 0, bool drop_caches = false);

// One run of the mix with job `vary` run as `run`, the others as background jobs until it ends
// (a sweep's probe over one job of a mix): each job's results in a new folder
// <output>/mix-<UTC stamp>/ (rank 0's; "" `output`: none kept). Returns the varied job's end.
MixJobResult RunMixProbe(std::vector<MixPart> parts, size_t vary, const RunJobOptions& run,
                         JobEnv& env, const std::string& output);

// "unet (unet3d_h100, 2 accelerators), ck (llama3_8b, 8 accelerators, a checkpoint every 60 s)":
// the jobs of `parts` but `vary`, for a sentence.
std::string OtherJobsWords(const std::vector<MixPart>& parts, size_t vary);

struct MixOutcome : JobReport {
  MixSummary figures;
};

MixOutcome MixJob(const MixOptions& options, JobEnv& env, const MixResults& results);
// The binary's: the world's ranks and storage, results under the output folder (mix.log).
MixOutcome MixJob(const MixOptions& options);

}  // namespace trainbench::app
