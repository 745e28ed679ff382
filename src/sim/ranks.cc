#include "sim/ranks.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "metrics/process_stats.h"
#include "metrics/run_record_json.h"
#include "sim/sampling.h"

namespace trainbench::sim {

RankLayout ExchangeRankLayout(dist::Communicator& ranks, uint64_t accelerators) {
  const nlohmann::json mine = {{"host", ranks.Host()},
                               {"accelerators", accelerators},
                               {"memory_bytes", metrics::HostMemoryBytes()},
                               {"cpu_count", metrics::HostCpuCount()},
                               {"seed", DrawRandomShuffleSeed()}};
  RankLayout layout;
  const auto all = ranks.AllGather(mine.dump());
  for (size_t r = 0; r < all.size(); ++r) {
    const auto j = nlohmann::json::parse(all[r]);
    RankInfo info{j.at("host").get<std::string>(), j.at("accelerators").get<uint64_t>(),
                  j.at("memory_bytes").get<uint64_t>(), j.at("cpu_count").get<uint64_t>()};
    if (r < static_cast<size_t>(ranks.Rank())) layout.first_accelerator += info.accelerators;
    layout.total_accelerators += info.accelerators;
    if (r == 0) layout.random_shuffle_seed = j.at("seed").get<uint64_t>();
    layout.ranks.push_back(std::move(info));
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

std::vector<metrics::RunRecord> GatherRecords(dist::Communicator& ranks,
                                              const metrics::RunRecord& mine) {
  const auto texts = ranks.Gather(nlohmann::json(mine).dump());
  std::vector<metrics::RunRecord> records;
  for (const auto& text : texts)
    records.push_back(nlohmann::json::parse(text).get<metrics::RunRecord>());
  return records;
}

}  // namespace trainbench::sim
