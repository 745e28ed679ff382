// The `uring` read engine of file systems: each queue owns an io_uring of `depth` entries,
// so one thread keeps many reads in flight (flash, network file systems). Files are
// opened by path once and kept open within the storage's budget; a file over it is
// opened for its read and closed when the read completes. Reads the page cache holds
// complete inside the submit call, as pread would. Thread-safe as ReadEngine says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/object_names.h"
#include "storage/read_queue.h"

namespace trainbench::storage {

// `names`: the objects, in the engine's object order, under the folder `root`; `budget`: how
// many may stay open.
std::unique_ptr<ReadEngine> MakeUringEngine(SharedObjectNames names, std::string root,
                                            uint64_t budget, const ReadEngineOptions& options);

}  // namespace trainbench::storage
