// What every job runs with: its ranks, how it opens a storage, and where rank 0's results go.
// The binary's (app/frame/binary_job.h) are the world communicator, storage::OpenStorage and a
// FolderResults under the job's output folder; the tests' a single process, MemoryStorage and
// MemoryResults. Plain data; not owned by the job.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "app/frame/results_sink.h"
#include "dist/communicator.h"
#include "storage/storage.h"

namespace trainbench::app {

using StorageOpener = std::function<std::unique_ptr<storage::Storage>(
    const std::string& uri, const std::map<std::string, std::string>& options)>;

struct JobEnv {
  dist::Communicator& ranks;
  StorageOpener open_storage;
  ResultsSink* results = nullptr;   // rank 0's; null elsewhere
  bool check_local_folders = true;  // output and checkpoint folders writable (file systems)
};

}  // namespace trainbench::app
