// A sai3-bench config's `prepare` section: the object sets (ensure_objects) and the folder
// tree they go into (directory_structure), with cleanup and force_overwrite; each value
// checked, the sets against the target and the tree against the objects it must hold.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "config/sai3/place.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::config::sai3 {

// The target and ensure_objects' base_uris as the file gives them, before the overrides: a
// base under the file's target follows a target the command line moves.
struct FileTargets {
  std::string target;
  std::vector<std::string> bases;  // "" where an entry has none
};
FileTargets ReadFileTargets(const YAML::Node& root);

// `prepare`: the section (may be absent); c.target is read already.
void ReadPrepare(const YAML::Node& prepare, const FileTargets& file, Sai3Config& c,
                 const Source& source);

}  // namespace trainbench::config::sai3
