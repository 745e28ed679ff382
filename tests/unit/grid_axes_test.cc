// Which of a sweep's overrides are its grid's axes (app::TakeGridAxes).
#include <gtest/gtest.h>

#include "app/sweep/grid_sweep_job.h"
#include "common/error.h"

namespace trainbench::app {
namespace {

TEST(GridAxes, ListsAreAxesAndTheRestStaysFixed) {
  std::vector<std::string> overrides = {"reader.read_threads=1,2,4",
                                        "train.epochs=2",
                                        "++workload.reader.batch_size=8,16",
                                        "workload.dataset.num_files_train=4,8",
                                        "storage.storage_options={a: 1, b: 2}",
                                        "reader.transfer_size=[1,2]",
                                        "no_equals_sign,here"};
  const auto axes = TakeGridAxes(overrides);
  ASSERT_EQ(axes.size(), 3u);
  EXPECT_EQ(axes[0].key, "reader.read_threads");
  EXPECT_EQ(axes[0].values, (std::vector<std::string>{"1", "2", "4"}));
  EXPECT_EQ(axes[1].key, "reader.batch_size");
  EXPECT_EQ(axes[1].values, (std::vector<std::string>{"8", "16"}));
  EXPECT_EQ(axes[2].key, "dataset.num_files_train");
  EXPECT_EQ(overrides,
            (std::vector<std::string>{"train.epochs=2", "storage.storage_options={a: 1, b: 2}",
                                      "reader.transfer_size=[1,2]", "no_equals_sign,here"}));
}

TEST(GridAxes, AKeySweptAndGivenPlainlyIsRefused) {
  // The plain value silently won on every point of the grid.
  std::vector<std::string> overrides = {"train.epochs=1,2", "++workload.train.epochs=3"};
  try {
    TakeGridAxes(overrides);
    FAIL() << "taken";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "train.epochs is swept (1,2) and also given as ++workload.train.epochs=3"),
              std::string::npos)
        << e.what();
  }
}

TEST(GridAxes, NoListNoAxis) {
  std::vector<std::string> overrides = {"train.epochs=2"};
  EXPECT_TRUE(TakeGridAxes(overrides).empty());
  EXPECT_EQ(overrides.size(), 1u);
}

}  // namespace
}  // namespace trainbench::app
