// The relative path a tar member may be written at: refuses any name that could land outside
// the destination folder, which an archive from the network must never be trusted not to do.
#pragma once

#include <string>
#include <string_view>

namespace trainbench::stage {

// `name` with "." and empty components dropped ("./a//b/" -> "a/b"; "./" -> ""). Throws
// RuntimeError naming the member and `place` when it is absolute, has a ".." component or a
// NUL byte.
std::string SafeMemberPath(std::string_view name, std::string_view place);

}  // namespace trainbench::stage
