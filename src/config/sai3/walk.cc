#include "config/sai3/walk.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/strings.h"
#include "config/sai3/sai3_config.h"

namespace trainbench::config::sai3 {
namespace {

const Sai3Key* FindSai3Key(const std::string& path) {
  for (const auto& k : Sai3Keys())
    if (path == k.path) return &k;
  return nullptr;
}

[[noreturn]] void UnknownSai3Key(const std::string& path, const YAML::Node& at,
                                 const Source& source) {
  std::vector<std::string> names;
  for (const auto& k : Sai3Keys()) names.push_back(k.path);
  std::string message = fmt::format("{}: unknown sai3-bench key '{}'", PlaceOf(source, at), path);
  const std::string nearest = NearestMatch(path, names);
  if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
  throw UsageError(message + "; docs/sai3-bench.md lists every key trainbench knows");
}

}  // namespace

void WalkKeys(const YAML::Node& node, const std::string& prefix, const Source& source,
              std::vector<std::string>& ignored) {
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const Sai3Key* key = FindSai3Key(path);
    if (!key) UnknownSai3Key(path, entry.first, source);
    const std::string status = key->status;
    const YAML::Node& value = entry.second;
    if (status == "refused")
      throw UsageError(
          fmt::format("{}: {}: not supported: {}", PlaceOf(source, entry.first), path, key->why));
    if (status == "ignored") {
      ignored.push_back(fmt::format("{} ({})", path, key->why));
    } else if (status == "group" && value.IsMap()) {
      WalkKeys(value, path, source, ignored);
    } else if (status == "list" && value.IsSequence()) {
      for (const auto& item : value)
        if (item.IsMap()) WalkKeys(item, path + "[]", source, ignored);
    }
  }
}

}  // namespace trainbench::config::sai3
