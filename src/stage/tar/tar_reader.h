// libarchive's reader as every tar of an archive (the archive itself, a tar inside it) is
// read: plain or gzip'd, tar formats only (ustar, GNU, pax). Not thread-safe: one reader a
// thread.
#pragma once

#include <archive.h>

#include <memory>
#include <string>

namespace trainbench::stage {

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveFree>;

// Throws RuntimeError when libarchive cannot allocate one.
ArchivePtr NewTarReader();

// Why `a`'s last call failed, in libarchive's words.
std::string ArchiveError(archive* a);

}  // namespace trainbench::stage
