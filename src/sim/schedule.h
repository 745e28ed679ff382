// When evaluation and checkpoints happen, from the workload's evaluation.* and
// checkpoint.* keys, as DLIO schedules them. Pure functions.
#pragma once

#include <cstdint>

#include "config/workload.h"

namespace trainbench::sim {

// Evaluation after `epoch` (1-based), when there is an eval split to read.
bool EvalDue(const config::WorkloadConfig& config, uint64_t epoch, bool have_eval_files);
// An epoch-end checkpoint after `epoch` (checkpoint.epochs_between_checkpoints).
bool EpochCheckpointDue(const config::WorkloadConfig& config, uint64_t epoch);
// A checkpoint after global step `step` (1-based; checkpoint.steps_between_checkpoints).
bool StepCheckpointDue(const config::WorkloadConfig& config, uint64_t step);

}  // namespace trainbench::sim
