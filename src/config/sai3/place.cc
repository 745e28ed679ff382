#include "config/sai3/place.h"

namespace trainbench::config::sai3 {
namespace {

// Whether `node` is `tree` or lies inside it.
bool Within(const YAML::Node& tree, const YAML::Node& node) {
  if (tree.is(node)) return true;
  if (tree.IsMap())
    for (const auto& entry : tree)
      if (Within(entry.second, node)) return true;
  if (tree.IsSequence())
    for (const auto& item : tree)
      if (Within(item, node)) return true;
  return false;
}

}  // namespace

std::string PlaceOf(const Source& source, const YAML::Node& node) {
  for (const auto& [value, text] : source.overrides)
    if (Within(value, node)) return fmt::format("{}: override '{}'", source.path, text);
  const int line = node.Mark().line;
  return line >= 0 ? fmt::format("{}:{}", source.path, line + 1) : source.path;
}

void Bad(const Source& source, const YAML::Node& node, const std::string& path,
         const std::string& why) {
  throw UsageError(fmt::format("{}: {}: {}", PlaceOf(source, node), path, why));
}

std::string Text(const YAML::Node& node, const std::string& path, const Source& source) {
  return Read(node, path, source, "a single value", [](const std::string& v) { return v; });
}

}  // namespace trainbench::config::sai3
