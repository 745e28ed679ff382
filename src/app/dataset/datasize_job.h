// `trainbench datasize`'s job: MLPerf Storage's dataset size for a workload on these
// accelerators and hosts (max(500 x batch x accelerators, 5 x hosts x host memory / sample
// size)), or a transformer's checkpoint size over N ranks. Under mpirun the ranks say it
// themselves: hosts are the ranks' distinct hosts, memory theirs, and accelerators per rank,
// summed. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/frame/job_env.h"
#include "app/frame/job_report.h"
#include "config/datasize.h"
#include "sim/llm_checkpoint.h"

namespace trainbench::app {

struct DatasizeOptions {
  config::WorkloadConfig config;
  uint64_t accelerators = 1;  // per rank under mpirun
  uint64_t hosts = 1;
  double host_memory_gib = 0;     // 0: this host's (under mpirun, the ranks' hosts' mean)
  bool checkpoint = false;        // size the checkpoint instead
  uint64_t checkpoint_ranks = 0;  // 0: tensor x pipeline, or the ranks under mpirun
  std::string workload;           // as the user named it, for the commands the text prints
};

struct CheckpointSizing {
  uint64_t ranks = 0;      // these ranks
  uint64_t job_ranks = 0;  // the job's (more than `ranks` for a subset)
  uint64_t data_parallel = 0;
  sim::LlmCheckpointSize size;   // of these ranks
  sim::LlmCheckpointSize whole;  // of the job
  bool subset_rule_applies = false;
  std::string subset_issue;  // "" when a valid MLPerf subset
};

struct DataSizing {
  uint64_t accelerators = 0, hosts = 0;  // accelerators: the whole job's
  double host_memory_gib = 0;
  int ranks = 1;
  uint64_t rank_accelerators = 0;  // --accelerators as given: per rank under mpirun
  config::DataSize size;
  uint64_t au_steps = 0;  // steps per epoch an AU verdict needs
  uint64_t au_files = 0;  // files for those steps
};

// Rank 0 reports (its `text` is the answer); the other ranks' results are empty.
struct DatasizeResult : JobReport {
  bool checkpointing_workload = false;  // workflow.train false: no dataset to size
  std::optional<CheckpointSizing> checkpoint;
  std::optional<DataSizing> data;
};

// UsageError for --checkpoint of a model that is not a sized transformer.
DatasizeResult DatasizeJob(DatasizeOptions options, JobEnv& env);

}  // namespace trainbench::app
