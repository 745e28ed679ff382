// How many operations an op-log had in flight at once: `oplog`'s profile prints it, and
// `replay` starts that many workers by default (a training's loader keeps several reads in
// flight per worker thread, so its threads undercount it). Pure.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace trainbench::ops {

// The most of the [start, end) intervals (ns) that overlap at one instant. An end and a start
// at the same instant do not overlap: back-to-back operations of one thread count once.
uint64_t MostInFlight(const std::vector<std::pair<int64_t, int64_t>>& intervals);

}  // namespace trainbench::ops
