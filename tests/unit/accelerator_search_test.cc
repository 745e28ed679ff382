// The search of `sweep --find-max-accelerators` against storages whose limit is known: the
// answer is the arithmetic one, the probes grow x2 then bisect, full-length runs confirm (and
// correct a probe that was wrong), and a dataset too small for a count ends the growth.
#include "sweep/accelerator_search.h"

#include <gtest/gtest.h>

#include <cmath>

namespace trainbench::sweep {
namespace {

// A storage delivering `limit` bytes/s to accelerators asking `demand` each: AU is
// min(1, limit / (n x demand)); a count passes at AU >= 90%.
std::function<ProbeVerdict(uint64_t, bool)> Limited(double limit, double demand) {
  return [=](uint64_t n, bool) {
    const double au = std::min(1.0, limit / (static_cast<double>(n) * demand));
    return ProbeVerdict{au >= 0.9, true, false};
  };
}

uint64_t Arithmetic(double limit, double demand) {
  return static_cast<uint64_t>(std::floor(limit / (0.9 * demand)));
}

TEST(AcceleratorSearch, FindsTheArithmeticAnswerForSeveralLimits) {
  for (double limit : {1.0, 9.5, 16.0, 37.0, 100.0, 999.0}) {
    const auto r = FindMaxAccelerators(1, 4096, Limited(limit, 1.0));
    EXPECT_EQ(r.answer, Arithmetic(limit, 1.0)) << limit;
    ASSERT_TRUE(r.first_failure.has_value());
    EXPECT_EQ(*r.first_failure, r.answer + 1);
    EXPECT_TRUE(r.confirmed);
    // Short probes: about 2 log2(N) of them, then the two full-length runs.
    size_t full = 0;
    for (const auto& s : r.steps) full += s.full;
    EXPECT_EQ(full, r.answer > 0 ? 2u : 1u) << limit;
    EXPECT_LE(r.steps.size(), 2 * static_cast<size_t>(std::log2(limit / 0.9) + 2) + 2) << limit;
  }
}

TEST(AcceleratorSearch, GrowsGeometricallyThenBisects) {
  const auto r = FindMaxAccelerators(1, 4096, Limited(18.0, 1.0));  // N* = 20
  std::vector<uint64_t> order;
  for (const auto& s : r.steps)
    if (!s.full) order.push_back(s.accelerators);
  EXPECT_EQ(order, (std::vector<uint64_t>{1, 2, 4, 8, 16, 32, 24, 20, 22, 21}));
  EXPECT_EQ(r.answer, 20u);
}

TEST(AcceleratorSearch, FullLengthRunsCorrectAShortProbe) {
  // Short probes are optimistic by 3 counts (a cache that warms, say); full runs are right.
  auto probe = [](uint64_t n, bool full) {
    return ProbeVerdict{n <= (full ? 10u : 13u), true, false};
  };
  const auto r = FindMaxAccelerators(1, 4096, probe);
  EXPECT_EQ(r.answer, 10u);
  EXPECT_EQ(r.first_failure.value_or(0), 11u);
  EXPECT_TRUE(r.confirmed);
}

TEST(AcceleratorSearch, ARangeThatAlwaysPassesSaysSo) {
  const auto r = FindMaxAccelerators(2, 12, Limited(1000.0, 1.0));
  EXPECT_EQ(r.answer, 12u);
  EXPECT_TRUE(r.limited_by_range);
  EXPECT_FALSE(r.first_failure.has_value());
}

TEST(AcceleratorSearch, NoCountPasses) {
  const auto r = FindMaxAccelerators(1, 64, Limited(0.5, 1.0));
  EXPECT_EQ(r.answer, 0u);
  EXPECT_EQ(r.first_failure.value_or(0), 1u);
}

TEST(AcceleratorSearch, NeverProbesBelowTheLowestCount) {
  // Under mpirun with 2 ranks --min is 2: a failing 2 must not send the bisection to 1.
  std::vector<uint64_t> tried;
  auto probe = [&](uint64_t n, bool) {
    tried.push_back(n);
    return ProbeVerdict{false, true, false};
  };
  const auto r = FindMaxAccelerators(2, 64, probe);
  EXPECT_EQ(r.answer, 0u);
  EXPECT_EQ(r.first_failure.value_or(0), 2u);
  EXPECT_TRUE(r.confirmed);
  for (uint64_t n : tried) EXPECT_GE(n, 2u);
  // A short probe that failed the lowest but a full run that holds it: the answer steps up.
  auto late = [](uint64_t n, bool full) { return ProbeVerdict{full && n <= 3, true, false}; };
  const auto up = FindMaxAccelerators(2, 64, late);
  EXPECT_EQ(up.answer, 3u);
  EXPECT_EQ(up.first_failure.value_or(0), 4u);
  for (const auto& s : up.steps) EXPECT_GE(s.accelerators, 2u);
}

TEST(AcceleratorSearch, ADatasetTooSmallEndsTheGrowth) {
  // Every count passes, but above 30 the AU is no verdict (too few steps).
  auto probe = [](uint64_t n, bool) { return ProbeVerdict{true, n <= 30, false}; };
  const auto r = FindMaxAccelerators(1, 4096, probe);
  EXPECT_EQ(r.answer, 30u);
  EXPECT_TRUE(r.limited_by_dataset);
  // 31 had no verdict: it is named as such, not as the first failure.
  EXPECT_FALSE(r.first_failure.has_value());
  EXPECT_EQ(r.no_verdict.value_or(0), 31u);
}

TEST(AcceleratorSearch, AFailureBelowTheNoVerdictIsTheFirstFailure) {
  // 16 fails AU; from 32 on the AU is no verdict: the bisection's failure is a real one.
  auto probe = [](uint64_t n, bool) { return ProbeVerdict{n <= 12, n < 32, false}; };
  const auto r = FindMaxAccelerators(1, 4096, probe);
  EXPECT_EQ(r.answer, 12u);
  EXPECT_EQ(r.first_failure.value_or(0), 13u);
  EXPECT_FALSE(r.no_verdict.has_value());
}

TEST(AcceleratorSearch, AStoppedRunEndsTheSearch) {
  auto probe = [](uint64_t n, bool) { return ProbeVerdict{true, true, n == 8}; };
  const auto r = FindMaxAccelerators(1, 4096, probe);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.steps.back().accelerators, 8u);
}

TEST(AcceleratorSearch, HoldBoundaryRepeatsBothSidesAndKeepsTheAnswer) {
  auto r = FindMaxAccelerators(1, 4096, Limited(18.0, 1.0));  // N* = 20
  const size_t searched = r.steps.size();
  std::vector<std::pair<uint64_t, int>> asked;
  const auto held = HoldBoundary(r, 3, [&](uint64_t n, int repeat) {
    asked.emplace_back(n, repeat);
    return Limited(18.0, 1.0)(n, true);
  });
  // Two more runs at each side: the search's own full-length run is the first.
  EXPECT_EQ(asked, (std::vector<std::pair<uint64_t, int>>{{20, 1}, {20, 2}, {21, 1}, {21, 2}}));
  ASSERT_EQ(r.steps.size(), searched + 4);
  EXPECT_EQ(r.steps.back().repeat, 2);
  EXPECT_TRUE(r.steps.back().full);
  ASSERT_TRUE(held.answer && held.failure);
  EXPECT_EQ(held.answer->runs, 3u);
  EXPECT_EQ(held.answer->passed, 3u);
  EXPECT_EQ(held.failure->runs, 3u);
  EXPECT_EQ(held.failure->passed, 0u);
  EXPECT_TRUE(held.Stable());
  EXPECT_EQ(r.answer, 20u);
}

TEST(AcceleratorSearch, RepeatsThatDisagreeAreCountedNotPicked) {
  // N* fails its second repeat (a busy neighbour, say); N*+1 passes its first.
  auto r = FindMaxAccelerators(1, 4096, Limited(18.0, 1.0));
  const auto held = HoldBoundary(r, 3, [](uint64_t n, int repeat) {
    const bool passed = n == 20 ? repeat != 2 : repeat == 1;
    return ProbeVerdict{passed, true, false};
  });
  EXPECT_FALSE(held.Stable());
  EXPECT_EQ(held.answer->passed, 2u);
  EXPECT_EQ(held.failure->passed, 1u);
  EXPECT_EQ(r.answer, 20u);  // the search's answer stands; the disagreement is said beside it
  EXPECT_EQ(r.first_failure.value_or(0), 21u);
}

TEST(AcceleratorSearch, HoldBoundaryOnlyWhereThereIsASide) {
  // The dataset ended the growth: no failure to repeat, only N*.
  auto nv = FindMaxAccelerators(1, 4096, [](uint64_t n, bool) {
    return ProbeVerdict{true, n <= 30, false};
  });
  int calls = 0;
  const auto held = HoldBoundary(nv, 2, [&](uint64_t, int) {
    ++calls;
    return ProbeVerdict{true, true, false};
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(held.answer.has_value());
  EXPECT_FALSE(held.failure.has_value());
  // One run per side asks for nothing more.
  auto one = FindMaxAccelerators(1, 4096, Limited(18.0, 1.0));
  const auto single = HoldBoundary(one, 1, [&](uint64_t, int) {
    ++calls;
    return ProbeVerdict{};
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(single.Stable());
  EXPECT_EQ(single.answer->runs, 1u);
}

TEST(AcceleratorSearch, ARepeatThatStopsEndsTheSweep) {
  auto r = FindMaxAccelerators(1, 4096, Limited(18.0, 1.0));
  const auto held = HoldBoundary(r, 3, [](uint64_t n, int) {
    return ProbeVerdict{true, true, n == 21};
  });
  EXPECT_TRUE(r.stopped);
  EXPECT_NE(r.stop_reason.find("21"), std::string::npos) << r.stop_reason;
  EXPECT_EQ(held.runs_per_side, 0);
}

}  // namespace
}  // namespace trainbench::sweep
