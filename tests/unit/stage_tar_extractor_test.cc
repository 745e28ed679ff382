#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/random.h"
#include "stage/tar/tar_extractor.h"
#include "stage/tar/tar_path.h"

namespace trainbench::stage {
namespace {

namespace fs = std::filesystem;

constexpr size_t kTarBlock = 512;

// Archives come from Python's tarfile (/usr/bin/python3, Debian's) so the extractor is tested
// against another implementation's ustar, GNU and pax output, not only its own idea of them.
constexpr const char* kMakeTarScript = R"PY(
import io, os, sys, tarfile
FORMATS = {"ustar": tarfile.USTAR_FORMAT, "gnu": tarfile.GNU_FORMAT, "pax": tarfile.PAX_FORMAT}
root = sys.argv[1]

def tree(name, fmt):  # the contents of src_NAME as NAME.tar
    src = os.path.join(root, "src_" + name)
    with tarfile.open(os.path.join(root, name + ".tar"), "w", format=FORMATS[fmt]) as tar:
        for name in sorted(os.listdir(src)):
            tar.add(os.path.join(src, name), arcname=name)

def nested():  # each folder of src_nested as stage/NAME.tar, files as they are; stage as a tar
    src, stage = os.path.join(root, "src_nested"), os.path.join(root, "stage")
    os.makedirs(stage)
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isdir(path):
            with tarfile.open(os.path.join(stage, name + ".tar"), "w",
                              format=tarfile.GNU_FORMAT) as inner:
                for member in sorted(os.listdir(path)):
                    inner.add(os.path.join(path, member), arcname=member)
        else:
            with open(path, "rb") as f, open(os.path.join(stage, name), "wb") as g:
                g.write(f.read())
    with tarfile.open(os.path.join(root, "nested.tar"), "w", format=tarfile.GNU_FORMAT) as tar:
        for name in sorted(os.listdir(stage)):
            tar.add(os.path.join(stage, name), arcname=name)

def links():  # a file, a symlink out of the tree, a hard link, a FIFO, a file
    with tarfile.open(os.path.join(root, "links.tar"), "w", format=tarfile.GNU_FORMAT) as tar:
        data = b"kept\n"
        info = tarfile.TarInfo("a.txt"); info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        info = tarfile.TarInfo("evil"); info.type = tarfile.SYMTYPE; info.linkname = "/etc/passwd"
        tar.addfile(info)
        info = tarfile.TarInfo("hard"); info.type = tarfile.LNKTYPE; info.linkname = "a.txt"
        tar.addfile(info)
        info = tarfile.TarInfo("pipe"); info.type = tarfile.FIFOTYPE
        tar.addfile(info)
        info = tarfile.TarInfo("b.txt"); info.size = len(data)
        tar.addfile(info, io.BytesIO(data))

for fmt in FORMATS:
    tree(fmt, fmt)
tree("long_gnu", "gnu")
tree("long_pax", "pax")
nested()
links()
)PY";

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void WriteAll(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string RandomBytes(uint64_t seed, size_t size) {
  std::string bytes(size, '\0');
  FillRandom(seed, 0, bytes.data(), size);
  return bytes;
}

// A folder as relative path -> contents ("<dir>" for folders, "<link>" for links), to
// compare two trees byte for byte.
std::map<std::string, std::string> Tree(const fs::path& root) {
  std::map<std::string, std::string> tree;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string relative = fs::relative(entry.path(), root).string();
    if (entry.is_symlink()) {
      tree[relative] = "<link>";
    } else if (entry.is_directory()) {
      tree[relative] = "<dir>";
    } else {
      tree[relative] = ReadAll(entry.path());
    }
  }
  return tree;
}

// Paths under `root` that are temporary member files.
std::vector<std::string> Partials(const fs::path& root) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().filename().string().ends_with(".tb-partial")) {
      found.push_back(entry.path().string());
    }
  }
  return found;
}

