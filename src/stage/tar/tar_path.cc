#include "stage/tar/tar_path.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/strings.h"

namespace trainbench::stage {

std::string SafeMemberPath(std::string_view name, std::string_view place) {
  const auto refuse = [&](std::string_view why) {
    return RuntimeError(fmt::format(
        "tar member '{}' at {}: {}, so it would be written outside the destination; refusing "
        "to extract this archive (check where it came from; extract it by hand only if you "
        "trust it)",
        Printable(name), place, why));
  };
  if (name.find('\0') != std::string_view::npos) throw refuse("its name has a NUL byte");
  if (name.starts_with('/')) throw refuse("its path is absolute");
  std::string path;
  path.reserve(name.size());
  size_t at = 0;
  while (at <= name.size()) {
    size_t slash = name.find('/', at);
    if (slash == std::string_view::npos) slash = name.size();
    const std::string_view component = name.substr(at, slash - at);
    if (component == "..") throw refuse("its path has a '..' component");
    if (!component.empty() && component != ".") {
      if (!path.empty()) path.push_back('/');
      path.append(component);
    }
    at = slash + 1;
  }
  return path;
}

}  // namespace trainbench::stage
