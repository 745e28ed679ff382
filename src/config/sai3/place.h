// Where a sai3-bench config's value came from (the file's line, or the command line's
// override that set it) and the errors that name it: "FILE:LINE: KEY: WHAT". Every reader of
// the config (walk.cc, values.cc, prepare.cc, workload_ops.cc, load.cc) reports through these.
#pragma once

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "config/schema.h"

namespace trainbench::config::sai3 {

// The config's file, and the values the command line's overrides put into its tree.
struct Source {
  std::string path;
  std::vector<std::pair<YAML::Node, std::string>> overrides;  // value, the override as shown
};

// "FILE:LINE", or "FILE: override 'KEY=VALUE'" for a value the command line set (whose own
// YAML would otherwise be cited as the file's line 1).
std::string PlaceOf(const Source& source, const YAML::Node& node);

// Throws UsageError "PLACE: PATH: WHY".
[[noreturn]] void Bad(const Source& source, const YAML::Node& node, const std::string& path,
                      const std::string& why);

// One key's value through `parse` (which throws std::invalid_argument with the reason), its
// errors naming the place and key and what was `expected`.
template <typename F>
auto Read(const YAML::Node& node, const std::string& path, const Source& source,
          const char* expected, F parse) {
  try {
    return parse(ScalarText(node));
  } catch (const std::invalid_argument& e) {
    throw UsageError(
        fmt::format("{}: {}: expected {}; {}", PlaceOf(source, node), path, expected, e.what()));
  } catch (const std::out_of_range&) {
    throw UsageError(
        fmt::format("{}: {}: expected {}; out of range", PlaceOf(source, node), path, expected));
  }
}

// A single value as text.
std::string Text(const YAML::Node& node, const std::string& path, const Source& source);

}  // namespace trainbench::config::sai3
