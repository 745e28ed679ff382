#include "config/override.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "common/error.h"
#include "common/secrets.h"
#include "common/strings.h"

namespace trainbench::config {

Override ParseOverride(const std::string& text, const std::string& examples) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(fmt::format("override '{}' is not key=value ({})",
                                 IsSecretName(text) ? std::string(kRedacted) : text, examples));
  Override o;
  o.shown =
      IsSecretName(text.substr(0, eq)) ? text.substr(0, eq) + "=" + std::string(kRedacted) : text;
  o.key = text.substr(0, eq);
  while (!o.key.empty() && o.key.front() == '+') o.key.erase(0, 1);
  try {
    o.value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw UsageError(fmt::format("override '{}': the value is not valid YAML: {}", o.shown, e.msg));
  }
  return o;
}

namespace {

// The entry of `list` that the key's part `parts[i]` names (or, not a number, the list's one
// entry, which `part` then descends into); pushes it onto `chain`. Whether `part` was an index.
bool StepIntoList(YAML::Node list, const std::vector<std::string>& parts, size_t i,
                  const Override& o, std::vector<YAML::Node>& chain) {
  const std::string& part = parts[i];
  const bool numeric = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
  size_t index = 0;
  if (numeric) {
    index = std::stoul(part);
  } else if (list.size() != 1) {
    const std::string before =
        fmt::format("{}", fmt::join(parts.begin(), parts.begin() + static_cast<long>(i), "."));
    throw UsageError(
        fmt::format("override '{}': '{}' is a list of {}: name the entry, e.g. {}.0.{}", o.shown,
                    before, list.size(), before, part));
  }
  if (numeric && index == list.size()) {  // the next index adds an entry
    list.push_back(YAML::Node(YAML::NodeType::Map));
  } else if (index >= list.size()) {
    throw UsageError(fmt::format("override '{}': the list has {} entries (index {} adds one)",
                                 o.shown, list.size(), list.size()));
  }
  chain.push_back(list[index]);
  if (numeric && i + 1 == parts.size())
    throw UsageError(fmt::format("override '{}': name a key of the entry", o.shown));
  return numeric;
}

}  // namespace

YAML::Node SetOverride(YAML::Node root, const Override& o) {
  // Copies of handles, never assignments: Node's operator= writes through the handle.
  std::vector<YAML::Node> chain{root};
  const auto parts = Split(o.key, '.');
  for (size_t i = 0; i < parts.size(); ++i) {
    if (chain.back().IsSequence() && StepIntoList(chain.back(), parts, i, o, chain)) continue;
    YAML::Node map = chain.back();
    if (i + 1 == parts.size()) {
      map[parts[i]] = o.value;
      break;
    }
    if (!map[parts[i]] || map[parts[i]].IsNull()) map[parts[i]] = YAML::Node(YAML::NodeType::Map);
    chain.push_back(map[parts[i]]);
  }
  return o.value;
}

}  // namespace trainbench::config
