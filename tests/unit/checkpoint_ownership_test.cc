// `clean --checkpoints` goes by the records a Checkpointer writes beside its files, never by
// a file's name: on an object store (no local paths, as on S3) too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/workload.h"
#include "sim/checkpointer.h"
#include "storage/memory_storage.h"

namespace trainbench::sim {
namespace {

void Put(storage::Storage& storage, const std::string& path) {
  auto out = storage.Create(path);
  out->Append("x", 1);
  out->Commit();
}

std::vector<std::string> Paths(const std::vector<storage::ListEntry>& entries) {
  std::vector<std::string> paths;
  for (const auto& e : entries) paths.push_back(e.path);
  return paths;
}

TEST(CheckpointOwnership, OnlyWhatARecordNamesIsOurs) {
  config::WorkloadConfig config;
  config.model.model_size_bytes = 1000;
  storage::MemoryStorage storage;
  Checkpointer checkpointer(config, 0, 1, &storage);
  checkpointer.Write(1, 1);
  Put(storage, "global_epoch1_step1/other.pt");  // a user's file in the checkpoint's folder
  Put(storage, "global_step100/mp_rank_00_model_states.pt");  // DeepSpeed's, not ours
  const auto found = FindCheckpointObjects(storage);
  EXPECT_TRUE(found.has_dataset);
  EXPECT_EQ(Paths(found.ours),
            (std::vector<std::string>{"global_epoch1_step1/.trainbench_checkpoint.rank0.json",
                                      "global_epoch1_step1/model.pt",
                                      "global_epoch1_step1/optimizer.pt"}));
  EXPECT_EQ(Paths(found.foreign),
            (std::vector<std::string>{"global_epoch1_step1/other.pt",
                                      "global_step100/mp_rank_00_model_states.pt"}));
}

TEST(CheckpointOwnership, CheckpointNamesWithoutARecordAreNotOurs) {
  storage::MemoryStorage storage;
  Put(storage, "global_epoch1_step1/zero_pp_rank_0_mp_rank_00_model_states.pt");
  Put(storage, "model.pt");
  const auto found = FindCheckpointObjects(storage);
  EXPECT_FALSE(found.has_dataset);
  EXPECT_TRUE(found.ours.empty());
  EXPECT_EQ(found.foreign.size(), 2u);
}

}  // namespace
}  // namespace trainbench::sim
