#include "storage/io_error.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace trainbench::storage {

void ThrowIoError(const std::string& what, const std::string& path, int error_number) {
  std::string hint;
  if (error_number == ENOSPC || error_number == EDQUOT)
    hint = "; free space on that file system or write somewhere else";
  if (error_number == EACCES || error_number == EPERM || error_number == EROFS)
    hint = "; fix the permissions or write somewhere writable";
  // Not the file's fault: the process (EMFILE) or the system (ENFILE) has no descriptor left.
  if (error_number == EMFILE)
    hint = "; this process reached its open-file limit: raise it (ulimit -n)";
  if (error_number == ENFILE)
    hint =
        "; the system's open-file table is full: close other programs' files, or raise fs.file-max";
  throw IoError(fmt::format("{} '{}': {}{}", what, path, std::strerror(error_number), hint),
                error_number);
}

}  // namespace trainbench::storage
