#include "sweep/accelerator_search.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace trainbench::sweep {
namespace {

constexpr int kMaxConfirmMoves = 16;  // full-length runs stepping N* down or up

class Search {
 public:
  Search(const std::function<ProbeVerdict(uint64_t, bool)>& probe, SearchResult& out)
      : probe_(probe), out_(out) {}

  // Runs (or recalls) a probe; false when the search must end.
  bool Run(uint64_t n, bool full, ProbeVerdict& v) {
    auto& seen = full ? full_ : short_;
    if (const auto it = seen.find(n); it != seen.end()) {
      v = it->second;
      return true;
    }
    v = probe_(n, full);
    out_.steps.push_back({n, full, v});
    seen[n] = v;
    if (v.stopped) {
      out_.stopped = true;
      out_.stop_reason = "a run at " + std::to_string(n) + " accelerator(s) did not finish";
      return false;
    }
    return true;
  }

  // The verdict at `n`, the full-length run's where there was one.
  std::optional<ProbeVerdict> Verdict(uint64_t n) const {
    if (const auto it = full_.find(n); it != full_.end()) return it->second;
    if (const auto it = short_.find(n); it != short_.end()) return it->second;
    return std::nullopt;
  }

 private:
  const std::function<ProbeVerdict(uint64_t, bool)>& probe_;
  SearchResult& out_;
  std::map<uint64_t, ProbeVerdict> short_, full_;
};

}  // namespace

SearchResult FindMaxAccelerators(uint64_t lowest, uint64_t highest,
                                 const std::function<ProbeVerdict(uint64_t, bool)>& probe) {
  SearchResult out;
  Search search(probe, out);
  ProbeVerdict v;
  lowest = std::max<uint64_t>(1, lowest);
  highest = std::max(highest, lowest);
  // Grow: the last count that passed, the first that failed.
  uint64_t pass = 0, fail = 0, n = lowest;
  while (true) {
    if (!search.Run(n, false, v)) return out;
    if (!v.meaningful) {
      out.limited_by_dataset = true;
      fail = n;  // no verdict is no pass: bisect below it
      break;
    }
    if (!v.passed) {
      fail = n;
      break;
    }
    pass = n;
    if (n == highest) {
      out.limited_by_range = true;
      break;
    }
    n = std::min(highest, n * 2);
  }
  // Bisect between them (short probes), never below the lowest count: under mpirun a count
  // below --min leaves a rank without an accelerator, and the user asked for no answer there.
  const uint64_t floor = lowest - 1;
  while (fail != 0 && fail - std::max(pass, floor) > 1) {
    const uint64_t below = std::max(pass, floor);
    const uint64_t mid = below + (fail - below) / 2;
    if (!search.Run(mid, false, v)) return out;
    if (v.passed && v.meaningful)
      pass = mid;
    else
      fail = mid;
  }
  // Confirm full-length: N* passes and N*+1 fails, stepping while they disagree.
  for (int moves = 0; moves < kMaxConfirmMoves; ++moves) {
    bool pass_ok = true, fail_ok = true;
    if (pass > 0) {
      if (!search.Run(pass, true, v)) return out;
      pass_ok = v.passed && v.meaningful;
    }
    if (!pass_ok) {  // N* does not hold over a full run: one fewer (none below the lowest)
      fail = pass;
      pass = pass - 1 > floor ? pass - 1 : 0;
      continue;
    }
    if (fail != 0 && !out.limited_by_dataset) {
      const uint64_t next = std::max(pass + 1, lowest);
      if (!search.Run(next, true, v)) return out;
      fail_ok = !(v.passed && v.meaningful);
      if (!fail_ok) {  // N*+1 holds over a full run: one more
        pass = next;
        fail = pass + 1;
        continue;
      }
      fail = next;
    }
    out.confirmed = true;
    break;
  }
  out.answer = pass;
  if (fail != 0) {
    const auto at_fail = search.Verdict(fail);
    if (at_fail && !at_fail->meaningful)
      out.no_verdict = fail;
    else
      out.first_failure = fail;
  }
  return out;
}

Confirmation HoldBoundary(SearchResult& search, int runs,
                          const std::function<ProbeVerdict(uint64_t, int)>& repeat) {
  Confirmation held;
  if (search.stopped || !search.confirmed || runs < 1) return held;
  held.runs_per_side = runs;
  // The search's own full-length run at `n` is the first of the side's runs.
  auto side = [&](uint64_t n) -> std::optional<SideRuns> {
    SideRuns s{n, 0, 0};
    for (const auto& step : search.steps)
      if (step.full && step.accelerators == n) {
        s.runs = 1;
        s.passed = step.verdict.passed && step.verdict.meaningful ? 1 : 0;
      }
    if (s.runs == 0) return std::nullopt;
    for (int i = 1; i < runs; ++i) {
      const ProbeVerdict v = repeat(n, i);
      search.steps.push_back({n, true, v, i});
      if (v.stopped) {
        search.stopped = true;
        search.stop_reason =
            fmt::format("a repeat of the full-length run at {} accelerator(s) did not finish", n);
        return std::nullopt;
      }
      ++s.runs;
      if (v.passed && v.meaningful) ++s.passed;
    }
    return s;
  };
  if (search.answer > 0) held.answer = side(search.answer);
  if (search.first_failure && !search.stopped) held.failure = side(*search.first_failure);
  if (search.stopped) held.runs_per_side = 0;
  return held;
}

}  // namespace trainbench::sweep
