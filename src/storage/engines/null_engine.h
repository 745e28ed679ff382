// The `null` read engine (fio's null ioengine): every read completes at once, in full,
// touching no storage and no buffer. A run on it measures trainbench's own cost per
// sample (claiming, splitting, reaping, recording), the ceiling above any storage.
// Thread-safe as ReadEngine says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

// `names`: the objects of `storage` (which must outlive the engine), for messages only.
std::unique_ptr<ReadEngine> MakeNullEngine(SharedObjectNames names, const Storage& storage);

}  // namespace trainbench::storage