// A ustar header block written here, for archives Python's tarfile will not make (unsafe
// names, a base-256 size, a signed checksum, a wrong size).
std::string Header(const std::string& name, uint64_t size, char type = '0',
                   bool base256_size = false, bool signed_checksum = false) {
  std::string block(kTarBlock, '\0');
  block.replace(0, std::min<size_t>(name.size(), 100), name.substr(0, 100));
  block.replace(100, 8, "0000644", 8);
  block.replace(108, 8, "0000000", 8);
  block.replace(116, 8, "0000000", 8);
  if (base256_size) {
    block[124] = static_cast<char>(0x80);
    for (int i = 0; i < 8; ++i) block[135 - i] = static_cast<char>((size >> (8 * i)) & 0xff);
  } else {
    char octal[13];
    std::snprintf(octal, sizeof(octal), "%011llo", static_cast<unsigned long long>(size));
    block.replace(124, 12, octal, 12);
  }
  block.replace(136, 12, "14000000000", 12);
  block[156] = type;
  block.replace(257, 8,
                std::string("ustar\0"
                            "00",
                            8));
  block.replace(148, 8, "        ");
  int64_t sum = 0;
  for (const char c : block) {
    sum += signed_checksum ? static_cast<signed char>(c) : static_cast<unsigned char>(c);
  }
  char checksum[8];
  std::snprintf(checksum, sizeof(checksum), "%06llo", static_cast<unsigned long long>(sum));
  block.replace(148, 7, checksum, 7);  // six digits, NUL, and the space left from above
  return block;
}

std::string Padded(std::string data) {
  data.resize((data.size() + kTarBlock - 1) / kTarBlock * kTarBlock, '\0');
  return data;
}

std::string Member(const std::string& name, const std::string& data) {
  return Header(name, data.size()) + Padded(data);
}

std::string PaxRecord(const std::string& keyword, const std::string& value) {
  const std::string body = " " + keyword + "=" + value + "\n";
  size_t length = body.size() + 1;
  while (std::to_string(length).size() + body.size() != length) ++length;
  return std::to_string(length) + body;
}

std::string EndBlocks() { return std::string(2 * kTarBlock, '\0'); }

// Files of sizes around block and buffer edges, nested folders, an empty folder, a UTF-8 name,
// and names past 100 bytes (split over the ustar prefix when `ustar`, else one long component
// that needs a GNU long name or a pax path).
void MakeTree(const fs::path& root, bool ustar) {
  const std::vector<size_t> sizes = {0, 1, 511, 512, 513, 1000, 70000, 300000, 1300000};
  for (size_t i = 0; i < sizes.size(); ++i) {
    WriteAll(root / ("f" + std::to_string(i) + ".bin"), RandomBytes(i, sizes[i]));
  }
  WriteAll(root / "sub" / "deeper" / "a.jpg", RandomBytes(20, 4096));
  WriteAll(root / "sub" / "b.jpg", RandomBytes(21, 2500));
  WriteAll(root / "sub" / "caf\xc3\xa9.txt", "accent\n");
  fs::create_directories(root / "empty");
  const std::string long_folder(80, 'd');
  const std::string long_file = ustar ? std::string(90, 'f') : std::string(150, 'f');
  WriteAll(root / long_folder / (long_file + ".bin"), RandomBytes(22, 777));
}

// Small files under long names: most members of a GNU or pax archive of it have an extension
// header before them.
void MakeLongNames(const fs::path& root) {
  for (int i = 0; i < 8; ++i) {
    const std::string folder = std::string(60 + i, 'd') + std::to_string(i);
    WriteAll(root / folder / (std::string(110, 'n') + std::to_string(i)),
             RandomBytes(50 + i, 300 * i));
  }
}

// The ImageNet shape's source: class folders of JPEGs (and a plain file).
void MakeClasses(const fs::path& root) {
  for (int c = 0; c < 3; ++c) {
    const std::string name = "n0144076" + std::to_string(c);
    for (int i = 0; i < 5; ++i) {
      WriteAll(root / name / (name + "_" + std::to_string(i) + ".JPEG"),
               RandomBytes(100 * c + i, 3000 + 9000 * i));
    }
  }
  WriteAll(root / "LICENSE", "for tests\n");
}

