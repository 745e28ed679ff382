// The table of every workload key trainbench knows: its dotted path, the expected
// form (for error messages), whether trainbench acts on it, and how to read it into
// and write it out of WorkloadConfig. One table drives parsing, validation, warnings,
// `trainbench config` output and the README's key list.
#pragma once

#include <yaml-cpp/yaml.h>

#include <functional>
#include <string>
#include <vector>

#include "config/workload.h"

namespace trainbench::config {

struct KeySpec {
  std::string path;      // "dataset.num_files_train"
  std::string expected;  // "an integer >= 0", for errors
  bool acted_on = true;  // false: a DLIO key accepted with a warning
  bool any_map = false;  // a free-form map (storage.storage_options)
  // Reads `node` into the config; throws std::invalid_argument with the reason.
  std::function<void(WorkloadConfig&, const YAML::Node&)> parse;
  // The resolved value, for `trainbench config`; null for keys not acted on.
  std::function<YAML::Node(const WorkloadConfig&)> emit;
};

const std::vector<KeySpec>& Schema();
const KeySpec* FindKey(const std::string& path);
// Old DLIO spellings mapped to the current key (record_length -> record_length_bytes).
std::string CanonicalKey(const std::string& path);

// A YAML scalar's text; throws std::invalid_argument ("expected a single value, not a map")
// for a map or a list, which the loaders turn into an error naming the key.
std::string ScalarText(const YAML::Node& node);

}  // namespace trainbench::config
