// ops::MostInFlight: the original's concurrency that `oplog` prints and `replay` defaults to.
#include "ops/in_flight.h"

#include <gtest/gtest.h>

namespace trainbench::ops {
namespace {

TEST(MostInFlight, CountsTheMostIntervalsOverlappingAtOneInstant) {
  EXPECT_EQ(MostInFlight({}), 0u);
  EXPECT_EQ(MostInFlight({{0, 10}}), 1u);
  // Three overlap over [5, 6); the fourth starts after the first two ended.
  EXPECT_EQ(MostInFlight({{0, 6}, {2, 8}, {5, 20}, {9, 12}}), 3u);
  // A worker keeping 4 reads in flight, twice over.
  EXPECT_EQ(MostInFlight({{0, 4}, {0, 4}, {1, 5}, {1, 5}, {10, 14}, {10, 14}, {11, 15}, {11, 15}}),
            4u);
}

TEST(MostInFlight, BackToBackOperationsCountOnce) {
  // One thread's reads, each starting the instant the last ended.
  EXPECT_EQ(MostInFlight({{0, 5}, {5, 9}, {9, 12}}), 1u);
}

TEST(MostInFlight, AnEndBeforeItsStartCountsAsAnInstant) {
  // A clock step in the log: the interval is taken as [start, start).
  EXPECT_EQ(MostInFlight({{10, 3}, {0, 20}}), 1u);
}

}  // namespace
}  // namespace trainbench::ops
