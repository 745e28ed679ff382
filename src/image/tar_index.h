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

// Lists members of the tar in [begin, end) of `file`; `describe` names it in errors.
// Member tars (name ending .tar) are listed recursively instead of as members.
std::vector<TarMember> ListTar(storage::RandomAccessFile& file, uint64_t begin, uint64_t end,
                               const std::string& describe);

}  // namespace trainbench::image
