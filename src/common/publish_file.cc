#include "common/publish_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace trainbench {

int PublishFile(const std::string& temp, const std::string& final_path) {
  if (::link(temp.c_str(), final_path.c_str()) == 0) {
    // The final name holds the whole file already; a temporary name left by a failed unlink
    // is a partial-looking leftover that datagen's cleanup removes.
    ::unlink(temp.c_str());
    return 0;
  }
  // EEXIST: replacing a file must stay atomic, which only rename does. The others: a file
  // system without hard links (FAT, some FUSE and SMB mounts), or a limit on links.
  const int link_error = errno;
  if (link_error != EEXIST && link_error != EPERM && link_error != ENOTSUP &&
      link_error != EOPNOTSUPP && link_error != ENOSYS && link_error != EMLINK &&
      link_error != EXDEV && link_error != EACCES)
    return link_error;
  return std::rename(temp.c_str(), final_path.c_str()) == 0 ? 0 : errno;
}

}  // namespace trainbench
