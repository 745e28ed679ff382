// datagen: writes a dataset plan through a FileFormat onto Storage, in parallel over
// files. Resumable (finished files are journaled and skipped on re-run), atomic per
// file (nothing partial under a final name), interruptible (Ctrl-C stops within one
// block write), and finishes with the manifest. One writer per folder (DatasetLock); files
// of an earlier dataset in the folder that this one does not have are removed; the free
// space is checked before anything is written.
//
// Over several ranks (mpirun) rank r writes files r, r+R, ...: rank 0 takes the lock and
// prepares the folder (checks, leftovers, folders) while the others wait; every rank then
// writes its files and keeps its own journal (resume works per rank); rank 0 gathers what
// they wrote and writes the one manifest after all finished.
#pragma once

#include <cstdint>

#include "config/workload.h"
#include "dataset/manifest.h"
#include "dataset/plan.h"
#include "dist/communicator.h"
#include "storage/storage.h"

namespace trainbench::dataset {

struct GenerateOptions {
  unsigned threads = 0;  // 0: all cores
  bool verify = false;   // re-read and check every file afterwards
  bool progress = true;
  bool force = false;    // write even when the file system lacks the free space planned
  bool replace = false;  // a dataset of other settings in the folder is removed, not refused
};

struct GenerateResult {
  uint64_t files_written = 0;
  uint64_t files_skipped = 0;
  uint64_t files_removed = 0;  // of an earlier dataset in the folder, not in this one
  uint64_t bytes_written = 0;
  uint64_t dataset_bytes = 0;
  double seconds = 0;
  double verify_seconds = 0;
  Manifest manifest;
};

// `ranks` null: this process alone. At rank 0 the result is the whole job's; elsewhere its
// counts and manifest are this rank's own files.
GenerateResult Generate(const config::WorkloadConfig& config, storage::Storage& storage,
                        const GenerateOptions& options, dist::Communicator* ranks = nullptr);

// Re-reads every file of a manifest and checks it; throws RuntimeError at the first bad
// file (named, with the offset).
void VerifyDataset(const config::WorkloadConfig& config, const Manifest& manifest,
                   storage::Storage& storage, unsigned threads, bool progress);

}  // namespace trainbench::dataset
