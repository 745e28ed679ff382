// A checkpointing workload (workflow.train false, checkpoint true: MLPerf Storage's llama3
// runs): every rank writes its shard of checkpoint.num_checkpoints_write checkpoints (fsync
// as checkpoint.fsync says), the ranks starting each together, then reads back the last
// checkpoint.num_checkpoints_read; with no writes (num_checkpoints_write 0) it reads those an
// earlier job wrote (CheckpointRunOptions::earlier). Rank r reads the shard of rank
// (r + checkpoint.read_shard_offset) mod ranks. Between writing and reading, the page cache is
// emptied on every host when the checkpoint data per host is under 3x its memory (the rules',
// so the reads come from storage), which needs root: refused with what to do otherwise. The
// gap between the end of writing and the start of reading is recorded.
// Not thread-safe: called from the event loop's thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/workload.h"
#include "dist/communicator.h"
#include "metrics/run_record.h"
#include "storage/storage.h"

namespace trainbench::sim {

struct CheckpointRunOptions {
  // Ranks on this host and the first of them: one per host empties the page cache.
  bool first_rank_on_host = true;
  uint64_t ranks_on_host = 1;
  bool drop_caches = false;   // --drop-caches: always, before writing too
  uint64_t accelerators = 1;  // over every rank (each rank's --accelerators), for the record
  std::function<void(const std::string&)> log;
  // Where the checkpoints go (not owned); null: checkpoint.checkpoint_folder.
  storage::Storage* storage = nullptr;
  // With checkpoint.num_checkpoints_write 0: the checkpoints to read, oldest first, as an
  // earlier job wrote them (checkpoint_records.h), the same on every rank.
  std::vector<metrics::CheckpointRecord> earlier;
  // Above 0: a checkpoint every every_s seconds (start to start) until the run is stopped
  // (Ctrl-C, or its owner's ThreadStop: a mix's checkpointing job), none read back;
  // checkpoint.num_checkpoints_write does not count then.
  double every_s = 0;
};

metrics::RunRecord RunCheckpointWorkload(const config::WorkloadConfig& config,
                                         dist::Communicator& ranks,
                                         const CheckpointRunOptions& options);

}  // namespace trainbench::sim
