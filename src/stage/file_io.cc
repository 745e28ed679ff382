#include "stage/file_io.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace trainbench::stage {

size_t PreadSome(int fd, void* data, size_t size, uint64_t offset, std::string_view what) {
  for (;;) {
    const ssize_t r = ::pread(fd, data, size, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0)
      throw IoError(fmt::format("cannot read {} at offset {}: {}", what, offset,
                                r < 0 ? std::strerror(errno) : "end of file"),
                    r < 0 ? errno : EIO);
    return static_cast<size_t>(r);
  }
}

void PreadAll(int fd, void* data, size_t size, uint64_t offset, std::string_view what) {
  auto* bytes = static_cast<unsigned char*>(data);
  for (size_t done = 0; done < size;)
    done += PreadSome(fd, bytes + done, size - done, offset + done, what);
}

int PwriteAll(int fd, const void* data, size_t size, uint64_t offset, size_t* written) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  size_t done = 0;
  int error = 0;
  while (done < size) {
    const ssize_t w = ::pwrite(fd, bytes + done, size - done, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error = w < 0 ? errno : EIO;
      break;
    }
    done += static_cast<size_t>(w);
  }
  *written = done;
  return error;
}

}  // namespace trainbench::stage
