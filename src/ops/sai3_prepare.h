// A sai3-bench config's prepare and cleanup, with datagen's machinery (dataset/): rank 0
// holds each set's DatasetLock while the ranks write; each rank writes its 1/N of every set
// (objects i with i mod N == rank) through Storage::Create (nothing partial under a final
// name), journals each finished object (an interrupted prepare resumes: objects already whole
// are skipped unless prepare.force_overwrite), and rank 0 writes the set's manifest at the
// end. Objects of an earlier prepare of other settings that this one does not make are
// removed; nothing trainbench did not write is touched. Cleanup removes what the manifest
// lists, each rank its share. Not thread-safe: the job's thread calls it on every rank.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "common/json_fields.h"
#include "config/sai3/sai3_config.h"
#include "dist/communicator.h"
#include "storage/storage.h"

namespace trainbench::ops {

struct PrepareFigures {
  uint64_t objects = 0;  // planned, every set and rank
  uint64_t written = 0, skipped = 0, removed = 0;
  uint64_t bytes_written = 0, bytes = 0;  // written now; of every planned object
  double seconds = 0;
};
TB_JSON_FIELDS(PrepareFigures, objects, written, skipped, removed, bytes, bytes_written, seconds)

// `sets` matches config.ensure_objects (each opened at its base_uri). `bytes_written` counts
// as objects finish (for the time series). At rank 0 the figures are the job's.
PrepareFigures PrepareObjects(const config::Sai3Config& config,
                              std::vector<storage::Storage*>& sets, dist::Communicator& ranks,
                              unsigned threads, std::atomic<uint64_t>& bytes_written);

// Removes every set's objects (this rank's share) and, at rank 0, their manifests; returns
// how many objects this rank removed.
uint64_t CleanupObjects(const config::Sai3Config& config, std::vector<storage::Storage*>& sets,
                        dist::Communicator& ranks);

}  // namespace trainbench::ops
