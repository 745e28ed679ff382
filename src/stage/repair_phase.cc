#include "stage/repair_phase.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string>

#include "common/error.h"
#include "common/log.h"
#include "stage/part_file.h"
#include "stage/range_fetcher.h"
#include "stage/stage_progress.h"
#include "stage/verify_phase.h"

namespace trainbench::stage {
namespace {

// The bad items, to be fetched again, each with a warning naming the mismatch.
std::vector<FetchItem> ItemsToRefetch(const FetchPlan& plan, const std::vector<size_t>& bad) {
  std::vector<FetchItem> again;
  for (size_t i : bad) {
    const Expected& e = plan.expected[i];
    Warn(
        "{}: {} {} does not match {} from {}; fetching every chunk again to find the ones "
        "that differ",
        plan.items[i].object.name, HashName(e.kind), *e.got, *e.hex, e.from);
    again.push_back(plan.items[i]);
    again.back().deliver = false;
  }
  return again;
}

// The repaired part file hashed again: published when it matches now; else the object
// fails, its part file and journal kept. Returns why it failed, if it did.
std::optional<std::string> VerifyRepaired(const StageContext& ctx, FetchItem& item,
                                          RangeJournal& journal, const Expected& e,
                                          ObjectResult& r) {
  const std::string got = HashPartFile(ctx.clock, item, e.kind);
  if (got == *e.hex) {
    PublishStaged(item, journal, r);
    return std::nullopt;
  }
  r.status = "failed";
  journal.Sync(item.fd);
  ClosePart(item);
  return fmt::format(
      "{}: {} {} does not match {} from {}; {}; nothing was written under {} ({} and its "
      "journal are kept: with the right checksum a rerun finishes without fetching)",
      r.name, HashName(e.kind), got, *e.hex, e.from,
      r.repaired_ranges.empty()
          ? std::string("every chunk fetched again matched the first fetch: the source's "
                        "bytes are not the ones the checksum describes")
          : fmt::format("chunk ranges that differed on a re-fetch and were replaced: {}",
                        fmt::join(r.repaired_ranges, ", ")),
      (std::filesystem::path(ctx.options.dest) / r.name).string(), item.part_path);
}

}  // namespace

void RepairObjects(const StageContext& ctx, FetchSources& sources, FetchPlan& plan,
                   const std::vector<size_t>& bad, StageAccount& a) {
  std::vector<FetchItem> again = ItemsToRefetch(plan, bad);
  const PartFilesCloser closer(again);
  FetchOptions options = ctx.FetchOptionsOfStage();
  options.compare = true;
  StreamTime repair_time;
  RangeFetcher fetcher(sources, options, ctx.ledger, repair_time, ctx.clock);
  StageProgress progress(ctx.options.progress, 0, ctx.options.live);
  std::vector<std::string> failures;
  FetchHooks hooks;
  hooks.open = [&](size_t k) { OpenPart(again[k], false); };
  hooks.finished = [&](size_t k) {
    const size_t i = bad[k];
    ObjectResult& r = a.objects[plan.result_of[i]];
    r.repaired_ranges = fetcher.SoFar().differing[k];
    if (auto failure = VerifyRepaired(ctx, again[k], *plan.journals[i], plan.expected[i], r))
      failures.push_back(std::move(*failure));
  };
  hooks.progress = progress.Hook();
  const FetchResult refetched = fetcher.Run(again, hooks);
  ctx.stream_time.wasted_s += repair_time.useful_s + repair_time.wasted_s;
  ctx.stream_time.wasted_bytes += refetched.bytes + repair_time.wasted_bytes;
  ctx.stream_time.retries += repair_time.retries;
  if (!failures.empty()) throw RuntimeError(fmt::format("{}", fmt::join(failures, "; ")));
}

}  // namespace trainbench::stage
