// The small string helpers of common/strings.h that messages and CSV files rely on.
#include "common/strings.h"

#include <gtest/gtest.h>

namespace trainbench {
namespace {

TEST(CountOf, SingularForOnePluralOtherwise) {
  EXPECT_EQ(CountOf(1, "object"), "1 object");
  EXPECT_EQ(CountOf(0, "object"), "0 objects");
  EXPECT_EQ(CountOf(7, "checkpoint object"), "7 checkpoint objects");
}

TEST(CsvField, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(CsvField("reader.read_threads"), "reader.read_threads");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField(""), "");
}

}  // namespace
}  // namespace trainbench
