#include "formats/format.h"

#include <fmt/format.h>

#include "common/error.h"

namespace trainbench::formats {

void ThrowBadFile(std::string_view kind, const std::string& file, uint64_t offset,
                  const std::string& what) {
  throw RuntimeError(fmt::format("{}: bad {} at offset {}: {}", file, kind, offset, what));
}

void CheckSize(std::string_view kind, const std::string& file, uint64_t size,
               const WrittenFile& expected) {
  if (size != expected.size_bytes)
    ThrowBadFile(kind, file, size,
                 fmt::format("file is {} bytes, manifest says {}", size, expected.size_bytes));
}

}  // namespace trainbench::formats
