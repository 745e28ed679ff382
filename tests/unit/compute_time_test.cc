// Compute-time draws: seeded (same seed, same sequence) and with the configured
// distribution's mean.
#include "sim/compute_time.h"

#include <gtest/gtest.h>

#include <cmath>

namespace trainbench::sim {
namespace {

using Kind = config::TimeDistribution::Kind;

double MeanOf(const config::TimeDistribution& d, int n = 20000) {
  ComputeTime t(d, 42);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double v = t.Draw();
    EXPECT_GE(v, 0);
    sum += v;
  }
  return sum / n;
}

TEST(ComputeTime, DistributionMeans) {
  config::TimeDistribution d;
  d.mean = 0.224;
  EXPECT_DOUBLE_EQ(MeanOf(d, 10), 0.224);
  d.kind = Kind::kNormal;
  d.stdev = 0.01;
  EXPECT_NEAR(MeanOf(d), 0.224, 0.001);
  d.kind = Kind::kExponential;
  EXPECT_NEAR(MeanOf(d), 0.224, 0.01);
  d.kind = Kind::kPoisson;
  d.mean = 3;
  EXPECT_NEAR(MeanOf(d), 3, 0.05);
  d.mean = 50;
  EXPECT_NEAR(MeanOf(d), 50, 0.3);
  d.kind = Kind::kUniform;
  d.min = 0.1;
  d.max = 0.3;
  EXPECT_NEAR(MeanOf(d), 0.2, 0.003);
  d.kind = Kind::kGamma;
  for (double shape : {0.5, 2.0}) {
    d.shape = shape;
    d.scale = 0.1;
    EXPECT_NEAR(MeanOf(d), shape * 0.1, 0.05 * shape * 0.1) << shape;
  }
}

TEST(ComputeTime, SeededAndClippedAtZero) {
  config::TimeDistribution d;
  d.kind = Kind::kNormal;
  d.mean = 0.01;
  d.stdev = 1;
  ComputeTime a(d, 1), b(d, 1), c(d, 2);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const double x = a.Draw();
    EXPECT_EQ(x, b.Draw());
    EXPECT_GE(x, 0);
    differs |= x != c.Draw();
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace trainbench::sim
