// A YAML file a command takes (a mix file, a sai3-bench config) read whole: refused
// (UsageError, exit 2) when it cannot be read, naming `what` it was to be, or parsed, naming
// the file and line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace trainbench::config {

// `what`: "the mix file", "sai3-bench config".
YAML::Node LoadYamlFile(const std::string& path, const std::string& what);

}  // namespace trainbench::config
