#include "sim/ranks.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/json_fields.h"
#include "dist/typed_gather.h"
#include "metrics/process_stats.h"
#include "sim/sampling.h"

namespace trainbench::sim {

namespace {

// What each rank tells the others before a run: where it is, what it runs, and its draw of
// the shuffle seed (rank 0's is everyone's).
struct RankHello {
  std::string host;
  uint64_t accelerators = 0;
  uint64_t memory_bytes = 0;
  uint64_t cpu_count = 0;
  uint64_t seed = 0;
};
TB_JSON_FIELDS(RankHello, host, accelerators, memory_bytes, cpu_count, seed)

}  // namespace

RankLayout ExchangeRankLayout(dist::Communicator& ranks, uint64_t accelerators) {
  const RankHello mine{ranks.Host(), accelerators, metrics::HostMemoryBytes(),
                       metrics::HostCpuCount(), DrawRandomShuffleSeed()};
  RankLayout layout;
  const auto all = dist::AllGatherAs(ranks, mine);
  for (size_t r = 0; r < all.size(); ++r) {
    const RankHello& hello = all[r];
    if (r < static_cast<size_t>(ranks.Rank())) layout.first_accelerator += hello.accelerators;
    layout.total_accelerators += hello.accelerators;
    if (r == 0) layout.random_shuffle_seed = hello.seed;
    layout.ranks.push_back({hello.host, hello.accelerators, hello.memory_bytes, hello.cpu_count});
  }
  return layout;
}

std::vector<std::string> Hosts(const RankLayout& layout) {
  std::vector<std::string> hosts;
  for (const auto& rank : layout.ranks)
    if (std::find(hosts.begin(), hosts.end(), rank.host) == hosts.end()) hosts.push_back(rank.host);
  return hosts;
}

std::vector<size_t> RanksOnHost(const RankLayout& layout, const std::string& host) {
  std::vector<size_t> on_host;
  for (size_t r = 0; r < layout.ranks.size(); ++r)
    if (layout.ranks[r].host == host) on_host.push_back(r);
  return on_host;
}

}  // namespace trainbench::sim
