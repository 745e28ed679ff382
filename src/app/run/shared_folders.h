// The traps of a run over several hosts on a file system (mlcommons/storage issue 464: a
// dataset generated onto each client's local disk at the same path looked like storage
// that fed every accelerator). Each rank says which file system holds the folder
// (storage/mount_info.h), and rank 0 writes a probe file there that every other rank
// looks for: ranks on different hosts that do not all find it do not share the folder, and
// the run is refused before any work. Results name each host's file system. A collective:
// every rank calls it, in the same order. Not thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "dist/communicator.h"
#include "storage/storage.h"

namespace trainbench::app {

// `key` names the folder in messages (dataset.data_folder). Returns, for summary.json, a row
// per host ({host, fs_type, source, mount_point, network, shared}), or null for a folder
// that is no local path (S3). Throws UsageError (exit 2) when ranks on different hosts do not
// see one file system there.
nlohmann::json CheckSharedFolder(dist::Communicator& ranks, storage::Storage& folder,
                                 const std::string& key);

}  // namespace trainbench::app
