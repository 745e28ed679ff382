// The one grammar of the command line's overrides, for both configuration languages (a DLIO
// workload's and a sai3-bench config's): KEY=VALUE, KEY a dotted path (leading '+'s, Hydra's
// "add" marks, dropped), VALUE YAML (16, s3://b/p, {a: 1}, [1, 2]). An override sets its
// value into a YAML tree, which each language then walks as it walks a file's: through maps,
// and through lists by index (workload.0.op), the index left out where the list has one
// entry, the index after the last adding an entry (workload.1.op=put). Errors are
// UsageError (exit 2) quoting the override, a secret's value never among what they show.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace trainbench::config {

struct Override {
  std::string shown;  // the override as messages quote it: a secret's value <redacted>
  std::string key;    // the dotted path, leading '+'s dropped
  YAML::Node value;   // null for "KEY="
};

// `examples`: how an override of this language looks, for the message of text that is not
// KEY=VALUE ("example: dataset.num_files_train=16").
Override ParseOverride(const std::string& text, const std::string& examples);

// Sets `o.value` at `o.key` under `root` (a map), making the maps on the way. Returns the
// value's node, now in the tree (to tell later which values came from the command line).
YAML::Node SetOverride(YAML::Node root, const Override& o);

}  // namespace trainbench::config
