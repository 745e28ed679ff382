#include "report/ranks_report.h"

#include <map>

#include "metrics/run_record_merge.h"
#include "report/summary.h"

namespace trainbench::report {
namespace {

std::string HostOf(const metrics::RunRecord& r) { return r.hosts.empty() ? "" : r.hosts.front(); }

}  // namespace

nlohmann::json HostRows(const std::vector<metrics::RunRecord>& records,
                        const std::vector<uint64_t>& accelerators) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> by_host;
  for (size_t r = 0; r < records.size(); ++r) {
    const std::string host = HostOf(records[r]);
    if (!by_host.count(host)) order.push_back(host);
    by_host[host].push_back(r);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& host : order) {
    std::vector<metrics::RunRecord> mine;
    uint64_t host_accelerators = 0;
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t r : by_host[host]) {
      mine.push_back(records[r]);
      host_accelerators += accelerators.at(r);
      ranks.push_back(r);
    }
    nlohmann::json row = {{"host", host}, {"ranks", ranks}, {"accelerators", host_accelerators}};
    row.update(Headline(metrics::MergeRanks(mine)));
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json RankRows(const std::vector<metrics::RunRecord>& records,
                        const std::vector<uint64_t>& accelerators) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t r = 0; r < records.size(); ++r) {
    nlohmann::json row = {
        {"rank", r}, {"host", HostOf(records[r])}, {"accelerators", accelerators.at(r)}};
    row.update(Headline(records[r]));
    row["stop_reason"] = records[r].stop_reason;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace trainbench::report
