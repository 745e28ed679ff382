// A sai3-bench config's `workload`: the weighted list of ops (get, put, stat, list, delete)
// the workers choose among, each op's path, weight and, for a put, its sizes.
#pragma once

#include <yaml-cpp/yaml.h>

#include "config/sai3/place.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::config::sai3 {

// `list`: the workload's list; c.duration_s is read already (a zero duration needs no weight).
void ReadWorkload(const YAML::Node& list, Sai3Config& c, const Source& source);

}  // namespace trainbench::config::sai3
