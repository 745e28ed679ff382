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
  throw IoError(fmt::format("{} '{}': {}{}", what, path, std::strerror(error_number), hint),
                error_number);
}

}  // namespace trainbench::storage
