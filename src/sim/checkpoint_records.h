// What a later job reads back of the checkpoints an earlier one wrote: MLPerf Storage's
// checkpoint sequence is write, empty the caches, read, and a read from another job (or
// another host) is how the read figure avoids the writer's page cache. The checkpoints are
// found by the records each writing rank leaves beside its files (checkpointer.h), never by
// a file's name; one is readable by `ranks` ranks of a config when every rank's shard is
// recorded as that config writes it (the same rank count, files, sizes and seed, the seed
// giving the bytes that are compared) and every file is there at its recorded size (each is
// written whole or not at all, so a write killed part way leaves a file missing).
// Reads the listing and the records only. Not thread-safe (the storage's calls are).
#pragma once

#include <string>
#include <vector>

#include "config/workload.h"
#include "metrics/run_record.h"
#include "storage/storage.h"

namespace trainbench::sim {

struct RecordedCheckpoints {
  // Oldest (epoch, step) first: operation "write", path, epoch, step, and the bytes and files
  // over every rank's shard.
  std::vector<metrics::CheckpointRecord> readable;
  // "global_epoch1_step2: why these ranks cannot read it", oldest first.
  std::vector<std::string> unreadable;
};

// The checkpoints recorded under `storage` (a checkpoint folder), sorted by whether `ranks`
// ranks of `config` can read them back. UsageError when the config cannot be split over
// `ranks` (llm_checkpoint.h).
RecordedCheckpoints FindRecordedCheckpoints(storage::Storage& storage,
                                            const config::WorkloadConfig& config, int ranks);

}  // namespace trainbench::sim
