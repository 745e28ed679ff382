// Checks every key of a sai3-bench config's tree against the key table (keys.cc): an unknown
// key is refused naming the nearest known one, a refused key with the reason; the keys
// trainbench ignores are collected for one warning. Values are read elsewhere (load.cc).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "config/sai3/place.h"

namespace trainbench::config::sai3 {

// `node`: a map at `prefix` ("" at the top, "workload[]" for a list's entries). Adds
// "PATH (WHY)" to `ignored` for each ignored key.
void WalkKeys(const YAML::Node& node, const std::string& prefix, const Source& source,
              std::vector<std::string>& ignored);

}  // namespace trainbench::config::sai3
