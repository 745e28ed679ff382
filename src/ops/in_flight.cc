#include "ops/in_flight.h"

#include <algorithm>

namespace trainbench::ops {

uint64_t MostInFlight(const std::vector<std::pair<int64_t, int64_t>>& intervals) {
  std::vector<std::pair<int64_t, int>> edges;
  edges.reserve(2 * intervals.size());
  for (const auto& [start, end] : intervals) {
    edges.push_back({start, 1});
    edges.push_back({std::max(start, end), -1});
  }
  // (t, -1) sorts before (t, +1): ends before starts at the same instant.
  std::sort(edges.begin(), edges.end());
  int64_t in_flight = 0, most = 0;
  for (const auto& [t, d] : edges) most = std::max(most, in_flight += d);
  return static_cast<uint64_t>(most);
}

}  // namespace trainbench::ops
