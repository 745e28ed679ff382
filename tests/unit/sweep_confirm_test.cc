// Holding a sweep's answer (sweep/confirm.h): the AU spread of the repeats at N* and
// N*+1, and a disagreement named with what limited the runs that broke ranks.
#include <gtest/gtest.h>

#include "sweep/confirm.h"
#include "sweep/limit.h"

namespace trainbench::sweep {
namespace {

SweepProbe FullRun(uint64_t n, int repeat, double au, bool passed) {
  SweepProbe p;
  p.accelerators = n;
  p.full = true;
  p.repeat = repeat;
  p.complete = true;
  p.au_meaningful = true;
  p.passed = passed;
  p.au_percentage = au;
  p.run_seconds = 10;
  p.cpu_seconds = 2;
  p.host_busy_share = 0.4;
  p.mb_per_second = 20;
  p.demand_mb_per_second = 24;
  return p;
}

Confirmation Held(size_t passed_at_answer, size_t passed_above) {
  Confirmation c;
  c.runs_per_side = 3;
  c.answer = SideRuns{12, 3, passed_at_answer};
  c.failure = SideRuns{13, 3, passed_above};
  return c;
}

TEST(SweepConfirm, SpreadIsMinMedianMaxOfTheFullLengthRuns) {
  std::vector<SweepProbe> probes = {FullRun(12, 0, 93.0, true), FullRun(12, 1, 91.0, true),
                                    FullRun(12, 2, 95.0, true), FullRun(13, 0, 85.0, false)};
  SweepProbe short_probe = FullRun(12, 0, 50.0, false);
  short_probe.full = false;  // a short probe is no part of the spread
  probes.push_back(short_probe);
  const AuSpread s = SpreadAt(probes, 12);
  EXPECT_EQ(s.runs, 3u);
  EXPECT_EQ(s.passed, 3u);
  EXPECT_DOUBLE_EQ(s.min, 91.0);
  EXPECT_DOUBLE_EQ(s.median, 93.0);
  EXPECT_DOUBLE_EQ(s.max, 95.0);
  EXPECT_DOUBLE_EQ(SpreadAt({FullRun(5, 0, 80, false), FullRun(5, 1, 90, true)}, 5).median, 85.0);
  const auto j = ConfirmationJson(Held(3, 0), probes);
  EXPECT_EQ(j["runs_per_side"], 3);
  EXPECT_EQ(j["stable"], true);
  EXPECT_EQ(j["answer"]["au_median_percentage"], 93.0);
  EXPECT_EQ(j["first_failure"]["runs"], 1u);  // as many as the probes hold
  EXPECT_NE(SpreadLine(Held(3, 0), probes)
                .find("12 passed 3 of 3 (AU min/median/max "
                      "91.0/93.0/95.0%)"),
            std::string::npos)
      << SpreadLine(Held(3, 0), probes);
}

TEST(SweepConfirm, EachSideOnlyWhereBothSidesRanThatMany) {
  // The answer held by 3 runs, the failing count by its one (issue 46.9: "at each side" was
  // printed all the same).
  const std::vector<SweepProbe> probes = {FullRun(12, 0, 93, true), FullRun(12, 1, 92, true),
                                          FullRun(12, 2, 94, true), FullRun(13, 0, 85, false)};
  const std::string line = SpreadLine(Held(3, 0), probes);
  EXPECT_EQ(line.find("at each side"), std::string::npos) << line;
  EXPECT_NE(line.find("held by full-length runs: 12 passed 3 of 3"), std::string::npos) << line;
  EXPECT_NE(line.find("13 passed 0 of 1"), std::string::npos) << line;
  Confirmation answer_only = Held(3, 0);
  answer_only.failure.reset();  // every count up to --max passed
  EXPECT_EQ(SpreadLine(answer_only, probes).find("at each side"), std::string::npos);
}

TEST(SweepConfirm, RepeatsThatAgreeSayNothingMore) {
  const std::vector<SweepProbe> probes = {FullRun(12, 0, 93, true),  FullRun(12, 1, 92, true),
                                          FullRun(12, 2, 94, true),  FullRun(13, 0, 85, false),
                                          FullRun(13, 1, 84, false), FullRun(13, 2, 86, false)};
  EXPECT_EQ(Disagreement(Held(3, 0), probes, 0.1, 2), "");
  EXPECT_EQ(Disagreement(Confirmation{}, probes, 0.1, 2), "");  // not held at all
}

TEST(SweepConfirm, AFailingRepeatAtTheAnswerIsNamedWithItsLimit) {
  std::vector<SweepProbe> probes = {FullRun(12, 0, 93, true), FullRun(12, 1, 92, true),
                                    FullRun(13, 0, 85, false), FullRun(13, 1, 84, false),
                                    FullRun(13, 2, 86, false)};
  SweepProbe busy =
      FullRun(12, 2, 81, false);  // a neighbour's load: the host 97% busy, timers late
  busy.host_busy_share = 0.97;
  busy.timer_late_p99_ms = 20;
  probes.push_back(busy);
  const std::string text = Disagreement(Held(2, 0), probes, 0.1, 2);
  EXPECT_EQ(text.rfind("the answer is not stable: 12 passed 2 of 3 full-length runs, the failing "
                       "one client-bound (2 cores, busy 97%",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("; 13 passed 0 of 3 full-length runs"), std::string::npos) << text;
  EXPECT_EQ(text.find("13 passed 0 of 3 full-length runs,"), std::string::npos) << text;
}

TEST(SweepConfirm, APassingRepeatAboveTheAnswerIsNamedByItsFailures) {
  const std::vector<SweepProbe> probes = {FullRun(12, 0, 93, true), FullRun(12, 1, 92, true),
                                          FullRun(12, 2, 94, true), FullRun(13, 0, 88, false),
                                          FullRun(13, 1, 91, true), FullRun(13, 2, 87, false)};
  const std::string text = Disagreement(Held(3, 1), probes, 0.1, 2);
  EXPECT_NE(text.find("12 passed 3 of 3 full-length runs; 13 passed 1 of 3 full-length runs, "
                      "the failing ones storage-bound ("),
            std::string::npos)
      << text;
}

TEST(SweepConfirm, TheFailingSideIsTheStorageOnlyWhereEveryRunSaysSo) {
  SweepProbe quiet = FullRun(13, 0, 85, false);
  SweepProbe late = FullRun(13, 1, 70, false);
  late.timer_late_p50_ms = 40;  // late in the median step, not only in the tail
  late.timer_late_p99_ms = 50;
  EXPECT_EQ(ClassifyRuns({&quiet}, 0.1, 2).limit, SweepLimit::kStorage);
  EXPECT_EQ(ClassifyRuns({&quiet, &late}, 0.1, 2).limit, SweepLimit::kClient);
  SweepProbe cached = FullRun(13, 2, 80, false);
  cached.page_cache_fraction = 1.0;
  EXPECT_EQ(ClassifyRuns({&quiet, &cached}, 0.1, 2).limit, SweepLimit::kMemory);
  EXPECT_EQ(ClassifyRuns({&cached, &late}, 0.1, 2).limit, SweepLimit::kClient);
}

}  // namespace
}  // namespace trainbench::sweep
