// A stage of objects as files (not --extract): the plan (fetch_plan.h) fetched as ranged
// GETs, each object verified as its bytes are handed over in order and published under its
// final name as soon as its last chunk is in; one warning for the objects no checksum is known
// for, and the repair of those that do not match (repair_phase.h).
// Not thread-safe: the stage's loop thread.
#pragma once

#include <vector>

#include "stage/fetch_sources.h"
#include "stage/source.h"
#include "stage/stage_account.h"
#include "stage/stage_context.h"

namespace trainbench::stage {

// Each object's result is added to `a.objects`. Throws as RangeFetcher::Run and
// RepairObjects do; the bytes fetched up to a throw are counted in the results.
void FetchObjects(const StageContext& ctx, FetchSources& sources,
                  const std::vector<SourceObject>& objects, StageAccount& a);

}  // namespace trainbench::stage
