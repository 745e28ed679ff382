// Checks, before any work starts, that a command can write where its results will go, so
// an hour of training or emulation is not lost to a missing folder at the end. Each error
// names the flag or config key, the path and the reason, and says what to do.
// Thread-safe: plain functions.
#pragma once

#include <string>

namespace trainbench {

// `folder` exists or can be created, and a file can be created in it. `what` names the
// flag or key in errors ("output.folder"). Throws UsageError.
void CheckWritableFolder(const std::string& folder, const std::string& what);

// A file can be created at `path`: its folder exists and is writable, and `path` is not a
// folder. Throws UsageError.
void CheckWritableFile(const std::string& path, const std::string& what);

}  // namespace trainbench
