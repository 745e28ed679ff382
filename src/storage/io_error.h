// One shape for I/O errors on local files: "<what> '<path>': <strerror>; <what to do>".
#pragma once

#include <string>

namespace trainbench::storage {

[[noreturn]] void ThrowIoError(const std::string& what, const std::string& path, int error_number);

}  // namespace trainbench::storage