// Python writes the archives once per process, for the first test that needs one (one
// interpreter start, not one per test): ROOT/{ustar,gnu,pax}.tar of ROOT/src_FORMAT,
// ROOT/nested.tar (a tar of per-class tars, made from ROOT/src_nested through ROOT/stage) and
// ROOT/links.tar.
class TarExtractorTest : public ::testing::Test {
 protected:
  static void TearDownTestSuite() {
    if (!root_.empty()) fs::remove_all(root_);
    root_.clear();
  }

  static const fs::path& Root() {
    if (!root_.empty()) return root_;
    root_ = fs::temp_directory_path() / ("tb_tar_archives_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    for (const std::string format : {"ustar", "gnu", "pax"}) {
      MakeTree(root_ / ("src_" + format), format == "ustar");
    }
    MakeLongNames(root_ / "src_long_gnu");
    MakeLongNames(root_ / "src_long_pax");
    MakeClasses(root_ / "src_nested");
    WriteAll(root_ / "make_tar.py", kMakeTarScript);
    const std::string command =
        "/usr/bin/python3 " + (root_ / "make_tar.py").string() + " " + root_.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return root_;
  }

  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("tb_tar_") + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // "ustar", "gnu", "pax", "long_gnu", "long_pax", "nested" or "links".
  static std::string Archive(const std::string& name) { return ReadAll(Root() / (name + ".tar")); }
  // The tree an archive of Archive() extracts to.
  static fs::path Source(const std::string& name) { return Root() / ("src_" + name); }

  static fs::path root_;
  fs::path dir_;
};

fs::path TarExtractorTest::root_;

// Feeds archive[begin, end) in pieces of 1..max_chunk bytes (random when `random`).
void FeedRange(TarExtractor& extractor, const std::string& archive, size_t begin, size_t end,
               Random* random, size_t max_chunk) {
  while (begin < end) {
    size_t chunk = random ? 1 + random->Below(max_chunk) : max_chunk;
    chunk = std::min(chunk, end - begin);
    extractor.Feed(archive.data() + begin, chunk);
    begin += chunk;
  }
}

TarStats ExtractWhole(const std::string& archive, const fs::path& dest, TarOptions options = {}) {
  TarExtractor extractor(dest.string(), options);
  extractor.Feed(archive.data(), archive.size());
  extractor.Finish();
  EXPECT_EQ(extractor.ResumeOffset() % kTarBlock, 0u);
  return extractor.Stats();
}

std::string FeedError(const std::string& archive, const fs::path& dest) {
  TarExtractor extractor(dest.string(), TarOptions{});
  try {
    extractor.Feed(archive.data(), archive.size());
    extractor.Finish();
  } catch (const RuntimeError& error) {
    return error.what();
  }
  return "";
}

TEST_F(TarExtractorTest, EachFormatExtractsToTheOriginalTree) {
  for (const std::string format : {"ustar", "gnu", "pax"}) {
    SCOPED_TRACE(format);
    const std::string archive = Archive(format);
    const TarStats stats = ExtractWhole(archive, dir_ / ("out_" + format));
    const auto expected = Tree(Source(format));
    EXPECT_EQ(Tree(dir_ / ("out_" + format)), expected);
    uint64_t files = 0, bytes = 0;
    for (const auto& [path, contents] : expected) {
      if (contents != "<dir>") ++files, bytes += contents.size();
    }
    EXPECT_EQ(stats.members, files);
    EXPECT_EQ(stats.bytes, bytes);
    EXPECT_EQ(stats.skipped, 0u);
    EXPECT_EQ(stats.archive_bytes, archive.size());
  }
}

