// Holding the answer of `sweep --find-max-accelerators`: the full-length runs repeated at N*
// and N*+1 (accelerator_search.h's HoldBoundary) as figures and words. Each side's AU spread
// (min/median/max over its runs) travels with the answer; where the repeats disagree (N*
// failed once, or N*+1 passed once), the answer says so, and why, from what limited each
// failing run (limit.h), instead of picking one. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/accelerator_search.h"
#include "sweep/probe.h"

namespace trainbench::sweep {

// MLPerf Storage asks 5 runs of a submission; holding an answer takes runs at two counts (N*
// passes, N*+1 fails), so 3 each is 6 full-length runs, more than a submission's 5, and the
// fewest where one odd run is outvoted and named (2 of 3) rather than a tie. --confirm 5
// gives MLPerf's own count per side; --confirm 1 only the search's own run.
inline constexpr int kDefaultConfirmRuns = 3;
inline constexpr int kMaxConfirmRuns = 10;  // 20 full-length runs: past that, run MLPerf's

struct AuSpread {
  uint64_t accelerators = 0;
  size_t runs = 0, passed = 0;
  double min = 0, median = 0, max = 0;  // AU %, over the full-length runs at that count
};

// The full-length runs at `n` among `probes` ({n, 0 runs} where there are none).
AuSpread SpreadAt(const std::vector<SweepProbe>& probes, uint64_t n);

// summary.json's and the final line's "confirmation": runs per side, stable, and each side's
// count, runs, passes and AU spread (null where the side has none).
nlohmann::ordered_json ConfirmationJson(const Confirmation& held,
                                        const std::vector<SweepProbe>& probes);

// The text's line: "held by 3 full-length runs at each side: 12 passed 3 of 3 (AU min/median/
// max 91.0/92.3/93.0%); 13 passed 0 of 3 (84.0/85.2/86.1%)"; "" when not held.
std::string SpreadLine(const Confirmation& held, const std::vector<SweepProbe>& probes);

// "" when the repeats agree; else "the answer is not stable: 12 passed 2 of 3 full-length
// runs, the failing one client-bound (2 cores, busy 97%; ...); 13 passed 0 of 3".
std::string Disagreement(const Confirmation& held, const std::vector<SweepProbe>& probes,
                         double computation_time_s, unsigned cores);

}  // namespace trainbench::sweep
