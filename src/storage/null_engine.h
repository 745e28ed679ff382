// The `null` read engine (fio's null ioengine): every read completes at once, in full,
// touching no storage and no buffer. A run on it measures trainbench's own cost per
// sample (claiming, splitting, reaping, recording), the ceiling above any storage.
// Thread-safe as ReadEngine says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/read_queue.h"

namespace trainbench::storage {

// `names`: the objects' names, for messages only.
std::unique_ptr<ReadEngine> MakeNullEngine(std::vector<std::string> names);

}  // namespace trainbench::storage
