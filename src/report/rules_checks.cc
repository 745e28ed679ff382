#include "report/rules_checks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "common/json_fields.h"
#include "common/units.h"

namespace trainbench::report {
namespace {

double Gib(double bytes) { return bytes / kGiB; }

// summary.json's fields of the rules (nlohmann::json: its keys sorted, as they always were).
struct DatasetRule {
  bool passed = false;
  uint64_t dataset_bytes = 0, hosts_memory_bytes = 0, required_bytes = 0;
};
TB_JSON_FIELDS(DatasetRule, passed, dataset_bytes, hosts_memory_bytes, required_bytes)

struct FileSystemRule {
  Nullable<bool> passed;  // null: not told
};
TB_JSON_FIELDS(FileSystemRule, passed)

struct AcceleratorsRule {
  bool passed = false;
  std::vector<uint64_t> accelerators_per_host;
};
TB_JSON_FIELDS(AcceleratorsRule, passed, accelerators_per_host)

struct Rules {
  std::string units =
      "host_memory_GB and data_size_per_host_GB are GiB (2^30 bytes), as DLIO computes them "
      "under these names";
  std::vector<std::string> hosts;
  std::optional<DatasetRule> dataset_5x_memory;  // where the run reads a dataset
  FileSystemRule results_on_other_file_system;
  AcceleratorsRule same_accelerators_per_host;
};
TB_JSON_FIELDS(Rules, units, hosts, dataset_5x_memory, results_on_other_file_system,
               same_accelerators_per_host)

struct RulesFields {
  std::vector<double> host_memory_GB;
  std::vector<uint64_t> host_cpu_count;
  std::optional<double> data_size_per_host_GB;  // where the run reads a dataset
  std::optional<std::vector<int>> potential_caching;
  Rules rules;
};
TB_JSON_FIELDS(RulesFields, host_memory_GB, host_cpu_count, data_size_per_host_GB,
               potential_caching, rules)

}  // namespace

bool PageCacheCanHold(double data_bytes, double hosts_memory_bytes) {
  return data_bytes < 5.0 * hosts_memory_bytes;
}

std::string SmallerThanMemory(const std::string& what, double data_bytes, size_t hosts,
                              double hosts_memory_bytes) {
  return fmt::format("{} ({}) is smaller than 5x the memory of the {} host(s) ({})", what,
                     FormatBytesBinary(data_bytes), hosts, FormatBytesBinary(hosts_memory_bytes));
}

RulesReport CheckRules(const RulesInput& in) {
  RulesReport out;
  RulesFields s;
  Rules& rules = s.rules;
  std::vector<uint64_t>& accelerators = rules.same_accelerators_per_host.accelerators_per_host;
  std::vector<std::string>& names = rules.hosts;
  double total_memory = 0;
  uint64_t total_accelerators = 0;
  for (const auto& h : in.hosts) {
    names.push_back(h.host);
    s.host_memory_GB.push_back(Gib(static_cast<double>(h.memory_bytes)));
    s.host_cpu_count.push_back(h.cpu_count);
    accelerators.push_back(h.accelerators);
    total_memory += static_cast<double>(h.memory_bytes);
    total_accelerators += h.accelerators;
  }

  if (in.dataset_bytes) {
    // Each host reads its accelerators' share (DLIO: ranks per node x the data per rank).
    const auto data = static_cast<double>(*in.dataset_bytes);
    double per_host_max = 0;
    std::vector<std::string> cached;
    std::vector<int>& caching = s.potential_caching.emplace();
    for (const auto& h : in.hosts) {
      const double share = total_accelerators ? data * static_cast<double>(h.accelerators) /
                                                    static_cast<double>(total_accelerators)
                                              : data / static_cast<double>(in.hosts.size());
      per_host_max = std::max(per_host_max, share);
      // DLIO's potential_caching: 1 when the host's memory exceeds what it reads.
      const bool fits = static_cast<double>(h.memory_bytes) > share;
      caching.push_back(fits ? 1 : 0);
      if (fits) cached.push_back(h.host);
    }
    s.data_size_per_host_GB = Gib(per_host_max);
    const double required = 5.0 * total_memory;
    const bool passed = !PageCacheCanHold(data, total_memory);
    rules.dataset_5x_memory =
        DatasetRule{passed, *in.dataset_bytes, static_cast<uint64_t>(total_memory),
                    static_cast<uint64_t>(required)};
    out.table += fmt::format("rules: dataset {} against 5 x the hosts' memory ({} x 5 = {}): {}\n",
                             FormatBytesBinary(data), FormatBytesBinary(total_memory),
                             FormatBytesBinary(required), passed ? "ok" : "TOO SMALL");
    if (!passed)
      out.warnings.push_back(
          SmallerThanMemory("the dataset", data, in.hosts.size(), total_memory) +
          ": MLPerf Storage's rule (trainbench datasize)" +
          (in.data_is_local ? std::string("; ") + kPageCacheNote : std::string()));
    if (!cached.empty())
      out.table += fmt::format("rules: potential caching (a host's memory holds its share) on {}\n",
                               fmt::join(cached, ", "));
  }

  if (in.results_on_data_file_system)
    rules.results_on_other_file_system.passed = !*in.results_on_data_file_system;
  if (!in.results_on_data_file_system) {
    out.table +=
        fmt::format("rules: results on another file system than {}: unknown\n", in.data_what);
  } else {
    const bool same = *in.results_on_data_file_system;
    out.table += fmt::format("rules: results on another file system than {}: {}\n", in.data_what,
                             same ? "NO (same file system)" : "ok");
    if (same)
      out.warnings.push_back(fmt::format(
          "the results folder is on the same file system as {}: MLPerf Storage wants results "
          "written elsewhere, so they do not mix with the I/O measured (set output.folder)",
          in.data_what));
  }

  bool same_accelerators = true;
  for (const auto& h : in.hosts)
    same_accelerators = same_accelerators && h.accelerators == in.hosts.front().accelerators;
  rules.same_accelerators_per_host.passed = same_accelerators;
  out.table += fmt::format("rules: the same accelerators on every host ({}): {}\n",
                           fmt::join(accelerators, ", "), same_accelerators ? "ok" : "NO");
  if (!same_accelerators)
    out.warnings.push_back(fmt::format(
        "the hosts run different numbers of accelerators ({} on {}): MLPerf Storage wants the "
        "same on every host",
        fmt::join(accelerators, ", "), fmt::join(names, ", ")));

  for (const auto& h : in.hosts)
    out.table += fmt::format("host {}: {:.2f} GiB memory, {} CPUs, {} accelerator(s)\n", h.host,
                             Gib(static_cast<double>(h.memory_bytes)), h.cpu_count, h.accelerators);
  out.summary = s;
  return out;
}

}  // namespace trainbench::report
