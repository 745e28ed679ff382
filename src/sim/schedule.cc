#include "sim/schedule.h"

#include <algorithm>

namespace trainbench::sim {

bool EvalDue(const config::WorkloadConfig& c, uint64_t epoch, bool have_eval_files) {
  if (!c.workflow.evaluation || !have_eval_files) return false;
  if (epoch < c.evaluation.eval_after_epoch) return false;
  const uint64_t every = std::max<uint64_t>(1, c.evaluation.epochs_between_evals);
  return (epoch - c.evaluation.eval_after_epoch) % every == 0;
}

bool EpochCheckpointDue(const config::WorkloadConfig& c, uint64_t epoch) {
  if (!c.workflow.checkpoint || c.checkpoint.steps_between_checkpoints > 0) return false;
  if (epoch < c.checkpoint.checkpoint_after_epoch) return false;
  const uint64_t every = std::max<uint64_t>(1, c.checkpoint.epochs_between_checkpoints);
  return (epoch - c.checkpoint.checkpoint_after_epoch) % every == 0;
}

bool StepCheckpointDue(const config::WorkloadConfig& c, uint64_t step) {
  const int64_t every = c.checkpoint.steps_between_checkpoints;
  return c.workflow.checkpoint && every > 0 && step % static_cast<uint64_t>(every) == 0;
}

}  // namespace trainbench::sim
