// datagen's progress line counts bytes while a file is still being written (a live source),
// not only when it is whole: the "0 B ... ETA 0.0 s" until the first file is done.
#include "dataset/progress.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace trainbench::dataset {
namespace {

TEST(ProgressTest, ShowsBytesWrittenBeforeAnyFileIsWhole) {
  std::atomic<uint64_t> appended{0};
  testing::internal::CaptureStderr();
  {
    Progress progress(
        "datagen", 1, 1000000000, [&] { return appended.load(); }, std::chrono::milliseconds(20));
    appended = 250000000;  // a quarter of the one file, which is not finished
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("0/1 files, 250.00 MB of ~1.00 GB"), std::string::npos) << printed;
}

}  // namespace
}  // namespace trainbench::dataset
