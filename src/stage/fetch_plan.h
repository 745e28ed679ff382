// Which of a stage's objects it fetches, and where each resumes: every object probed (an S3
// prefix's many at a time); one that DEST already holds whole (its size, and its checksum
// when one is known) counted as present; for the rest a FetchItem into its part file, whose
// journal says which chunks, and which bytes of a chunk begun, an earlier run left there.
// Not thread-safe: the stage's loop thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "stage/expected_checksum.h"
#include "stage/fetch_sources.h"
#include "stage/range_fetcher.h"
#include "stage/range_journal.h"
#include "stage/source.h"
#include "stage/stage_account.h"
#include "stage/stage_context.h"

namespace trainbench::stage {

// Per item, in the order of the objects.
struct FetchPlan {
  std::vector<FetchItem> items;
  std::vector<std::unique_ptr<RangeJournal>> journals;
  std::vector<Expected> expected;
  std::vector<size_t> result_of;  // item -> index in the account's objects
  std::vector<char> keep_part;    // item -> its part file holds the journal's bytes
  uint64_t to_fetch = 0;          // bytes, all items together (the progress line's ETA)
};

// Adds each object's result to `a.objects` (those present already counted so); the part
// files are not opened here. Throws as ProbeObject and ExpectedChecksums::For do, and
// IoError when a journal cannot be written.
FetchPlan PlanFetch(const StageContext& ctx, FetchSources& sources,
                    const std::vector<SourceObject>& objects, StageAccount& a);

}  // namespace trainbench::stage
