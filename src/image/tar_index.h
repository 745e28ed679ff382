// Lists the regular files of a tar archive through libarchive (ustar, GNU, pax; the reader
// stage --extract uses) by reading its headers and skipping the data, recursing into member
// tars in place, so samples are read straight out of the archive at their offsets.
// Thread-safe as far as the RandomAccessFile passed in is (reads only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/storage.h"

namespace trainbench::image {

struct TarMember {
  std::string name;           // path inside its own tar
  std::string enclosing_tar;  // name of the member tar holding it; empty at the top level
  uint64_t offset = 0;        // of its data, from the start of the outer file
  uint64_t size = 0;
};

// What one read fetches on a file system: a header and some data; the rest of a member is
// skipped without reading, so indexing reads little more than the headers.
inline constexpr size_t kTarReadBytes = 16 << 10;
// On remote storage, where a read's fixed cost (a GET's round trip) is what counts: one read
// covers the headers of the members it spans (about 9 of ImageNet's ~110 KB JPEGs).
inline constexpr size_t kRemoteTarReadBytes = 1 << 20;

// Lists members of the tar in [begin, end) of `file`, `read_size` bytes a read; `describe`
// names it in errors. Member tars (name ending .tar) are listed recursively instead of as
// members.
std::vector<TarMember> ListTar(storage::RandomAccessFile& file, uint64_t begin, uint64_t end,
                               const std::string& describe, size_t read_size = kTarReadBytes);

}  // namespace trainbench::image
