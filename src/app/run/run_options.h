// What `trainbench run`'s jobs take and give back (RunJob, CheckpointJob in run_job.h), in a
// header of their own so that the end of a run (run_report.h), the sweep's probes and the
// flags read them without reaching up to the jobs that use them.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/frame/job_report.h"
#include "config/workload.h"
#include "dataset/dataset_files.h"
#include "metrics/run_record.h"
#include "report/result_envelope.h"
#include "sim/read_setup.h"

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
  // ".rankNNNN" before the extension (app/frame/job_op_log.h). "": none.
  std::string op_log;
  // A checkpointing workload (workflow.train false) that writes a checkpoint every this many
  // seconds until its owner stops it (a mix's job); 0: checkpoint.num_checkpoints_write.
  double checkpoint_every_s = 0;
  // The mix's job this run is ("" for a run alone): its op-log lines name it.
  std::string mix_job;
  // The dataset, found and checked already (ResolveRunDataset: a mix checks every job's before
  // any starts); null: RunJob finds it.
  std::shared_ptr<const dataset::DatasetFiles> dataset;
};

// How a run ended, RunJob's answer on every rank (JobReport: reports on rank 0 alone).
// Rank 0's also carries the ranks' merged record and what summary.json says, for a sweep's
// probes; its results files are written before it returns, and a file that could not be
// (a full disk) is named in `error` with exit 1 while the table and line are still there.
struct RunOutcome : JobReport {
  metrics::RunRecord record;  // the ranks' merged (rank 0's)
  nlohmann::json summary;     // summary.json's content (rank 0's)
  report::ResultEnvelope envelope;
  // Rank 0 of several stopped by a signal: the other ranks may wait for it; the caller ends
  // every rank (EndJob) once it has shown this.
  bool end_job = false;
};

}  // namespace trainbench::app
