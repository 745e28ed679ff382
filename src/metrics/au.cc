#include "metrics/au.h"

#include <algorithm>
#include <cmath>

namespace trainbench::metrics {

void AuAccumulator::AddStep(uint64_t step, double step_start, double compute_s, double step_end) {
  if (steps_ == 0) first_start_ = step_start;
  if (step < exclude_) {
    counted_start_ = step_end;
  } else {
    if (step == 0) counted_start_ = step_start;
    compute_counted_ += compute_s;
  }
  compute_all_ += compute_s;
  end_ = step_end;
  ++steps_;
}

double AuAccumulator::CountedCompute() const {
  return steps_ > exclude_ ? compute_counted_ : compute_all_;
}

double AuAccumulator::CountedElapsed() const {
  if (steps_ == 0) return 0;
  return steps_ > exclude_ ? end_ - counted_start_ : end_ - first_start_;
}

double AuPercentage(const std::vector<AuAccumulator>& accelerators) {
  double compute = 0, elapsed = 0;
  for (const auto& a : accelerators) {
    compute += a.CountedCompute();
    elapsed += a.CountedElapsed();
  }
  // Compute can equal the elapsed time (data always ready); rounding must not make it more.
  return elapsed > 0 ? std::min(100.0, 100.0 * compute / elapsed) : 0;
}

MeanStdev MeanAndStdev(const std::vector<double>& values) {
  MeanStdev r;
  if (values.empty()) return r;
  for (double v : values) r.mean += v;
  r.mean /= static_cast<double>(values.size());
  double sq = 0;
  for (double v : values) sq += (v - r.mean) * (v - r.mean);
  r.stdev = std::sqrt(sq / static_cast<double>(values.size()));
  return r;
}

}  // namespace trainbench::metrics
