// `trainbench run`'s jobs: emulated training over a workload's dataset (RunJob) and a
// checkpointing workload (CheckpointJob, workflow.train false), MLPerf Storage style. Each
// takes the resolved config and the run's flags, runs on every rank of the job, and
// returns the rank's exit status; rank 0 gathers the ranks' records, hands the outcome to
// `show` (the console: table and JSON line, before any file, so a full disk cannot take
// them along) and writes the results (summary.json, epochs.csv, timeseries.csv, the log,
// rank-NNNN.json) through its ResultsSink.
// Not thread-safe: one job per process at a time (the interrupt handler is the process's).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/job_report.h"
#include "app/results_sink.h"
#include "config/workload.h"
#include "dist/communicator.h"
#include "metrics/run_record.h"
#include "report/result_envelope.h"
#include "sim/read_setup.h"
#include "storage/read_engines.h"
#include "storage/storage.h"

namespace trainbench::app {

struct RunJobOptions {
  config::WorkloadConfig config;
  // The command that writes the dataset, named when it is missing.
  std::string datagen_command;
  uint64_t accelerators = 1;  // this rank's
  bool barrier = true;
  sim::ReadFlags reads;
  bool progress = true;  // the live view on stderr (rank 0's)
  bool drop_caches = false;
  double interval_s = 1;  // seconds per time-series row; 0: none
  // --op-log FILE: every read, checkpoint write and read (and workflow.generate_data's
  // writes) in sai3-bench's op-log TSV (.zst: compressed); under mpirun one file per rank,
  // ".rankNNNN" before the extension (app/job_op_log.h). "": none.
  std::string op_log;
};

// What rank 0 shows of a finished run.
// The console's share (JobReport): text, the run's table and the rules' checks; results, the
// folder the results go to; line, {"trainbench_metrics": {...}, "trainbench": {...}}. Shown
// before any file is written, so its exit status is RunJob's to say.
struct RunOutcome : JobReport {
  const metrics::RunRecord& record;  // the ranks' merged
  const config::WorkloadConfig& config;
  const nlohmann::json& summary;  // summary.json's content
  const report::ResultEnvelope& envelope;
};

using StorageOpener = std::function<std::unique_ptr<storage::Storage>(
    const std::string& uri, const std::map<std::string, std::string>& options)>;

// What a job runs with; the binary's are the world communicator, storage::OpenStorage and a
// FolderResults under output.folder; the tests' a single process, MemoryStorage and
// MemoryResults.
struct JobEnv {
  dist::Communicator& ranks;
  StorageOpener open_storage;
  ResultsSink* results = nullptr;  // rank 0's; null elsewhere
  std::function<void(const RunOutcome&)> show;
  bool check_local_folders = true;  // output and checkpoint folders writable (file systems)
};

// Throws UsageError for options out of range or a config `run` cannot do, before any work.
int RunJob(const RunJobOptions& options, JobEnv& env);
int CheckpointJob(const RunJobOptions& options, JobEnv& env);

// The read engines --io-engine offers, for the flag's help.
inline const std::vector<storage::ReadEngineDescription>& KnownReadEngines() {
  return storage::KnownReadEngines();
}

// Checks that do not need the config: accelerators, interval, reads in flight.
void CheckRunOptions(const RunJobOptions& options);

}  // namespace trainbench::app
