#include "sweep/confirm.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/json_fields.h"
#include "sweep/limit.h"

namespace trainbench::sweep {
namespace {

std::vector<const SweepProbe*> FullRunsAt(const std::vector<SweepProbe>& probes, uint64_t n) {
  std::vector<const SweepProbe*> runs;
  for (const auto& p : probes)
    if (p.full && p.accelerators == n) runs.push_back(&p);
  return runs;
}

// A side's count, runs, passes and AU spread.
struct SideFields {
  uint64_t accelerators = 0;
  size_t runs = 0, passed = 0;
  double au_min_percentage = 0, au_median_percentage = 0, au_max_percentage = 0;
};
TB_JSON_FIELDS(SideFields, accelerators, runs, passed, au_min_percentage, au_median_percentage,
               au_max_percentage)

struct ConfirmationFields {
  int runs_per_side = 0;
  Nullable<bool> stable;  // null: not held
  Nullable<SideFields> answer, first_failure;
};
TB_JSON_FIELDS(ConfirmationFields, runs_per_side, stable, answer, first_failure)

Nullable<SideFields> SideOf(const std::optional<SideRuns>& side,
                            const std::vector<SweepProbe>& probes) {
  if (!side) return std::nullopt;
  const AuSpread s = SpreadAt(probes, side->accelerators);
  return SideFields{s.accelerators, s.runs, s.passed, s.min, s.median, s.max};
}

std::string SideText(const std::optional<SideRuns>& side, const std::vector<SweepProbe>& probes) {
  const AuSpread s = SpreadAt(probes, side->accelerators);
  return fmt::format("{} passed {} of {} (AU min/median/max {:.1f}/{:.1f}/{:.1f}%)", s.accelerators,
                     s.passed, s.runs, s.min, s.median, s.max);
}

// "the failing one client-bound (...)" or "the failing ones storage-bound (...) and client-
// bound (...)": each kind of limit once, with its first run's evidence.
std::string FailingRuns(const std::vector<const SweepProbe*>& failing, double computation_time_s,
                        unsigned cores) {
  std::vector<SweepLimit> order;
  std::map<SweepLimit, std::string> evidence;
  for (const SweepProbe* p : failing) {
    const LimitFinding f = ClassifyLimit(*p, computation_time_s, cores);
    if (evidence.emplace(f.limit, f.evidence).second) order.push_back(f.limit);
  }
  std::string text = failing.size() == 1 ? "the failing one " : "the failing ones ";
  for (size_t i = 0; i < order.size(); ++i)
    text +=
        fmt::format("{}{} ({})", i == 0 ? "" : " and ", LimitTrait(order[i]), evidence[order[i]]);
  return text;
}

}  // namespace

AuSpread SpreadAt(const std::vector<SweepProbe>& probes, uint64_t n) {
  AuSpread s;
  s.accelerators = n;
  std::vector<double> au;
  for (const SweepProbe* p : FullRunsAt(probes, n)) {
    au.push_back(p->au_percentage);
    if (p->passed && p->au_meaningful) ++s.passed;
  }
  s.runs = au.size();
  if (au.empty()) return s;
  std::sort(au.begin(), au.end());
  s.min = au.front();
  s.max = au.back();
  const size_t mid = au.size() / 2;
  s.median = au.size() % 2 ? au[mid] : (au[mid - 1] + au[mid]) / 2;
  return s;
}

nlohmann::ordered_json ConfirmationJson(const Confirmation& held,
                                        const std::vector<SweepProbe>& probes) {
  ConfirmationFields f{.runs_per_side = held.runs_per_side,
                       .stable = std::nullopt,
                       .answer = SideOf(held.answer, probes),
                       .first_failure = SideOf(held.failure, probes)};
  if (held.runs_per_side > 0) f.stable = held.Stable();
  return f;
}

std::string SpreadLine(const Confirmation& held, const std::vector<SweepProbe>& probes) {
  if (held.runs_per_side == 0 || (!held.answer && !held.failure)) return "";
  // "at each side" only where both sides ran that many: a side may have none (the answer at
  // --min failing, every count up to --max passing) or fewer (each side's text counts them).
  const auto full = [&](const std::optional<SideRuns>& side) {
    return side &&
           SpreadAt(probes, side->accelerators).runs == static_cast<size_t>(held.runs_per_side);
  };
  std::string text =
      full(held.answer) && full(held.failure)
          ? fmt::format("held by {} full-length run(s) at each side: ", held.runs_per_side)
          : std::string("held by full-length runs: ");
  if (held.answer) text += SideText(held.answer, probes);
  if (held.failure) text += (held.answer ? "; " : "") + SideText(held.failure, probes);
  return text;
}

std::string Disagreement(const Confirmation& held, const std::vector<SweepProbe>& probes,
                         double computation_time_s, unsigned cores) {
  if (held.runs_per_side == 0 || held.Stable()) return "";
  std::string text = "the answer is not stable: ";
  bool first = true;
  for (const auto* side : {&held.answer, &held.failure}) {
    if (!*side) continue;
    const SideRuns& s = **side;
    text += fmt::format("{}{} passed {} of {} full-length runs", first ? "" : "; ", s.accelerators,
                        s.passed, s.runs);
    first = false;
    std::vector<const SweepProbe*> failing;
    for (const SweepProbe* p : FullRunsAt(probes, s.accelerators))
      if (!(p->passed && p->au_meaningful)) failing.push_back(p);
    // A side that agrees needs no why; a side that disagrees is explained by its failures.
    const bool agrees = side == &held.answer ? s.passed == s.runs : s.passed == 0;
    if (!agrees && !failing.empty()) text += ", " + FailingRuns(failing, computation_time_s, cores);
  }
  return text;
}

}  // namespace trainbench::sweep
