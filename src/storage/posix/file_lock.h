// The lock of a folder on a file system: flock(2) on a file. The kernel releases it when
// the holder exits, however it exits, so a crashed writer never leaves it locked. The file
// records the holder ("pid N on HOST") for the message of the one refused.
#pragma once

#include <string>

#include "storage/storage.h"

namespace trainbench::storage {

// Locks the file at `path` (created, with its folder, when missing). Throws IoError when
// the file cannot be made or locked for a reason other than another holder.
LockAttempt TryLockFile(const std::string& path);

}  // namespace trainbench::storage
