// `trainbench run`'s jobs: emulated training over a workload's dataset (RunJob) and a
// checkpointing workload (CheckpointJob, workflow.train false), MLPerf Storage style. Each
// takes the resolved config and the run's flags, runs on every rank of the job, and
// returns the rank's outcome; rank 0 gathers the ranks' records and writes the results
// (summary.json, epochs.csv, timeseries.csv, the log, rank-NNNN.json) through its
// ResultsSink, as the run goes and at its end.
// Thread-compatible: several run at once only each on its own thread with its own communicator
// (a mix's jobs, app/mix/mix_job.h), stopped by Ctrl-C together or by their owner's ThreadStop.
#pragma once

#include <memory>
#include <vector>

#include "app/frame/job_env.h"
#include "app/run/run_options.h"
#include "sim/ranks.h"
#include "storage/read_engines.h"

namespace trainbench::app {

// Throws UsageError for options out of range or a config `run` cannot do, before any work.
RunOutcome RunJob(const RunJobOptions& options, JobEnv& env);
RunOutcome CheckpointJob(const RunJobOptions& options, JobEnv& env);

// The read engines --io-engine offers, for the flag's help.
inline const std::vector<storage::ReadEngineDescription>& KnownReadEngines() {
  return storage::KnownReadEngines();
}

// --drop-caches: the first rank on each host empties that host's page cache (root); every
// rank returns once every host has. Returns the number of hosts.
size_t DropPageCaches(const sim::RankLayout& layout, dist::Communicator& ranks);

// Checks that do not need the config: accelerators, interval, reads in flight.
void CheckRunOptions(const RunJobOptions& options);

// A training's dataset found and checked against its config and `total_accelerators`, as
// RunJob does before its first read: refused (UsageError) when another job is still writing
// it, when it does not match the config, or when it holds too few samples for one step.
// Null for a job that reads no dataset of its own yet (a checkpointing workload,
// workflow.generate_data).
std::shared_ptr<const dataset::DatasetFiles> ResolveRunDataset(const RunJobOptions& options,
                                                               uint64_t total_accelerators,
                                                               JobEnv& env);

}  // namespace trainbench::app
