// Puts a finished file under its final name, atomically: readers see the whole file or none.
// A new name is published with link(2) then unlink(2) of the temporary name rather than
// rename(2): on CephFS 16.2 another client's first lookup of a name made by rename waits for
// the MDS to give back the directory's file lock, up to 5 s a file (datagen's 64 files took
// 44-136 s to verify from a second host), while a linked name is looked up at once. Where the
// name exists (a manifest rewritten) or the file system has no hard links, it renames.
#pragma once

#include <string>

namespace trainbench {

// 0, or the errno of the failed call; `temp` is gone on success.
int PublishFile(const std::string& temp, const std::string& final_path);

}  // namespace trainbench
