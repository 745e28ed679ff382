// One kind of operation's figures (GET, PUT, ...) as the engine's workers count them: each
// worker its own, summed per rank, then the ranks' per job (Merge), and as JSON between the
// ranks. A replay keeps them for the original (its op-log) and for the replay; a sai3-bench
// workload for its op mix. Thread-compatible: one per thread, then merged.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/json_fields.h"
#include "metrics/histogram.h"
#include "metrics/run_record_json.h"

namespace trainbench::ops {

struct OpFigures {
  uint64_t count = 0;    // done (failed ones too)
  uint64_t bytes = 0;    // moved
  uint64_t errors = 0;   // failed
  uint64_t skipped = 0;  // not done: a DELETE with nothing of this job's to remove
  metrics::Histogram latency_ns;
  std::string first_error;  // the first failure's message ("": none)

  // Adds another worker's or rank's figures to these (the first error kept first).
  void Merge(const OpFigures& other);
};
TB_JSON_FIELDS(OpFigures, count, bytes, errors, skipped, latency_ns, first_error)

// By the operation's name ("GET", ...), in name order: a job's ops as summary.json lists them.
using OpFiguresByName = std::map<std::string, OpFigures>;

// Merges each of `from`'s kinds into `into`'s of the same name.
void MergeByName(OpFiguresByName& into, const OpFiguresByName& from);

}  // namespace trainbench::ops
