// MLPerf Storage's checks of a run's setup, as its rules and DLIO's summary.json state them:
// the dataset at least 5x the hosts' memory (the rule `datasize` applies; DLIO's
// potential_caching per host), the results on another file system than the data, and the
// same accelerators on every host; with DLIO's host_memory_GB[], host_cpu_count[] and
// data_size_per_host_GB. DLIO computes those "GB" in units of 2^30 bytes: the values are
// GiB, under DLIO's names so MLPerf's tools read them, and labelled so in `rules.units`.
// Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::report {

struct RulesHost {
  std::string host;
  uint64_t memory_bytes = 0;
  uint64_t cpu_count = 0;
  uint64_t accelerators = 0;  // its ranks' emulated accelerators (checkpointing: its ranks)
};

struct RulesInput {
  std::vector<RulesHost> hosts;           // in the order of their first rank
  std::optional<uint64_t> dataset_bytes;  // the train files; none in a checkpointing run
  bool data_is_local = true;              // the data is on a file system (a page cache)
  std::string data_what = "the data";     // what the results are compared with, for messages
  // Whether the results folder is on the data's file system (st_dev); S3 data: false;
  // none when it could not be told.
  std::optional<bool> results_on_data_file_system;
};

struct RulesReport {
  nlohmann::json summary;             // top-level fields to add to summary.json
  std::vector<std::string> warnings;  // a failed check, one line each
  std::string table;                  // console lines
};

RulesReport CheckRules(const RulesInput& input);

// MLPerf Storage's rule for data the page cache could serve: less than 5x the hosts' memory.
bool PageCacheCanHold(double data_bytes, double hosts_memory_bytes);
// "WHAT (X) is smaller than 5x the memory of the N host(s) (Y)", the start of the warning
// a run gives of its dataset and a sai3-bench workload of the objects its GETs re-read.
std::string SmallerThanMemory(const std::string& what, double data_bytes, size_t hosts,
                              double hosts_memory_bytes);
// What that means where the data is on a file system: said the same way by every job.
inline constexpr const char* kPageCacheNote =
    "the page cache can serve it, so this measures memory, not storage";

}  // namespace trainbench::report