TEST_F(TarExtractorTest, OneByteAndRandomChunksGiveTheSameTree) {
  const std::string archive = Archive("pax");
  const auto expected = Tree(Source("pax"));
  {
    TarExtractor extractor((dir_ / "bytes").string(), TarOptions{});
    // Each Feed is a hand-over to libarchive's thread: one byte at a time over the first
    // 32 KiB (headers, pax records, members) keeps the test short.
    const size_t bytewise = std::min<size_t>(archive.size(), 32 << 10);
    FeedRange(extractor, archive, 0, bytewise, nullptr, 1);
    FeedRange(extractor, archive, bytewise, archive.size(), nullptr, 1 << 20);
    extractor.Finish();
  }
  EXPECT_EQ(Tree(dir_ / "bytes"), expected);
  Random random(7);
  for (const size_t max_chunk : {600, 5000, 700000}) {
    const fs::path dest = dir_ / ("chunks" + std::to_string(max_chunk));
    TarExtractor extractor(dest.string(), TarOptions{});
    FeedRange(extractor, archive, 0, archive.size(), &random, max_chunk);
    extractor.Finish();
    EXPECT_EQ(Tree(dest), expected) << max_chunk;
  }
}

TEST_F(TarExtractorTest, NestedTarsBecomeFolders) {
  const std::string archive = Archive("nested");
  const TarStats stats = ExtractWhole(archive, dir_ / "out", TarOptions{});
  EXPECT_EQ(Tree(dir_ / "out"), Tree(Source("nested")));
  EXPECT_EQ(stats.members, 3u * 5u + 1u);  // the class tars' JPEGs and LICENSE

  // Without nested_tars the class tars are plain files.
  ExtractWhole(archive, dir_ / "flat", TarOptions{.nested_tars = false});
  EXPECT_EQ(Tree(dir_ / "flat"), Tree(Root() / "stage"));
}

TEST_F(TarExtractorTest, NothingHalfWrittenHasItsFinalName) {
  const std::string data = RandomBytes(1, 5000);
  const std::string archive = Member("x/big.bin", data) + EndBlocks();
  TarExtractor extractor((dir_ / "out").string(), TarOptions{});
  extractor.Feed(archive.data(), kTarBlock + 100);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "x" / "big.bin"));
  EXPECT_EQ(Partials(dir_ / "out").size(), 1u);
  EXPECT_EQ(extractor.ResumeOffset(), 0u);
  extractor.Feed(archive.data() + kTarBlock + 100, archive.size() - kTarBlock - 100);
  extractor.Finish();
  EXPECT_EQ(ReadAll(dir_ / "out" / "x" / "big.bin"), data);
  EXPECT_TRUE(Partials(dir_ / "out").empty());
  EXPECT_EQ(extractor.ResumeOffset(), kTarBlock + Padded(data).size());
}

// Stops at random points (the extractor destroyed mid-stream, possibly mid-header or
// mid-member), resumes at ResumeOffset() each time, and must end with the uninterrupted tree.
void CheckResume(const std::string& archive, const fs::path& dest, const fs::path& expected_root,
                 uint64_t seed, int trials) {
  const auto expected = Tree(expected_root);
  Random random(seed);
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(trial);
    fs::remove_all(dest);
    std::vector<size_t> stops(1 + random.Below(3));
    for (size_t& stop : stops) stop = random.Below(archive.size());
    std::sort(stops.begin(), stops.end());
    uint64_t resume = 0;
    const TarOptions options{};
    for (const size_t stop : stops) {
      if (stop <= resume) continue;
      {
        TarExtractor extractor(dest.string(), options, resume);
        FeedRange(extractor, archive, resume, stop, &random, 40000);
        ASSERT_GE(extractor.ResumeOffset(), resume);
        ASSERT_LE(extractor.ResumeOffset(), stop);
        resume = extractor.ResumeOffset();
      }
      ASSERT_TRUE(Partials(dest).empty()) << Partials(dest).front();
    }
    TarExtractor extractor(dest.string(), options, resume);
    FeedRange(extractor, archive, resume, archive.size(), &random, 40000);
    extractor.Finish();
    EXPECT_EQ(extractor.Stats().archive_bytes, archive.size() - resume);
    ASSERT_EQ(Tree(dest), expected);
  }
}

