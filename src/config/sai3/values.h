// The forms of a sai3-bench config's values: counts with sai3-bench's separators, booleans,
// numbers, sizes and size distributions, and the URIs trainbench can reach. The scalar
// readers throw std::invalid_argument (place.h's Read names the key); the node readers throw
// UsageError naming the place.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>

#include "config/sai3/place.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::config::sai3 {

inline constexpr uint64_t kMaxObjects = 100000000;        // per ensure_objects entry
inline constexpr uint64_t kMaxObjectBytes = 64ull << 30;  // one object

// A whole number with sai3-bench's separators: "614400", "1,000,000", "500_000", "250 000".
uint64_t Count(const std::string& text);
bool Bool(const std::string& text);  // true or false
double Number(const std::string& text);

// A size (config::Sai3Bytes) of at most 64 GiB.
uint64_t Size(const YAML::Node& node, const std::string& path, const Source& source);
// size_spec / size_distribution: 1048576, {fixed: N}, {uniform: {min, max}},
// {type: fixed|uniform|lognormal, min, max, mean, std_dev}.
Sai3Sizes Sizes(const YAML::Node& node, const std::string& path, const Source& source);

// `uri` with a '/' at the end.
std::string WithSlash(std::string uri);
// Refuses a URI of a scheme trainbench does not open (a path, file:// and s3:// pass).
void CheckScheme(const std::string& uri, const std::string& path, const Source& source,
                 const YAML::Node& node);

}  // namespace trainbench::config::sai3
