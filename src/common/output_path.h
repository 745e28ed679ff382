// Checks, before any work starts, that a command can write where its results will go, so
// an hour of training or emulation is not lost to a missing folder at the end. Each error
// names the flag or config key, the path and the reason, and says what to do.
// Thread-safe: plain functions.
#pragma once

#include <string>
#include <vector>

namespace trainbench {

// `folder` exists or can be created, and a file can be created in it. `what` names the
// flag or key in errors ("output.folder"). Throws UsageError. The folders it creates are
// remembered for RemoveEmptyFoldersMadeByChecks.
void CheckWritableFolder(const std::string& folder, const std::string& what);

// Removes, innermost first, each folder CheckWritableFolder created in this process that is
// still empty: a job refused or failed after its checks leaves no empty results folder
// behind. A folder that holds anything stays (rmdir(2) refuses it), and nothing that was
// there before the check is touched. Returns the folders removed.
std::vector<std::string> RemoveEmptyFoldersMadeByChecks();

// A file can be created at `path`: its folder exists and is writable, and `path` is not a
// folder. Throws UsageError.
void CheckWritableFile(const std::string& path, const std::string& what);

}  // namespace trainbench
