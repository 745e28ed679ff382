// How long an emulated accelerator computes one step: a draw from the workload's
// computation_time (or eval_time) distribution, from a generator seeded per accelerator
// so runs repeat exactly. Negative draws (a wide normal) are clipped to 0. A poisson
// time is whole seconds, as numpy.random.poisson gives DLIO. Not thread-safe.
#pragma once

#include "common/random.h"
#include "config/workload.h"

namespace trainbench::sim {

class ComputeTime {
 public:
  ComputeTime(const config::TimeDistribution& distribution, uint64_t seed)
      : d_(distribution), random_(seed) {}
  double Draw();

 private:
  double Gamma(double shape);
  config::TimeDistribution d_;
  Random random_;
};

}  // namespace trainbench::sim
