// A sweep run's figures (sweep/probe.h), with no run: read from a run's summary.json, kept
// in the journal and read back to resume, and the rows of probes.csv and a grid's points.csv.
#include <gtest/gtest.h>

#include "sweep/probe.h"

namespace trainbench::sweep {
namespace {

nlohmann::json Summary() {
  return nlohmann::json::parse(R"({
    "complete": true, "passed": true, "au_meaningful": true,
    "metric": {"train_au_mean_percentage": 92.5,
               "train_throughput_mean_samples_per_second": 400,
               "train_io_mean_MB_per_second": 58.5},
    "read_latency_ms": {"p99": 3.25},
    "cpu_seconds": 4, "run_seconds": 10,
    "cache": {"bytes_read": 1000, "device_read_available": true, "device_read_bytes": 250},
    "client": {"host_busy_share": 0.4,
               "compute_timer_late_ms": {"p50": 0.5, "p99": 2}}})");
}

TEST(SweepProbe, FiguresAreReadFromTheRunsSummary) {
  const SweepProbe p = ProbeOf(Summary(), 8, true, 2e6);
  EXPECT_EQ(p.accelerators, 8u);
  EXPECT_TRUE(p.full && p.complete && p.passed && p.au_meaningful);
  EXPECT_DOUBLE_EQ(p.au_percentage, 92.5);
  EXPECT_DOUBLE_EQ(p.mb_per_second, 58.5);
  EXPECT_DOUBLE_EQ(p.demand_mb_per_second, 16.0);  // 8 accelerators x 2 MB/s
  EXPECT_DOUBLE_EQ(p.read_p99_ms, 3.25);
  EXPECT_DOUBLE_EQ(p.page_cache_fraction, 0.75);  // 250 of 1000 bytes came from the device
  EXPECT_DOUBLE_EQ(p.host_busy_share, 0.4);
  EXPECT_DOUBLE_EQ(p.timer_late_p99_ms, 2.0);
  EXPECT_STREQ(VerdictWord(p), "pass");
}

TEST(SweepProbe, AnObjectStoresReadsAreNeverCountedAsThePageCaches) {
  nlohmann::json s = Summary();
  s["cache"]["page_cache_applies"] = false;
  EXPECT_DOUBLE_EQ(ProbeOf(s, 8, false, 2e6).page_cache_fraction, 0.0);
}

// On ceph-fuse /proc/self/io's read_bytes stays 0 whatever was fetched: the summary's own
// figure, told by mincore, is the one read, not 1 - 0 / bytes_read.
TEST(SweepProbe, TheCacheFigureIsTheOneItsMethodCouldSee) {
  nlohmann::json s = Summary();
  s["cache"]["device_read_bytes"] = 0;
  s["cache"]["method"] = "mincore";
  s["cache"]["storage_read_bytes"] = 900;
  s["cache"]["page_cache_fraction"] = 0.1;
  EXPECT_DOUBLE_EQ(ProbeOf(s, 8, false, 2e6).page_cache_fraction, 0.1);
  s["cache"]["method"] = "none";  // S3, O_DIRECT: never counted as the cache's
  s["cache"]["storage_read_bytes"] = nullptr;
  s["cache"]["page_cache_fraction"] = nullptr;
  EXPECT_DOUBLE_EQ(ProbeOf(s, 8, false, 2e6).page_cache_fraction, 0.0);
}

TEST(SweepProbe, TheVerdictSaysStoppedAndNoVerdict) {
  nlohmann::json s = Summary();
  s["au_meaningful"] = false;
  EXPECT_STREQ(VerdictWord(ProbeOf(s, 8, false, 2e6)), "no verdict");
  s["complete"] = false;
  EXPECT_STREQ(VerdictWord(ProbeOf(s, 8, false, 2e6)), "stopped");
  s = Summary();
  s["passed"] = false;
  EXPECT_STREQ(VerdictWord(ProbeOf(s, 8, false, 2e6)), "FAIL");
}

TEST(SweepProbe, TheJournalsRowReadsBackAsTheSameFigures) {
  SweepProbe p = ProbeOf(Summary(), 8, true, 2e6);
  p.repeat = 2;
  p.folder = "probes/unet3d-8";
  const SweepProbe back = ProbeFromJson(nlohmann::json::parse(ProbeJson(p).dump()));
  EXPECT_EQ(back.accelerators, p.accelerators);
  EXPECT_EQ(back.repeat, 2);
  EXPECT_EQ(back.full, p.full);
  EXPECT_EQ(back.complete, p.complete);
  EXPECT_DOUBLE_EQ(back.au_percentage, p.au_percentage);
  EXPECT_DOUBLE_EQ(back.cpu_seconds, p.cpu_seconds);
  EXPECT_DOUBLE_EQ(back.run_seconds, p.run_seconds);  // from cpu_seconds and cpu_share
  EXPECT_DOUBLE_EQ(back.host_busy_share, p.host_busy_share);
  EXPECT_EQ(back.folder, p.folder);
}

TEST(SweepProbe, AGridsRowsStartWithTheirPointsValues) {
  const SweepProbe p = ProbeOf(Summary(), 8, true, 2e6);
  const std::string csv = ProbesCsv({p}, {"reader.batch_size"}, {{"4"}});
  EXPECT_EQ(csv.rfind("reader.batch_size,accelerators,full,repeat,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n4,8,1,0,1,1,92.5000,"), std::string::npos) << csv;
  EXPECT_EQ(ProbesCsv({p}).rfind("accelerators,", 0), 0u);
}

}  // namespace
}  // namespace trainbench::sweep
