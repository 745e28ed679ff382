#include "stage/verify_phase.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "stage/file_io.h"

namespace trainbench::stage {
namespace {

// Hashes a whole file.
std::string HashOpenFile(int fd, uint64_t size, HashKind kind, const std::string& path) {
  Hasher h(kind);
  std::vector<unsigned char> buffer(8 << 20);
  const std::string what = fmt::format("'{}'", path);
  for (uint64_t offset = 0; offset < size;) {
    const size_t n = PreadSome(fd, buffer.data(), std::min<uint64_t>(buffer.size(), size - offset),
                               offset, what);
    h.Update(buffer.data(), n);
    offset += n;
  }
  return h.FinalHex();
}

}  // namespace

std::string HashPath(PhaseClock& clock, const std::string& path, uint64_t size, HashKind kind) {
  PhaseScope verify(clock, Phase::kVerify);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)), errno);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  return HashOpenFile(fd, size, kind, path);
}

std::string HashPartFile(PhaseClock& clock, const FetchItem& item, HashKind kind) {
  PhaseScope verify(clock, Phase::kVerify);
  return HashOpenFile(item.fd, item.size, kind, item.part_path);
}

void HashInOrder(PhaseClock& clock, Expected& e, uint64_t object_size, uint64_t offset,
                 const unsigned char* data, size_t size) {
  PhaseScope verify(clock, Phase::kVerify);
  e.hasher->Update(data, size);
  if (offset + size == object_size) e.got = e.hasher->FinalHex();
}

bool MatchesExpected(PhaseClock& clock, Expected& e, const FetchItem& item) {
  if (!e.hex) return true;
  if (!e.got) e.got = HashPartFile(clock, item, e.kind);  // an empty object hands nothing over
  return *e.got == *e.hex;
}

}  // namespace trainbench::stage
