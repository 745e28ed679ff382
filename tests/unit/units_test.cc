// ParseByteSize, the one parser of byte counts written by people: sai3-bench's sizes (a bare
// k is 10^3) and stage's --chunk-size (a bare M is MiB) differ only in what a bare unit means.
#include "common/units.h"

#include <gtest/gtest.h>

namespace trainbench {
namespace {

TEST(ParseByteSizeTest, UnitsAndSeparators) {
  EXPECT_EQ(ParseByteSize("1048576", BareUnit::kDecimal), 1048576u);
  EXPECT_EQ(ParseByteSize("32KB", BareUnit::kDecimal), 32000u);
  EXPECT_EQ(ParseByteSize("1MiB", BareUnit::kDecimal), 1048576u);
  EXPECT_EQ(ParseByteSize("1 mi", BareUnit::kDecimal), 1048576u);
  EXPECT_EQ(ParseByteSize("1.5 GB", BareUnit::kDecimal), 1500000000u);
  EXPECT_EQ(ParseByteSize("1_000_000", BareUnit::kDecimal), 1000000u);
  EXPECT_EQ(ParseByteSize("2t", BareUnit::kDecimal), 2000000000000u);
  EXPECT_EQ(ParseByteSize("0", BareUnit::kDecimal), 0u);
}

TEST(ParseByteSizeTest, ABareUnitIsDecimalOrBinaryAsAsked) {
  EXPECT_EQ(ParseByteSize("8k", BareUnit::kDecimal), 8000u);
  EXPECT_EQ(ParseByteSize("8k", BareUnit::kBinary), 8192u);
  EXPECT_EQ(ParseByteSize("8M", BareUnit::kBinary), 8u << 20);
  EXPECT_EQ(ParseByteSize("8MB", BareUnit::kBinary), 8000000u);  // MB stays decimal
  EXPECT_EQ(ParseByteSize("512KiB", BareUnit::kBinary), 512u << 10);
}

TEST(ParseByteSizeTest, RefusesWhatIsNoSize) {
  for (const char* text : {"", "MiB", "-1", "1x", "1 MiBs", "1.2.3", "2e20", "1e3"})
    EXPECT_FALSE(ParseByteSize(text, BareUnit::kDecimal).has_value()) << text;
  EXPECT_FALSE(ParseByteSize("2000000 TB", BareUnit::kDecimal).has_value());  // past 10^18
}

}  // namespace
}  // namespace trainbench
