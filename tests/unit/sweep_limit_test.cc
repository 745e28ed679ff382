// What limited a sweep's answer, from the failing probe's figures (app/sweep_limit.h).
#include "app/sweep_limit.h"

#include <gtest/gtest.h>

namespace trainbench::app {
namespace {

SweepProbe Probe(double busy, double late_p99_ms, double cpu_share, double cached) {
  SweepProbe p;
  p.accelerators = 12;
  p.run_seconds = 10;
  p.cpu_seconds = cpu_share * 10;
  p.host_busy_share = busy;
  p.timer_late_p99_ms = late_p99_ms;
  p.page_cache_fraction = cached;
  p.mb_per_second = 20;
  p.demand_mb_per_second = 24;
  return p;
}

TEST(SweepLimit, TheStorageWhenTheClientKeptTimeAndReadsWentToIt) {
  const auto f = ClassifyLimit(Probe(0.4, 0.5, 0.3, 0.0), 0.1, 2);
  EXPECT_EQ(f.limit, SweepLimit::kStorage);
  EXPECT_STREQ(LimitName(f.limit), "storage");
}

TEST(SweepLimit, LateTimersMakeItTheClient) {
  // 15 ms late (p99) on a 2 ms compute: far past the 10% of the step AU can spare.
  const auto f = ClassifyLimit(Probe(1.0, 15.0, 0.2, 1.0), 0.002, 2);
  EXPECT_EQ(f.limit, SweepLimit::kClient);
  EXPECT_NE(f.evidence.find("busy 100%"), std::string::npos) << f.evidence;
  // A busy host counts once it shows in the timers at half that.
  EXPECT_EQ(ClassifyLimit(Probe(0.95, 7.0, 0.2, 0.0), 0.1, 2).limit, SweepLimit::kClient);
  EXPECT_EQ(ClassifyLimit(Probe(0.95, 3.0, 0.2, 0.0), 0.1, 2).limit, SweepLimit::kStorage);
}

TEST(SweepLimit, TrainbenchOnMostCoresIsTheClient) {
  EXPECT_EQ(ClassifyLimit(Probe(0.5, 0.1, 1.7, 0.0), 0.1, 2).limit, SweepLimit::kClient);
}

TEST(SweepLimit, PageCacheReadsAreMemory) {
  const auto f = ClassifyLimit(Probe(0.5, 0.1, 0.3, 0.99), 0.1, 2);
  EXPECT_EQ(f.limit, SweepLimit::kMemory);
  EXPECT_EQ(ClassifyPassed(Probe(1.0, 50.0, 1.9, 0.99)).limit, SweepLimit::kMemory);
  EXPECT_EQ(ClassifyPassed(Probe(1.0, 50.0, 1.9, 0.1)).limit, SweepLimit::kStorage);
}

}  // namespace
}  // namespace trainbench::app
