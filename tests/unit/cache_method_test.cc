// Which method tells a run's page-cache share (sim/cache_method.h): /proc/self/io on a local
// disk, mincore on a network or FUSE mount (where read_bytes stays 0 whatever was fetched) or
// where /proc/self/io cannot be read, none on S3, under O_DIRECT and with the null engine;
// the override picks by hand; and the figures each method gives at the end of a run.
#include "sim/cache_method.h"

#include <gtest/gtest.h>

namespace trainbench::sim {
namespace {

CacheMethodInputs On(const std::string& fs_type) {
  CacheMethodInputs in;
  in.fs_type = fs_type;
  return in;
}

TEST(CacheMethod, ByTheFileSystemAndWhatCanBeRead) {
  EXPECT_EQ(ChooseCacheMethod(On("ext4")).method, "proc_io");
  EXPECT_EQ(ChooseCacheMethod(On("xfs")).method, "proc_io");
  for (const char* blind : {"fuse.ceph-fuse", "ceph", "nfs4", "lustre", "fuseblk"}) {
    const CacheMethod m = ChooseCacheMethod(On(blind));
    EXPECT_EQ(m.method, "mincore") << blind;
    EXPECT_NE(m.reason.find(blind), std::string::npos) << m.reason;
  }
  CacheMethodInputs in = On("ext4");
  in.proc_io_available = false;
  EXPECT_EQ(ChooseCacheMethod(in).method, "mincore");

  in = On("ext4");
  in.file_system = false;
  EXPECT_EQ(ChooseCacheMethod(in).method, "none");
  in = On("fuse.ceph-fuse");
  in.direct = true;
  EXPECT_EQ(ChooseCacheMethod(in).method, "none");
  EXPECT_NE(ChooseCacheMethod(in).reason.find("O_DIRECT"), std::string::npos);
  in = On("ext4");
  in.null_engine = true;
  EXPECT_EQ(ChooseCacheMethod(in).method, "none");
  // A library that reads samples itself (hdf5): no ranges to check; /proc/self/io where it
  // can see the reads.
  in = On("nfs4");
  in.whole_samples = true;
  EXPECT_EQ(ChooseCacheMethod(in).method, "none");
  in.fs_type = "ext4";
  EXPECT_EQ(ChooseCacheMethod(in).method, "proc_io");
}

TEST(CacheMethod, TheOverridePicksByHand) {
  CacheMethodInputs in = On("ext4");
  in.forced = "mincore";
  EXPECT_EQ(ChooseCacheMethod(in).method, "mincore");
  EXPECT_NE(ChooseCacheMethod(in).reason.find("TRAINBENCH_CACHE_METHOD=mincore"),
            std::string::npos);
  in = On("fuse.ceph-fuse");
  in.forced = "proc_io";
  EXPECT_EQ(ChooseCacheMethod(in).method, "proc_io");
  in.forced = "auto";
  EXPECT_EQ(ChooseCacheMethod(in).method, "mincore");
  in.forced = "mincore";
  in.file_system = false;  // nothing to map on S3
  EXPECT_EQ(ChooseCacheMethod(in).method, "none");
}

TEST(CacheMethod, TheFiguresOfEachMethod) {
  metrics::ProcessIo before, after;
  before.read_bytes = 100;
  after.read_bytes = 600;
  before.available = after.available = true;
  EXPECT_EQ(CacheRecordOf({"proc_io", "ext4"}, before, after, std::nullopt).storage_read_bytes,
            500u);
  storage::ResidencyCounts counts;
  counts.resident_bytes = 700;
  counts.fetched_bytes = 200;
  counts.unchecked_bytes = 100;
  counts.error = "cannot map 'x'";
  metrics::CacheRecord c = CacheRecordOf({"mincore", "fuse"}, before, after, counts);
  EXPECT_EQ(c.method, "mincore");
  EXPECT_EQ(c.storage_read_bytes, 300u);  // what it could not look at counts as storage's
  EXPECT_EQ(c.resident_bytes, 700u);
  EXPECT_NE(c.reason.find("cannot map 'x'"), std::string::npos) << c.reason;
  counts.resident_bytes = counts.fetched_bytes = 0;
  c = CacheRecordOf({"mincore", "fuse"}, before, after, counts);
  EXPECT_EQ(c.method, "none");
  EXPECT_EQ(c.reason, "mincore could not look at the files: cannot map 'x'");
}

}  // namespace
}  // namespace trainbench::sim
