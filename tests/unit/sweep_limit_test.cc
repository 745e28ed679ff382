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
