#include "config/yaml_file.h"

#include <fmt/format.h>

#include "common/error.h"

namespace trainbench::config {

YAML::Node LoadYamlFile(const std::string& path, const std::string& what) {
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw UsageError(fmt::format("cannot read {} '{}'", what, path));
  } catch (const YAML::Exception& e) {
    throw UsageError(fmt::format("{}:{}: invalid YAML: {}", path, e.mark.line + 1, e.msg));
  }
}

}  // namespace trainbench::config
