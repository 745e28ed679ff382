// The search of `trainbench sweep --find-max-accelerators`: the largest accelerator count
// whose AU stays at or above the workload's target. Counts grow geometrically (x2) from the
// lower bound until a probe fails, then the last pass and the first failure are bisected;
// short probes find N*, and full-length runs at N* (must pass) and N*+1 (must fail) confirm
// it, stepping down or up (full-length each) while they disagree. A probe whose AU is no
// verdict (too few steps for the count: the dataset is too small) ends the growth there.
// HoldBoundary then repeats the full-length runs at N* and N*+1 until each side has k, and
// says whether they agree (it never picks a side: a disagreement is the answer's to say).
// Pure: the runs are the caller's. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::sweep {

struct ProbeVerdict {
  bool passed = false;
  bool meaningful = true;  // false: the AU is no verdict at this count
  bool stopped = false;    // the run was interrupted or failed: the search ends
};

struct SearchStep {
  uint64_t accelerators = 0;
  bool full = false;  // a confirming full-length run, not a short probe
  ProbeVerdict verdict;
  int repeat = 0;  // a full-length run's index at its count: 0 the search's, 1.. HoldBoundary's
};

struct SearchResult {
  uint64_t answer = 0;  // the largest count that passed (confirmed); 0: none passed
  std::optional<uint64_t> first_failure;  // the smallest count that failed AU (confirmed)
  // The count above the answer where the AU was no verdict (too few steps: the dataset is too
  // small for it), in place of a first failure: no verdict is not a failure.
  std::optional<uint64_t> no_verdict;
  bool confirmed = false;           // full-length runs agree with the answer
  bool limited_by_dataset = false;  // growth stopped where the AU was no verdict
  bool limited_by_range = false;    // every count up to `highest` passed
  bool stopped = false;
  std::string stop_reason;
  std::vector<SearchStep> steps;  // in the order run
};

// `probe(n, full)` runs `n` accelerators, short (full false) or full-length.
SearchResult FindMaxAccelerators(uint64_t lowest, uint64_t highest,
                                 const std::function<ProbeVerdict(uint64_t, bool)>& probe);

// One side of the boundary held by repeated full-length runs.
struct SideRuns {
  uint64_t accelerators = 0;
  size_t runs = 0;    // full-length runs at this count, the search's included
  size_t passed = 0;  // of them, those whose AU was a verdict at or above the target
};

// What the repeats said. `runs_per_side` 0: not held (the search stopped or never settled).
struct Confirmation {
  int runs_per_side = 0;
  std::optional<SideRuns> answer;   // N*, where one passed
  std::optional<SideRuns> failure;  // N*+1, where it failed AU (not where it had no verdict)
  // Every run at N* passed and every run at N*+1 failed.
  bool Stable() const {
    return (!answer || answer->passed == answer->runs) && (!failure || failure->passed == 0);
  }
};

// Runs `repeat(n, i)` (full-length, i = 1 .. runs - 1; run 0 is the search's own) at N* and
// N*+1 of a settled `search`, appending them to its steps; a run that stops ends it as the
// search's own would (search.stopped).
Confirmation HoldBoundary(SearchResult& search, int runs,
                          const std::function<ProbeVerdict(uint64_t, int)>& repeat);

}  // namespace trainbench::sweep
