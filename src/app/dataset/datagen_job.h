// `trainbench datagen`'s job: writes the workload's dataset (DLIO's layout and formats, and
// a manifest) to dataset.data_folder through dataset::Generate, on every rank of an mpirun
// job (rank r writes files r, r+R, ...), and keeps its results when given a sink:
// datagen-<workload>-<UTC stamp>/ with summary.json (the envelope, then files, bytes and
// the write rate) and timeseries.csv (bytes written per interval). Refuses a folder it
// cannot write, or an --op-log it cannot create, before any work (UsageError). Not thread-safe: one
// per process.
#pragma once

#include <string>

#include "app/frame/job_env.h"
#include "app/frame/job_results.h"
#include "config/workload.h"
#include "dataset/generator.h"

namespace trainbench::app {

struct DatagenJobOptions {
  config::WorkloadConfig config;
  dataset::GenerateOptions generate;
  double interval_s = 1;  // per time-series row, with a results sink; 0: none
  // --op-log FILE: every PUT (and HEAD, LIST, DELETE) in sai3-bench's op-log TSV, as `run`
  // writes its reads (app/frame/job_op_log.h); "": none.
  std::string op_log;
};

// What rank 0 shows (`reports` false elsewhere).
// text: "datagen: N files ..." (and "verify: ...") lines; line: {"trainbench_datagen": {...},
// "trainbench": {...}}.
using DatagenOutcome = JobReport;

// Uses env.ranks, env.open_storage and env.results (null: no results folder).
DatagenOutcome DatagenJob(const DatagenJobOptions& options, JobEnv& env);

}  // namespace trainbench::app
