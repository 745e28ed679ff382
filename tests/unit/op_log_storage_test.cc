// OpLogStorage over MemoryStorage: Create..Commit is one PUT of the bytes written, each ReadAt a
// GET, FileSize a HEAD, List a LIST of its entries, Remove a DELETE; a failing call is a line
// with its error (and still throws), an abandoned writer a PUT marked so, and a read engine's
// reads are logged once, by the engine's wrapper.
#include "storage/op_log_storage.h"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "storage/memory_storage.h"

namespace trainbench::storage {
namespace {

using Line = std::vector<std::string>;  // the columns of kOpLogHeader

std::vector<Line> ReadLog(const std::string& path) {
  std::ifstream in(path);
  std::vector<Line> lines;
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, metrics::kOpLogHeader);
  while (std::getline(in, text)) {
    Line columns;
    std::istringstream fields(text);
    std::string field;
    while (std::getline(fields, field, '\t')) columns.push_back(field);
    lines.push_back(columns);
  }
  return lines;
}

// idx thread op client_id n_objects bytes endpoint file error start first_byte end duration_ns
enum Column { kIdx, kThread, kOp, kClient, kObjects, kBytes, kEndpoint, kFile, kError };

// A log of its own per test: ctest -j runs the tests side by side.
struct Logged {
  std::string path = testing::TempDir() + "/op_log_storage_" +
                     testing::UnitTest::GetInstance()->current_test_info()->name() + ".tsv";
  std::shared_ptr<metrics::OpLog> log =
      std::make_shared<metrics::OpLog>(path, "host:0", "dataset-endpoint");
  MemoryStorage memory;
};

void Put(Storage& storage, const std::string& path, const std::string& bytes) {
  auto writer = storage.Create(path);
  writer->Append(bytes.data(), bytes.size());
  writer->Commit();
}

TEST(OpLogStorage, OneLinePerOperation) {
  Logged t;
  {
    OpLogStorage logged(t.memory, t.log);
    Put(logged, "train/a.npz", "0123456789");
    std::array<char, 4> buffer{};
    EXPECT_EQ(logged.Open("train/a.npz", {})->ReadAt(2, buffer.data(), buffer.size()), 4u);
    EXPECT_EQ(logged.FileSize("train/a.npz"), 10u);
    EXPECT_EQ(logged.FileSize("train/missing.npz"), std::nullopt);
    EXPECT_EQ(logged.List("train").size(), 1u);
    logged.Remove("train/a.npz");
    logged.Flush();
  }
  t.log->Close();
  const auto lines = ReadLog(t.path);
  ASSERT_EQ(lines.size(), 6u);
  const std::vector<std::array<std::string, 4>> want = {
      // op, n_objects, bytes, file
      {"PUT", "1", "10", "mem:/train/a.npz"},
      {"GET", "1", "4", "mem:/train/a.npz"},
      // A HEAD's bytes are the object's size (as sai3-bench logs a STAT); a miss is 0 objects.
      {"HEAD", "1", "10", "mem:/train/a.npz"},
      {"HEAD", "0", "0", "mem:/train/missing.npz"},
      {"LIST", "1", "0", "mem:/train"},
      {"DELETE", "1", "0", "mem:/train/a.npz"}};
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    ASSERT_EQ(l.size(), 13u) << i;
    EXPECT_EQ(l[kIdx], std::to_string(i));
    EXPECT_EQ(l[kThread], "0");
    EXPECT_EQ(l[kOp], want[i][0]);
    EXPECT_EQ(l[kClient], "host:0");
    EXPECT_EQ(l[kObjects], want[i][1]) << l[kOp];
    EXPECT_EQ(l[kBytes], want[i][2]) << l[kOp];
    // The storage's own endpoint, not the log's (a run's checkpoints beside its dataset).
    EXPECT_EQ(l[kEndpoint], "mem:/");
    EXPECT_EQ(l[kFile], want[i][3]);
    EXPECT_EQ(l[kError], "") << l[kOp];
    EXPECT_GE(std::stoll(l.back()), 0);
  }
}

TEST(OpLogStorage, ErrorsAreLoggedAndRethrown) {
  Logged t;
  {
    OpLogStorage logged(t.memory, t.log);
    EXPECT_THROW(logged.Open("nowhere.pt", {}), IoError);
    {
      auto writer = logged.Create("half.pt");
      writer->Append("abc", 3);
    }  // destroyed uncommitted
    EXPECT_FALSE(t.memory.FileSize("half.pt"));
  }  // the destructor flushes
  t.log->Close();
  const auto lines = ReadLog(t.path);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0][kOp], "GET");
  EXPECT_EQ(lines[0][kFile], "mem:/nowhere.pt");
  EXPECT_NE(lines[0][kError].find("nowhere.pt"), std::string::npos) << lines[0][kError];
  EXPECT_EQ(lines[1][kOp], "PUT");
  EXPECT_EQ(lines[1][kBytes], "3");
  EXPECT_EQ(lines[1][kError], "abandoned");
}

TEST(OpLogStorage, EngineReadsAreLoggedOnce) {
  Logged t;
  {
    OpLogStorage logged(t.memory, t.log);
    t.memory.Publish("train/b.npz",
                     std::make_shared<const MemoryStorage::Bytes>(MemoryStorage::Bytes(64, 7)));
    auto engine = logged.OpenReadEngine(storage::ShareNames({"train/b.npz"}), {"memory", false});
    auto queue = engine->NewQueue(2);
    std::array<unsigned char, 16> buffer{};
    queue->Submit({0, 8, buffer.size(), buffer.data(), 1, 0});
    std::array<ReadCompletion, 2> done;
    ASSERT_EQ(queue->Reap(done, 1, 1.0), 1u);
    EXPECT_EQ(done[0].bytes, 16u);
  }  // the queue's buffer flushes as it goes
  t.log->Close();
  const auto lines = ReadLog(t.path);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0][kOp], "GET");
  EXPECT_EQ(lines[0][kBytes], "16");
}

}  // namespace
}  // namespace trainbench::storage
