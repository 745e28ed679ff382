// `trainbench clean`'s job: removes a workload's dataset (the objects its manifest or journal
// names under dataset.data_folder) or its checkpoints (under checkpoint.checkpoint_folder),
// on a file system or S3; anything else there is foreign and left alone. Without `yes` it
// only finds what it would remove. A place holding objects but none of trainbench's is
// refused (UsageError): most likely a typo in the folder. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/frame/job_env.h"
#include "app/frame/job_report.h"
#include "config/workload.h"

namespace trainbench::app {

struct CleanOptions {
  config::WorkloadConfig config;
  bool checkpoints = false;  // the checkpoints instead of the dataset
  bool yes = false;          // remove; else only list
};

struct CleanEntry {
  std::string name;  // as the user sees it (a path or s3:// URL)
  uint64_t bytes = 0;
};

// Rank 0 reports (its `text` says what was found or removed); the other ranks' results are
// empty.
struct CleanResult : JobReport {
  std::string what;   // "dataset" or "checkpoint"
  std::string place;  // the folder or prefix
  std::vector<CleanEntry> ours, foreign;
  uint64_t bytes = 0;    // of ours
  bool removed = false;  // ours are gone
  size_t leftovers = 0;  // unfinished writes (S3 multipart uploads) removed too
};

// The other ranks wait for rank 0 (mpirun).
CleanResult CleanJob(const CleanOptions& options, JobEnv& env);

}  // namespace trainbench::app
