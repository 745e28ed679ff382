#include "sweep/answer.h"

#include <fmt/format.h>

#include <algorithm>

#include "sweep/confirm.h"

namespace trainbench::sweep {
namespace {

// The confirming run at `n` (else the last probe's), for the sentence.
const SweepProbe* Best(const std::vector<SweepProbe>& probes, uint64_t n) {
  const SweepProbe* found = nullptr;
  for (const auto& p : probes)
    if (p.accelerators == n && (found == nullptr || p.full)) found = &p;
  return found;
}

// The failing side's finding: its full-length runs that failed (every repeat), else its probe.
std::optional<LimitFinding> FailingSide(const std::vector<SweepProbe>& probes, uint64_t n,
                                        double computation_time_s, unsigned cores) {
  std::vector<const SweepProbe*> failing;
  for (const auto& p : probes)
    if (p.full && p.accelerators == n && !(p.passed && p.au_meaningful)) failing.push_back(&p);
  if (!failing.empty()) return ClassifyRuns(failing, computation_time_s, cores);
  if (const SweepProbe* p = Best(probes, n)) return ClassifyLimit(*p, computation_time_s, cores);
  return std::nullopt;
}

// The failing side of the boundary says what limited the answer; without a failure (the range
// or the dataset ended the search), the answer's own run says whether the reads came from
// memory.
std::optional<LimitFinding> LimitOf(const SearchResult& r, const std::vector<SweepProbe>& probes,
                                    double computation_time_s, unsigned cores) {
  if (r.first_failure) return FailingSide(probes, *r.first_failure, computation_time_s, cores);
  if (r.answer > 0)
    if (const SweepProbe* p = Best(probes, r.answer)) return ClassifyPassed(*p);
  return std::nullopt;
}

// "this storage feeds N ...", "this client host (...) limits the answer to N ..." or "N ...
// read from memory (...)".
std::string LeadClause(const std::optional<LimitFinding>& limit, const std::string& fed,
                       const config::WorkloadConfig& c) {
  const double target = 100.0 * c.metric.au;
  switch (limit ? limit->limit : SweepLimit::kStorage) {
    case SweepLimit::kClient: {
      const std::string cached =
          limit->cached_too
              ? "; the page cache served most reads as well, so the storage was not measured "
                "(`trainbench datasize " +
                    c.workload_name + "` says how big a dataset is)"
              : "";
      if (limit->other_load)
        return fmt::format(
            "this client host ({}) limits the answer to {} at AU >= {:.0f}%; other processes "
            "loaded its CPUs, not trainbench: stop them, or sweep on a host where nothing else "
            "runs, and sweep again{}",
            limit->evidence, fed, target, cached);
      return fmt::format(
          "this client host ({}) limits the answer to {} at AU >= {:.0f}%; the storage was not "
          "the limit: add client hosts (mpirun -np 2 --host A,B trainbench sweep {} "
          "--find-max-accelerators ...){}",
          limit->evidence, fed, target, c.workload_name, cached);
    }
    case SweepLimit::kMemory:
      return fmt::format(
          "{} at AU >= {:.0f}%, read from memory ({}): the dataset is below MLPerf's 5x-memory "
          "rule, so this is not the storage's answer (`trainbench datasize {}` says how big)",
          fed, target, limit->evidence, c.workload_name);
    case SweepLimit::kStorage:
      break;
  }
  return fmt::format("this storage feeds {} at AU >= {:.0f}%", fed, target);
}

// What ended the search beside the answer: no verdict, the first failure, the range.
std::string Tails(const SearchResult& r, const std::vector<SweepProbe>& probes) {
  std::string text;
  if (r.no_verdict)
    text += fmt::format(
        "; at {} the AU is no verdict: the dataset is too small for that many "
        "(`trainbench datasize` says how many files)",
        *r.no_verdict);
  if (r.first_failure) {
    // The median of its full-length runs where it was held by several.
    const AuSpread spread = SpreadAt(probes, *r.first_failure);
    const SweepProbe* p = Best(probes, *r.first_failure);
    if (spread.runs > 0 || p)
      text += fmt::format("; {} fail at {:.1f}%", *r.first_failure,
                          spread.runs > 0 ? spread.median : p->au_percentage);
  }
  if (r.limited_by_range)
    text += fmt::format(" (every count up to the --max {} passed: raise it)", r.answer);
  if (!r.confirmed && !r.stopped) text += " (not confirmed by full-length runs)";
  return text;
}

}  // namespace

SweepAnswer AnswerOf(const SearchResult& r, const Confirmation& held,
                     const std::vector<SweepProbe>& probes, const config::WorkloadConfig& c,
                     unsigned host_cores) {
  if (r.stopped) return {"the sweep stopped before an answer: " + r.stop_reason, {}};
  const unsigned cores = std::max(1u, host_cores);
  const double compute_s = c.train.computation_time.mean;
  const std::optional<LimitFinding> limit = LimitOf(r, probes, compute_s, cores);
  const std::string who =
      fmt::format("emulated accelerators training {} ({})", c.model.name, c.workload_name);
  const std::string fed =
      r.answer == 0 ? fmt::format("no {}", who) : fmt::format("{} {}", r.answer, who);
  std::string text = LeadClause(limit, fed, c) + Tails(r, probes);
  // Repeats that disagree lead the sentence: no side is picked, and the search's own answer
  // follows as what its runs said, never as the storage's.
  const std::string disagreement = Disagreement(held, probes, compute_s, cores);
  if (!disagreement.empty()) text = disagreement + "; the search's own runs said: " + text;
  return {text, limit};
}

std::string SweepText(const std::vector<SweepProbe>& probes, const Confirmation& held,
                      const std::string& sentence, const nlohmann::ordered_json& figures,
                      uint64_t answer) {
  std::string text = "accelerators  run          AU %      MB/s  asked MB/s  verdict\n";
  for (const auto& p : probes)
    text += fmt::format("{:>12}  {:<11} {:>6.2f} {:>9.1f} {:>11.1f}  {}\n", p.accelerators,
                        p.full ? "full-length" : "probe", p.au_percentage, p.mb_per_second,
                        p.demand_mb_per_second, VerdictWord(p));
  if (const std::string spread = SpreadLine(held, probes); !spread.empty()) text += spread + "\n";
  text += sentence + "\n";
  if (const auto it = figures.find("official"); it != figures.end()) {
    const auto& o = *it;
    text += fmt::format(
        "Confirm it with MLPerf Storage's tools (its rule sizes the dataset for {} accelerators "
        "at {} files, {:.1f} GB):\n  {}\n  {}\n  {}\nor DLIO alone:\n  {}\n",
        answer, o["dataset_files"].get<uint64_t>(), o["dataset_GB"].get<double>(),
        o["mlpstorage_datasize"].get<std::string>(), o["mlpstorage_datagen"].get<std::string>(),
        o["mlpstorage_run"].get<std::string>(), o["dlio"].get<std::string>());
  }
  return text;
}

}  // namespace trainbench::sweep
