#include "common/page_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "common/error.h"

namespace trainbench {

void DropPageCache() {
  ::sync();  // drop_caches leaves dirty pages alone
  constexpr const char* kPath = "/proc/sys/vm/drop_caches";
  const int fd = ::open(kPath, O_WRONLY | O_CLOEXEC);
  // 3: the page cache, dentries and inodes.
  const bool written = fd >= 0 && ::write(fd, "3\n", 2) == 2;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!written)
    throw RuntimeError(std::string("--drop-caches: cannot write ") + kPath + ": " +
                       std::strerror(error) +
                       "; run as root (in a container: privileged), or leave --drop-caches off "
                       "and make the dataset 5x the hosts' memory");
}

}  // namespace trainbench
