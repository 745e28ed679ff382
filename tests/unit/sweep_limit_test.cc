// What limited a sweep's answer, from the failing probe's figures (sweep/limit.h).
#include <gtest/gtest.h>

#include "sweep/limit.h"

namespace trainbench::sweep {
namespace {

SweepProbe Probe(double busy, double late_p99_ms, double cpu_share, double cached,
                 double late_p50_ms = -1) {
  SweepProbe p;
  p.timer_late_p50_ms = late_p50_ms >= 0 ? late_p50_ms : late_p99_ms;
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

TEST(SweepLimit, ALateTailOnAQuietHostIsNotTheClient) {
  // CI, 2026-11-27: a 12 MB/s cap, the host 40% busy, timers 12 ms late at p99 on 100 ms of
  // compute but not in the median step: the storage delivered all it could.
  EXPECT_EQ(ClassifyLimit(Probe(0.4, 12.0, 0.1, 0.0, 0.5), 0.1, 2).limit, SweepLimit::kStorage);
  // Late in the median step too: the client.
  EXPECT_EQ(ClassifyLimit(Probe(0.4, 30.0, 0.1, 0.0, 15.0), 0.1, 2).limit, SweepLimit::kClient);
}

TEST(SweepLimit, ALateTailThatCostLittleOfTheShortfallIsNotTheClient) {
  // Issue 46.9: an RGW behind a 45 MB/s cap on a busy host; the p99 late by 8% of the
  // compute, the median step 0.08 ms, 0.5 ms on average: half an AU point of the 5 missed.
  SweepProbe p = Probe(0.95, 8.0, 0.2, 0.0, 0.08);
  p.timer_late_mean_ms = 0.5;
  p.au_target_percentage = 90;
  p.au_percentage = 85;
  EXPECT_EQ(ClassifyLimit(p, 0.1, 2).limit, SweepLimit::kStorage);
  // The same tail where the lateness cost most of the shortfall: the client.
  p.timer_late_mean_ms = 5.0;  // 4.8 points of 5
  EXPECT_EQ(ClassifyLimit(p, 0.1, 2).limit, SweepLimit::kClient);
}

TEST(SweepLimit, OtherProcessesLoadNotTrainbenchIsSaid) {
  // 2 cores 95% busy, trainbench on 0.1 of a core, the median step 15 ms late: other load.
  const auto f = ClassifyLimit(Probe(0.95, 20.0, 0.1, 0.0, 15.0), 0.1, 2);
  EXPECT_EQ(f.limit, SweepLimit::kClient);
  EXPECT_TRUE(f.other_load);
  EXPECT_NE(f.evidence.find("other processes 1.8"), std::string::npos) << f.evidence;
  // trainbench on most cores itself: not the others'.
  EXPECT_FALSE(ClassifyLimit(Probe(0.95, 20.0, 1.7, 0.0, 15.0), 0.1, 2).other_load);
  // Late and read from the page cache: both are said.
  EXPECT_TRUE(ClassifyLimit(Probe(0.95, 20.0, 0.1, 0.99, 15.0), 0.1, 2).cached_too);
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
}  // namespace trainbench::sweep