TEST_F(TarExtractorTest, ResumeAfterStopsGivesTheOriginalTree) {
  CheckResume(Archive("gnu"), dir_ / "gnu", Source("gnu"), 11, 12);
  CheckResume(Archive("pax"), dir_ / "pax", Source("pax"), 12, 12);
  CheckResume(Archive("nested"), dir_ / "nested", Source("nested"), 13, 25);
}

// A stop in every block (at its start, its second byte, its middle or its last byte, in turn)
// up to the end blocks: a resume point is never between an extension header (GNU long name,
// pax) and its member, nor inside a member.
TEST_F(TarExtractorTest, ResumeFromEveryStopKeepsLongNames) {
  for (const std::string name : {"long_gnu", "long_pax"}) {
    SCOPED_TRACE(name);
    const std::string archive = Archive(name);
    const auto expected = Tree(Source(name));
    const fs::path dest = dir_ / name;
    const size_t content_end = archive.find_last_not_of('\0') / kTarBlock * kTarBlock + kTarBlock;
    for (size_t block = 0; block * kTarBlock < content_end + kTarBlock; ++block) {
      const size_t stop = block * kTarBlock + std::vector<size_t>{0, 1, 300, 511}[block % 4];
      SCOPED_TRACE(stop);
      fs::remove_all(dest);
      uint64_t resume = 0;
      {
        TarExtractor extractor(dest.string(), TarOptions{});
        extractor.Feed(archive.data(), stop);
        resume = extractor.ResumeOffset();
      }
      TarExtractor extractor(dest.string(), TarOptions{}, resume);
      extractor.Feed(archive.data() + resume, archive.size() - resume);
      extractor.Finish();
      ASSERT_EQ(Tree(dest), expected);
    }
  }
}

TEST_F(TarExtractorTest, ResumeOffsetCountsANestedTarOnlyWhenWhole) {
  const std::string archive = Archive("nested");
  TarExtractor extractor((dir_ / "out").string(), TarOptions{});
  // Halfway is inside the second class tar, some of whose JPEGs are out already: the resume
  // point is still that class tar's header.
  const size_t half = archive.size() / 2;
  extractor.Feed(archive.data(), half);
  const uint64_t resume = extractor.ResumeOffset();
  ASSERT_GT(resume, 0u);
  ASSERT_LT(resume, half);
  EXPECT_EQ(std::string(archive.data() + resume), "n01440761.tar");  // its header's name field
  EXPECT_GT(extractor.Stats().members, 1u + 5u);  // LICENSE, the first class, and more
}

TEST_F(TarExtractorTest, RefusesPathsLeavingTheDestination) {
  for (const std::string name : {"../x", "/etc/x", "a/../../x", "ok/../../../x"}) {
    SCOPED_TRACE(name);
    const std::string archive = Member("fine.txt", "fine") + Member(name, "evil") + EndBlocks();
    const std::string error = FeedError(archive, dir_ / "out" / "in");
    EXPECT_NE(error.find("'" + name + "'"), std::string::npos) << error;
    EXPECT_NE(error.find("archive offset 1024"), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(dir_ / "out" / "x"));
    EXPECT_FALSE(fs::exists(dir_ / "x"));
  }
  EXPECT_EQ(SafeMemberPath("./a//b/./c/", "here"), "a/b/c");
  EXPECT_EQ(SafeMemberPath("./", "here"), "");
  EXPECT_EQ(SafeMemberPath("a..b/..c", "here"), "a..b/..c");
}

TEST_F(TarExtractorTest, RefusesUnsafePathsInsideNestedTars) {
  const std::string inner = Member("../../escape.jpg", "evil") + EndBlocks();
  const std::string archive = Member("n01.tar", inner) + EndBlocks();
  const std::string error = FeedError(archive, dir_ / "out");
  EXPECT_NE(error.find("'../../escape.jpg'"), std::string::npos) << error;
  EXPECT_NE(error.find("nested tar 'n01.tar'"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir_ / "escape.jpg"));
}

