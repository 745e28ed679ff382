// The `pread` read engine, which every backend has: positional reads through the
// storage's own RandomAccessFile objects (pread(2) on a file system). A queue of depth 1
// reads inside Submit on the caller's thread (fio's sync engines); a deeper queue keeps
// that many reads in flight with a thread each, so one event loop can drive a deep
// queue on storage that only reads synchronously. Thread-safe as ReadEngine says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::storage {

std::unique_ptr<ReadEngine> MakePreadEngine(Storage& storage, SharedObjectNames objects,
                                            const ReadEngineOptions& options);

}  // namespace trainbench::storage
