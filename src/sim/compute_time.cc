#include "sim/compute_time.h"

#include <algorithm>
#include <cmath>

namespace trainbench::sim {

double ComputeTime::Gamma(double shape) {
  // Marsaglia and Tsang (2000); shapes below 1 through the boost gamma(k+1) * U^(1/k).
  if (shape < 1) {
    const double u = std::max(random_.Uniform(), 1e-300);
    return Gamma(shape + 1) * std::pow(u, 1 / shape);
  }
  const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = random_.Normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = random_.Uniform();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v;
  }
}

double ComputeTime::Draw() {
  using Kind = config::TimeDistribution::Kind;
  double t = 0;
  switch (d_.kind) {
    case Kind::kConstant:
      t = d_.mean;
      break;
    case Kind::kNormal:
      t = d_.mean + d_.stdev * random_.Normal();
      break;
    case Kind::kUniform:
      t = d_.min + (d_.max - d_.min) * random_.Uniform();
      break;
    case Kind::kGamma:
      t = Gamma(d_.shape) * d_.scale;
      break;
    case Kind::kExponential:
      t = -d_.mean * std::log(1 - random_.Uniform());
      break;
    case Kind::kPoisson: {
      const double lambda = d_.mean;
      if (lambda <= 0) break;
      if (lambda < 30) {  // Knuth: multiply uniforms until below e^-lambda
        const double limit = std::exp(-lambda);
        double p = random_.Uniform();
        uint64_t k = 0;
        while (p > limit) {
          ++k;
          p *= random_.Uniform();
        }
        t = static_cast<double>(k);
      } else {  // normal approximation, rounded: error far below timer resolution
        t = std::round(lambda + std::sqrt(lambda) * random_.Normal());
      }
      break;
    }
  }
  return std::max(0.0, t);
}

}  // namespace trainbench::sim