TEST_F(TarExtractorTest, BadChecksumNamesTheOffsetAndKeepsWholeMembers) {
  std::string archive = Member("one.txt", "1") + Member("two.txt", "2") + EndBlocks();
  archive[1024 + 3] ^= 0x20;
  TarExtractor extractor((dir_ / "out").string(), TarOptions{});
  try {
    extractor.Feed(archive.data(), archive.size());
    FAIL() << "no error";
  } catch (const RuntimeError& error) {
    EXPECT_NE(std::string(error.what()).find("archive offset 1024"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("Damaged tar archive"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(ReadAll(dir_ / "out" / "one.txt"), "1");
  EXPECT_EQ(extractor.ResumeOffset(), 1024u);
  EXPECT_THROW(extractor.Feed("x", 1), RuntimeError);  // no more bytes after an error
}

TEST_F(TarExtractorTest, AcceptsSignedChecksumsAndBase256Sizes) {
  const std::string data = RandomBytes(3, 700);
  const std::string archive = Header("caf\xc3\xa9.bin", 4, '0', false, true) + Padded("abcd") +
                              Header("big.bin", data.size(), '0', true) + Padded(data) +
                              EndBlocks();
  ExtractWhole(archive, dir_ / "out", TarOptions{});
  EXPECT_EQ(ReadAll(dir_ / "out" / "caf\xc3\xa9.bin"), "abcd");
  EXPECT_EQ(ReadAll(dir_ / "out" / "big.bin"), data);
}

TEST_F(TarExtractorTest, PaxPathAndSizeApplyAndGlobalHeadersAreIgnored) {
  const std::string long_path = std::string(120, 'p') + "/" + std::string(130, 'q') + ".bin";
  const std::string global = PaxRecord("comment", "made by git archive");
  const std::string local = PaxRecord("path", long_path) + PaxRecord("size", "5");
  const std::string archive = Header("pax_global_header", global.size(), 'g') + Padded(global) +
                              Header("PaxHeaders/x", local.size(), 'x') + Padded(local) +
                              Header("short", 0) + Padded("hello") + Member("after.txt", "after") +
                              EndBlocks();
  ExtractWhole(archive, dir_ / "out", TarOptions{});
  EXPECT_EQ(Tree(dir_ / "out"),
            (std::map<std::string, std::string>{
                {std::string(120, 'p'), "<dir>"}, {long_path, "hello"}, {"after.txt", "after"}}));
}

TEST_F(TarExtractorTest, TruncatedArchivesFailAtFinish) {
  const std::string data = RandomBytes(4, 3000);
  const std::string archive = Member("a.bin", "a") + Member("b.bin", data) + EndBlocks();
  const std::string inside_member = archive.substr(0, 1024 + 512 + 1000);
  const std::string error = FeedError(inside_member, dir_ / "m");
  EXPECT_NE(error.find("tar member 'b.bin' at archive offset 1024"), std::string::npos) << error;
  EXPECT_NE(error.find("1000 of its 3000 bytes read"), std::string::npos) << error;
  EXPECT_NE(error.find("from archive offset 1024"), std::string::npos) << error;
  EXPECT_TRUE(Partials(dir_ / "m").empty());

  const std::string inside_header = FeedError(archive.substr(0, 1024 + 100), dir_ / "h");
  EXPECT_NE(inside_header.find("tar header at archive offset 1024: Truncated"), std::string::npos)
      << inside_header;

  // Ending at a member boundary without the end blocks is accepted, as GNU tar does.
  ExtractWhole(archive.substr(0, 1024), dir_ / "boundary");
  EXPECT_EQ(ReadAll(dir_ / "boundary" / "a.bin"), "a");
  ExtractWhole(std::string(), dir_ / "empty");
}

TEST_F(TarExtractorTest, NestedTarsMayLackEndBlocksButNotData) {
  const std::string inner = Member("x.jpg", "x");  // no end blocks
  const std::string archive = Member("n01.tar", inner) + EndBlocks();
  ExtractWhole(archive, dir_ / "lenient");
  EXPECT_EQ(ReadAll(dir_ / "lenient" / "n01" / "x.jpg"), "x");

  const std::string cut = Member("n02.tar", Member("y.jpg", std::string(2000, 'y')).substr(0, 900));
  const std::string error = FeedError(cut + EndBlocks(), dir_ / "cut");
  EXPECT_NE(error.find("nested tar 'n02.tar'"), std::string::npos) << error;
}

// A lone zero block ends the archive, as GNU tar reads it (without --ignore-zeros).
TEST_F(TarExtractorTest, LoneZeroBlockEndsTheArchive) {
  const std::string archive = Member("a", "a") + std::string(kTarBlock, '\0') + Member("b", "b");
  ExtractWhole(archive, dir_ / "out");
  EXPECT_EQ(Tree(dir_ / "out"), (std::map<std::string, std::string>{{"a", "a"}}));
  // Whatever follows the two end blocks (a tar's record padding) is ignored.
  ExtractWhole(Member("a", "a") + EndBlocks() + "trailing junk", dir_ / "trailing");
  EXPECT_EQ(ReadAll(dir_ / "trailing" / "a"), "a");
}

TEST_F(TarExtractorTest, LinksDevicesAndFifosAreSkipped) {
  const TarStats stats = ExtractWhole(Archive("links"), dir_ / "out");
  EXPECT_EQ(Tree(dir_ / "out"),
            (std::map<std::string, std::string>{{"a.txt", "kept\n"}, {"b.txt", "kept\n"}}));
  EXPECT_EQ(stats.skipped, 3u);
  EXPECT_EQ(stats.members, 2u);
}

TEST_F(TarExtractorTest, OldStyleFoldersAndEmptyFiles) {
  const std::string archive = Header("old/", 0) + Member("old/empty", "") + Member("./f", "f") +
                              Header("dir5/", 0, '5') + EndBlocks();
  const TarStats stats = ExtractWhole(archive, dir_ / "out");
  EXPECT_EQ(Tree(dir_ / "out"),
            (std::map<std::string, std::string>{
                {"old", "<dir>"}, {"old/empty", ""}, {"f", "f"}, {"dir5", "<dir>"}}));
  EXPECT_EQ(stats.members, 2u);
}

// `data` as a gzip stream (zlib's deflate with the gzip wrapper, as gzip(1) writes).
std::string Gzip(const std::string& data) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A gzip'd tar extracts; its members cannot be reached mid-stream, so a stop resumes from 0.
TEST_F(TarExtractorTest, GzipTarsExtractAndResumeFromTheStart) {
  const std::string data = RandomBytes(9, 300000);
  const std::string archive =
      Gzip(Member("a.txt", "a") + Member("dir/b.bin", data) + Member("c.txt", "c") + EndBlocks());
  {
    TarExtractor extractor((dir_ / "stopped").string(), TarOptions{});
    extractor.Feed(archive.data(), archive.size() / 2);
    EXPECT_EQ(ReadAll(dir_ / "stopped" / "a.txt"), "a");
    EXPECT_EQ(extractor.ResumeOffset(), 0u);
  }
  EXPECT_TRUE(Partials(dir_ / "stopped").empty());
  const TarStats stats = ExtractWhole(archive, dir_ / "out");
  EXPECT_EQ(Tree(dir_ / "out"),
            (std::map<std::string, std::string>{
                {"a.txt", "a"}, {"dir", "<dir>"}, {"dir/b.bin", data}, {"c.txt", "c"}}));
  EXPECT_EQ(stats.members, 3u);
}

TEST_F(TarExtractorTest, RefusesAStartOffsetOffABlock) {
  EXPECT_THROW(TarExtractor((dir_ / "out").string(), TarOptions{}, 100), RuntimeError);
}

}  // namespace
}  // namespace trainbench::stage
