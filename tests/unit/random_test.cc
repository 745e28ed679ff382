#include "common/random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

namespace trainbench {
namespace {

TEST(RandomTest, SameSeedSameSequence) {
  Random a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    EXPECT_NE(x, c.Next());
  }
}

TEST(RandomTest, BelowStaysInRangeAndCoversIt) {
  Random r(1);
  std::set<uint64_t> seen;
  for (int i = 0; i < 10000; ++i) {
    const uint64_t v = r.Below(10);
    ASSERT_LT(v, 10u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 10u);
}

TEST(RandomTest, NormalHasUnitMoments) {
  Random r(7);
  double sum = 0, sum_sq = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double x = r.Normal();
    sum += x;
    sum_sq += x * x;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(std::sqrt(sum_sq / n), 1.0, 0.01);
}

// Bytes depend only on (seed, position): any split of the stream gives the same bytes.
TEST(FillRandomTest, PositionAddressable) {
  std::vector<unsigned char> whole(20000), pieces(20000);
  FillRandom(5, 100, whole.data(), whole.size());
  size_t done = 0;
  for (size_t n : {1, 7, 4096, 3, 5000, 10000}) {
    n = std::min(n, pieces.size() - done);
    FillRandom(5, 100 + done, pieces.data() + done, n);
    done += n;
  }
  FillRandom(5, 100 + done, pieces.data() + done, pieces.size() - done);
  EXPECT_EQ(whole, pieces);
}

TEST(FillRandomTest, LooksRandom) {
  std::vector<unsigned char> a(1 << 16), b(1 << 16);
  FillRandom(1, 0, a.data(), a.size());
  FillRandom(2, 0, b.data(), b.size());
  EXPECT_NE(a, b);
  // Byte histogram close to uniform; consecutive 4 KiB blocks differ.
  std::vector<int> counts(256);
  for (unsigned char c : a) ++counts[c];
  for (int c : counts) EXPECT_NEAR(c, 256, 80);
  EXPECT_NE(std::vector<unsigned char>(a.begin(), a.begin() + 4096),
            std::vector<unsigned char>(a.begin() + 4096, a.begin() + 8192));
}

}  // namespace
}  // namespace trainbench
