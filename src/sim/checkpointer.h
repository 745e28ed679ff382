// Checkpoints as a framework writes them: a folder per checkpoint holding the model's
// state (model_size_bytes) and the optimizer's (twice that: Adam keeps two moments per
// parameter), written through Storage (atomic per file; fsync when checkpoint.fsync),
// and read back whole. Every write and read is timed. Not thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/workload.h"
#include "metrics/run_record.h"
#include "storage/storage.h"

namespace trainbench::sim {

class Checkpointer {
 public:
  explicit Checkpointer(const config::WorkloadConfig& config);

  // Writes the checkpoint of (epoch, global step) and returns its record.
  metrics::CheckpointRecord Write(uint64_t epoch, uint64_t step);
  // Reads back a checkpoint written earlier; throws RuntimeError if it is not whole.
  metrics::CheckpointRecord Read(const metrics::CheckpointRecord& written);
  // Whether another write is allowed by checkpoint.num_checkpoints_write.
  bool MayWrite() const;
  // The checkpoint storage's own request latencies (S3: PUT, POST, GET, ...).
  std::map<std::string, metrics::Histogram> StorageLatencies() const {
    return storage_->OperationLatencies();
  }

 private:
  const config::WorkloadConfig& config_;
  std::unique_ptr<storage::Storage> storage_;
  std::vector<unsigned char> buffer_;
  int64_t written_ = 0;
};

}  // namespace trainbench::sim
