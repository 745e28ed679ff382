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

void CheckSampleExtents(std::string_view kind, const std::string& file,
                        const std::vector<SampleExtent>& found, const WrittenFile& expected,
                        uint64_t index_entry_bytes) {
  for (size_t i = 0; i < found.size() && i < expected.samples.size(); ++i) {
    const SampleExtent& have = found[i];
    const SampleExtent& want = expected.samples[i];
    if (have.offset == want.offset && have.length == want.length) continue;
    ThrowBadFile(kind, file, index_entry_bytes ? index_entry_bytes * i : have.offset,
                 fmt::format("sample {} is {} bytes at {}, the manifest says {} bytes at {}", i,
                             have.length, have.offset, want.length, want.offset));
  }
}

}  // namespace trainbench::formats
