#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <string>

#include "stage/range_journal.h"
#include "stage/stage_account.h"

namespace trainbench::stage {
namespace {

const std::string kHex(64, 'a');
const std::string kHex2(64, 'b');

std::string Path(const char* name) { return testing::TempDir() + "/" + name; }

TEST(StageJournal, SyncedEntriesSurviveAndUnsyncedOnesDoNot) {
  const std::string path = Path("journal_sync");
  ::unlink(path.c_str());
  const JournalIdentity id{100, 30, false, "etag x"};
  {
    RangeJournal j(path, id);
    EXPECT_FALSE(j.Resumed());
    j.AddChunk(0, kHex);
    j.AddChunk(3, kHex2);
    j.Sync(-1);
    j.AddChunk(1, kHex);  // never synced: as if killed here
  }
  RangeJournal j(path, id);
  EXPECT_TRUE(j.Resumed());
  ASSERT_EQ(j.Chunks().size(), 2u);
  EXPECT_EQ(j.Chunks().at(0), kHex);
  EXPECT_EQ(j.Chunks().at(3), kHex2);
  j.Remove();
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
}

TEST(StageJournal, HighWaterMarksResumeUntilTheirChunkIsDone) {
  const std::string path = Path("journal_partial");
  ::unlink(path.c_str());
  const JournalIdentity id{100, 30, false, "etag x"};
  {
    RangeJournal j(path, id);
    j.SetPartial(1, 10);
    j.SetPartial(2, 5);
    j.Sync(-1);
    j.SetPartial(1, 20);
    j.AddChunk(2, kHex);
    j.Sync(-1);
    j.SetPartial(3, 7);  // never synced: as if killed here
  }
  RangeJournal j(path, id);
  ASSERT_TRUE(j.Resumed());
  EXPECT_EQ(j.Partials(), (std::map<uint64_t, uint64_t>{{1, 20}}));  // 2 is done
  EXPECT_EQ(j.Chunks().count(2), 1u);
}

TEST(StageJournal, AnotherVersionOrChunkSizeStartsAfresh) {
  const std::string path = Path("journal_identity");
  ::unlink(path.c_str());
  {
    RangeJournal j(path, {100, 30, false, "etag x"});
    j.AddChunk(0, kHex);
    j.Sync(-1);
  }
  {
    RangeJournal j(path, {100, 30, false, "etag y"});
    EXPECT_FALSE(j.Resumed());
    EXPECT_FALSE(j.DiscardReason().empty());
    EXPECT_TRUE(j.Chunks().empty());
  }
  RangeJournal j(path, {100, 30, false, "etag y"});  // the new header was written
  EXPECT_TRUE(j.Resumed());
}

TEST(StageJournal, TornAndBadLinesAreIgnored) {
  const std::string path = Path("journal_torn");
  const JournalIdentity id{100, 30, true, ""};
  {
    std::ofstream out(path);
    out << JournalHeader(id) << "\n"
        << "c 1 " << kHex << "\n"
        << "c 9 " << kHex << "\n"  // past the object's end
        << "c 2 nothex\n"
        << "r 60\n"
        << "c 0 " << kHex.substr(0, 10);  // torn: no newline
  }
  RangeJournal j(path, id);
  EXPECT_TRUE(j.Resumed());
  ASSERT_EQ(j.Chunks().size(), 1u);
  EXPECT_TRUE(j.Chunks().count(1));
  EXPECT_EQ(j.ResumeOffset(), 60u);
  j.Remove();
}

TEST(StageAccount, SharesAddUpToWallTime) {
  PhaseClock clock;
  {
    PhaseScope verify(clock, Phase::kVerify);
    ::usleep(20000);
    PhaseScope extract(clock, Phase::kExtract);
    ::usleep(10000);
  }
  ::usleep(30000);
  StreamTime streams;
  streams.useful_s = 3;
  streams.wasted_s = 1;
  StageAccount a;
  a.SetShares(clock, streams);
  EXPECT_GE(a.verify_s, 0.019);
  EXPECT_GE(a.extract_s, 0.009);
  EXPECT_NEAR(a.retry_wasted_s / (a.transfer_s + a.retry_wasted_s), 0.25, 1e-9);
  EXPECT_NEAR(a.transfer_s + a.retry_wasted_s + a.verify_s + a.extract_s, a.wall_s, 1e-9);
  EXPECT_GE(a.wall_s, 0.059);
}

}  // namespace
}  // namespace trainbench::stage
