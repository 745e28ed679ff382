// The answer of `sweep --find-max-accelerators` in words: one sentence from what limited it
// (limit.h: "this storage feeds N" only where the storage was the limit) and whether its
// repeats agreed (confirm.h), and the console text around it. Pure; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config/workload.h"
#include "sweep/accelerator_search.h"
#include "sweep/limit.h"
#include "sweep/probe.h"

namespace trainbench::sweep {

struct SweepAnswer {
  std::string sentence;
  std::optional<LimitFinding> limit;  // none: stopped, or nothing to judge
};

// `cores`: the host's CPU cores (std::thread::hardware_concurrency() for this one), against
// which the probes' CPU shares tell a client-bound sweep from a storage-bound one.
SweepAnswer AnswerOf(const SearchResult& search, const Confirmation& held,
                     const std::vector<SweepProbe>& probes, const config::WorkloadConfig& config,
                     unsigned cores);

// The probes' table, the repeats' spread, the sentence, and the official tools' commands that
// would confirm `answer` (figures["official"], where there is one).
std::string SweepText(const std::vector<SweepProbe>& probes, const Confirmation& held,
                      const std::string& sentence, const nlohmann::ordered_json& figures,
                      uint64_t answer);

}  // namespace trainbench::sweep
