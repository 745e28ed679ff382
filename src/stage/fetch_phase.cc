#include "stage/fetch_phase.h"

#include <string>

#include "common/log.h"
#include "stage/fetch_plan.h"
#include "stage/part_file.h"
#include "stage/range_fetcher.h"
#include "stage/repair_phase.h"
#include "stage/stage_progress.h"
#include "stage/verify_phase.h"

namespace trainbench::stage {
namespace {

constexpr const char* kNoChecksumHint =
    "give --sha256 or --checksums; the source sent no Digest header or single-part S3 ETag";

// The plan run through the range fetcher. Each object is verified, published and closed as
// soon as its last chunk is in; one whose checksum does not match is left for the repair,
// its journal synced (the chunks' hashes, for the repair or a rerun).
class PlannedFetch {
 public:
  PlannedFetch(const StageContext& ctx, FetchSources& sources, FetchPlan& plan, StageAccount& a)
      : ctx_(ctx),
        plan_(plan),
        a_(a),
        fetcher_(sources, ctx.FetchOptionsOfStage(), ctx.ledger, ctx.stream_time, ctx.clock) {}

  void Run() {
    StageProgress progress(ctx_.options.progress, plan_.to_fetch, ctx_.options.live);
    FetchHooks hooks;
    hooks.open = [this](size_t i) { OpenPart(plan_.items[i], !plan_.keep_part[i]); };
    hooks.ordered = [this](size_t i, uint64_t offset, const unsigned char* data, size_t size) {
      HashInOrder(ctx_.clock, plan_.expected[i], plan_.items[i].size, offset, data, size);
    };
    hooks.finished = [this](size_t i) { Finished(i); };
    hooks.progress = progress.Hook();
    try {
      fetcher_.Run(plan_.items, hooks);
    } catch (...) {
      progress.Finish();
      for (size_t i = 0; i < plan_.items.size(); ++i)
        if (a_.objects[plan_.result_of[i]].status.empty())
          a_.objects[plan_.result_of[i]].fetched_bytes = fetcher_.SoFar().item_bytes[i];
      throw;
    }
    progress.Finish();
  }

  // The items whose checksum did not match, and the names of the objects none was known for.
  const std::vector<size_t>& bad() const { return bad_; }
  const std::vector<std::string>& unverified() const { return unverified_; }

 private:
  void Finished(size_t i) {
    ObjectResult& r = a_.objects[plan_.result_of[i]];
    r.fetched_bytes = fetcher_.SoFar().item_bytes[i];
    FetchItem& item = plan_.items[i];
    Expected& e = plan_.expected[i];
    if (!MatchesExpected(ctx_.clock, e, item)) {
      plan_.journals[i]->Sync(item.fd);
      ClosePart(item);
      bad_.push_back(i);
      return;
    }
    if (!e.hex) unverified_.push_back(r.name);
    PublishStaged(item, *plan_.journals[i], r);
  }

  const StageContext& ctx_;
  FetchPlan& plan_;
  StageAccount& a_;
  RangeFetcher fetcher_;
  std::vector<size_t> bad_;
  std::vector<std::string> unverified_;
};

// One line, not one an object: a prefix can hold a million.
void WarnUnverified(const std::vector<std::string>& unverified) {
  if (unverified.size() == 1)
    Warn("{} is not verified: no checksum is known for it ({})", unverified[0], kNoChecksumHint);
  else if (unverified.size() > 1)
    Warn("{} objects are not verified (e.g. {}): no checksum is known for them ({})",
         unverified.size(), unverified[0], kNoChecksumHint);
}

}  // namespace

void FetchObjects(const StageContext& ctx, FetchSources& sources,
                  const std::vector<SourceObject>& objects, StageAccount& a) {
  FetchPlan plan = PlanFetch(ctx, sources, objects, a);
  const PartFilesCloser closer(plan.items);
  PlannedFetch fetch(ctx, sources, plan, a);
  fetch.Run();
  WarnUnverified(fetch.unverified());
  if (!fetch.bad().empty()) RepairObjects(ctx, sources, plan, fetch.bad(), a);
}

}  // namespace trainbench::stage
