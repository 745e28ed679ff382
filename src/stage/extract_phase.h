// `stage --extract`: one tar archive fetched in order and streamed into DEST as it arrives
// (extract_target.h), resumed from the archive offset its journal keeps
// (DEST/NAME.extract.journal), its checksum checked when it streamed from the start.
// Not thread-safe: the stage's loop thread.
#pragma once

#include "stage/fetch_sources.h"
#include "stage/source.h"
#include "stage/stage_account.h"
#include "stage/stage_context.h"

namespace trainbench::stage {

// Adds the archive's result to `a.objects`. Throws RuntimeError naming the archive when it
// cannot be extracted or does not match its checksum, and as ProbeObject and
// RangeFetcher::Run do.
void ExtractArchive(const StageContext& ctx, FetchSources& sources, const SourceObject& obj,
                    StageAccount& a);

}  // namespace trainbench::stage
