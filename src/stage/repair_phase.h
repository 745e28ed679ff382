// The repair of objects whose whole-object checksum did not match: every chunk fetched again
// into memory, and those whose bytes differ from what was first received (transient
// corruption on the way) written over the part file; then each object is verified again.
// Still wrong: the object fails, nothing gets its final name, and the part file and journal
// stay (a rerun with the right checksum finishes at once). Every byte and second of the
// repair is the corruption's cost: counted as wasted.
// Not thread-safe: the stage's loop thread.
#pragma once

#include <vector>

#include "stage/fetch_plan.h"
#include "stage/fetch_sources.h"
#include "stage/stage_account.h"
#include "stage/stage_context.h"

namespace trainbench::stage {

// `bad`: the plan's items that did not match (their part files closed). Throws RuntimeError
// naming each object still wrong, and as RangeFetcher::Run does.
void RepairObjects(const StageContext& ctx, FetchSources& sources, FetchPlan& plan,
                   const std::vector<size_t>& bad, StageAccount& a);

}  // namespace trainbench::stage
