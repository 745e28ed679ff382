// The objects a sai3-bench config's prepare makes: each prepare.ensure_objects set's names, as
// sai3-bench's prepare gives them ("prepared-00000042.dat", in the directory_structure's
// folders, object i in folder i mod folders), and sizes drawn from its size_spec, seeded by
// the set and the object's number so every rank and every re-run plans the same objects.
// Pure arithmetic on the config; thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/random.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::ops {

struct PlannedObject {
  std::string path;  // relative to the set's base_uri
  uint64_t size = 0;
};

// A size drawn from `sizes` (fixed, uniform, or lognormal clamped to [min, max]).
uint64_t DrawObjectSize(const config::Sai3Sizes& sizes, Random& random);

// The folder of the tree's `index`-th folder that holds objects ("" with no tree).
std::string TreeFolder(const config::Sai3Tree& tree, uint64_t index);
// How many folders hold objects (1 with no tree).
uint64_t TreeFolders(const config::Sai3Tree& tree);

std::vector<PlannedObject> PlanObjectSet(const config::Sai3Config& config, size_t set);

// What decides a set's objects: two prepares with the same key make the same objects.
nlohmann::json ObjectSetKey(const config::Sai3Config& config, size_t set);

}  // namespace trainbench::ops
