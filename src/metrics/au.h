// Accelerator utilization as MLPerf Storage defines it: AU % = 100 x compute time /
// total time, per epoch, with the first metric.exclude_start_steps steps of each epoch
// left out of both (they include pipeline warm-up). Pure arithmetic; not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

namespace trainbench::metrics {

// One accelerator's steps in one epoch (or evaluation pass).
class AuAccumulator {
 public:
  explicit AuAccumulator(uint64_t exclude_start_steps) : exclude_(exclude_start_steps) {}

  // Step `step` (0-based in the epoch) began at step_start, computed for compute_s and
  // ended at step_end (after any barrier).
  void AddStep(uint64_t step, double step_start, double compute_s, double step_end);

  uint64_t Steps() const { return steps_; }
  // Compute and elapsed seconds that count; when every step is excluded (an epoch
  // shorter than exclude_start_steps) all steps count instead.
  double CountedCompute() const;
  double CountedElapsed() const;

 private:
  uint64_t exclude_;
  uint64_t steps_ = 0;
  double first_start_ = 0;
  double counted_start_ = 0;
  double end_ = 0;
  double compute_all_ = 0;
  double compute_counted_ = 0;
};

// 100 x sum(compute) / sum(elapsed) over accelerators; 0 when nothing elapsed.
double AuPercentage(const std::vector<AuAccumulator>& accelerators);

struct MeanStdev {
  double mean = 0;
  double stdev = 0;  // population standard deviation, as numpy's std() (DLIO uses it)
};
MeanStdev MeanAndStdev(const std::vector<double>& values);

}  // namespace trainbench::metrics
