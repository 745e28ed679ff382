// Checkpoints as a framework writes them: a folder per checkpoint holding the model's
// state (model_size_bytes) and the optimizer's (twice that: Adam keeps two moments per
// parameter), written through Storage (atomic per file; fsync when checkpoint.fsync),
// and read back whole. Every write and read is timed. With several ranks, checkpoint.type
// says who writes: rank 0 all of it (rank_zero, DLIO's default) or every rank its share of
// the bytes into files of its own (all_ranks, as sharded data-parallel training saves).
// A transformer (model.num_layers, model.transformer) is sized and split as DLIO does it
// (llm_checkpoint.h).
// Not thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/workload.h"
#include "dataset/ownership.h"
#include "metrics/run_record.h"
#include "storage/storage.h"

namespace trainbench::sim {

// Before its files, each rank writes into the checkpoint's folder a record naming them
// (".trainbench_checkpoint.rank<R>.json": the files and their sizes, the writing job's rank
// count, the epoch, step and seed): what trainbench wrote is what a record names, so
// `clean --checkpoints` never takes a user's file for one of its own, whatever its name, and
// a later job finds what it can read back (checkpoint_records.h).
inline constexpr const char* kCheckpointRecordStem = ".trainbench_checkpoint.rank";

// Sorts every object under the checkpoint folder into those a record names (with the
// records) and the others; has_dataset says whether any record was found.
dataset::DatasetObjects FindCheckpointObjects(storage::Storage& storage);

// Whether `path` is a checkpoint's record (kCheckpointRecordStem<R>.json in a folder).
bool IsCheckpointRecord(const std::string& path);

// Rank `rank` of `ranks`' files of a checkpoint and their sizes, as `config` writes them
// (none for a rank that writes nothing).
using CheckpointFiles = std::vector<std::pair<std::string, uint64_t>>;
CheckpointFiles CheckpointShardFiles(const config::WorkloadConfig& config, int rank, int ranks);

class Checkpointer {
 public:
  // Writes to `storage` (not owned), or when null to checkpoint.checkpoint_folder.
  Checkpointer(const config::WorkloadConfig& config, int rank, int ranks,
               storage::Storage* storage = nullptr);

  // Writes this rank's part of the checkpoint of (epoch, global step) and returns its
  // record: no files and no bytes for a rank that writes none (it still counts it).
  metrics::CheckpointRecord Write(uint64_t epoch, uint64_t step);
  // Reads back rank `shard_rank`'s part of the checkpoint `which` (its path, epoch and step),
  // written earlier by this job or another: no files and no bytes for a rank that writes
  // none. Throws RuntimeError if it is not whole or its bytes differ from those written.
  metrics::CheckpointRecord Read(const metrics::CheckpointRecord& which, int shard_rank);
  // This rank's own part of a checkpoint it wrote.
  metrics::CheckpointRecord Read(const metrics::CheckpointRecord& written) {
    return Read(written, rank_);
  }
  // Whether another write is allowed by checkpoint.num_checkpoints_write.
  bool MayWrite() const;
  // The checkpoint storage's own request latencies (S3: PUT, POST, GET, ...).
  std::map<std::string, metrics::Histogram> StorageLatencies() const {
    return storage_->OperationLatencies();
  }

 private:
  // The record of `files` of checkpoint `r` (kCheckpointRecordStem), written before them.
  void WriteRecord(const metrics::CheckpointRecord& r, const CheckpointFiles& files);

  const config::WorkloadConfig& config_;
  int rank_, ranks_;
  std::unique_ptr<storage::Storage> owned_storage_;
  storage::Storage* storage_;
  std::vector<unsigned char> buffer_;       // what every chunk of every file holds
  std::vector<unsigned char> read_buffer_;  // what a read-back returned
  int64_t written_ = 0;
};

}  // namespace trainbench::sim
