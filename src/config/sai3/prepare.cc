#include "config/sai3/prepare.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"
#include "common/strings.h"
#include "config/sai3/values.h"

namespace trainbench::config::sai3 {
namespace {

constexpr uint64_t kMaxFolders = 10000000;  // directory_structure

void ReadObjectSets(const YAML::Node& list, const FileTargets& file, Sai3Config& c,
                    const Source& source) {
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    const std::string at = fmt::format("prepare.ensure_objects[{}]", i);
    if (!e.IsMap()) Bad(source, e, at, "expected a map (base_uri, count, sizes)");
    Sai3ObjectSet set;
    set.base_uri = c.target;
    if (e["base_uri"]) {
      set.base_uri = WithSlash(Read(e["base_uri"], at + ".base_uri", source, "a URI",
                                    [](const std::string& s) { return s; }));
      // A base under the file's target follows a target given on the command line.
      if (c.target != file.target && i < file.bases.size() && set.base_uri == file.bases[i] &&
          StartsWith(set.base_uri, file.target))
        set.base_uri = c.target + set.base_uri.substr(file.target.size());
      CheckScheme(set.base_uri, at + ".base_uri", source, e["base_uri"]);
      if (!StartsWith(set.base_uri, c.target))
        Bad(source, e["base_uri"], at + ".base_uri",
            fmt::format("'{}' is not under target '{}': the workload's paths are relative to "
                        "the target, so give a base_uri under it",
                        set.base_uri, c.target));
    }
    if (!e["count"]) Bad(source, e, at, "count is missing: how many objects to prepare");
    set.count = Read(e["count"], at + ".count", source, "a whole number", Count);
    if (set.count > kMaxObjects)
      Bad(source, e["count"], at + ".count",
          fmt::format("{}: at most {} objects per entry", set.count, kMaxObjects));
    if (e["size_spec"]) {
      set.sizes = Sizes(e["size_spec"], at + ".size_spec", source);
    } else {
      set.sizes.min = e["min_size"] ? Size(e["min_size"], at + ".min_size", source) : 1048576;
      set.sizes.max = e["max_size"] ? Size(e["max_size"], at + ".max_size", source) : set.sizes.min;
      if (set.sizes.min > set.sizes.max)
        Bad(source, e, at,
            fmt::format("min_size {} is above max_size {}", set.sizes.min, set.sizes.max));
      if (set.sizes.min != set.sizes.max) set.sizes.type = "uniform";
    }
    if (e["fill"]) {
      const std::string fill = Text(e["fill"], at + ".fill", source);
      if (fill != "random" && fill != "zero")
        Bad(source, e["fill"], at + ".fill", fmt::format("'{}': give random or zero", fill));
      set.zero_fill = fill == "zero";
    }
    for (const char* factor : {"dedup_factor", "compress_factor"})
      if (e[factor]) {
        const double v = Read(e[factor], at + "." + factor, source, "a number", Number);
        if (v != 1)
          Bad(source, e[factor], at + "." + factor,
              fmt::format("{}: trainbench writes unique, incompressible bytes: give 1", v));
      }
    if (e["use_multi_endpoint"] &&
        Read(e["use_multi_endpoint"], at + ".use_multi_endpoint", source, "true or false", Bool))
      Bad(source, e["use_multi_endpoint"], at + ".use_multi_endpoint",
          "trainbench runs against one target: give false");
    for (const auto& other : c.ensure_objects)
      if (other.base_uri == set.base_uri)
        Bad(source, e, at,
            fmt::format("a second set under '{}': give each set its own base_uri (their "
                        "objects would share names)",
                        set.base_uri));
    c.ensure_objects.push_back(set);
  }
}

void ReadTree(const YAML::Node& t, Sai3Config& c, const Source& source) {
  const std::string at = "prepare.directory_structure";
  auto whole = [&](const char* key, uint64_t low, uint64_t high) {
    if (!t[key]) Bad(source, t, at, fmt::format("{} is missing", key));
    const uint64_t v = Read(t[key], at + "." + key, source, "a whole number", Count);
    if (v < low || v > high)
      Bad(source, t[key], at + "." + key, fmt::format("{}: give {} to {}", v, low, high));
    return v;
  };
  c.tree.width = whole("width", 1, 1000000);
  c.tree.depth = whole("depth", 1, 16);
  c.tree.files_per_dir = whole("files_per_dir", 1, kMaxObjects);
  if (t["distribution"]) {
    const std::string d = Text(t["distribution"], at + ".distribution", source);
    if (d != "bottom" && d != "all")
      Bad(source, t["distribution"], at + ".distribution",
          fmt::format("'{}': give bottom (files in the leaves) or all (in every folder)", d));
    c.tree.bottom = d == "bottom";
  }
  if (t["dir_mask"]) c.tree.dir_mask = Text(t["dir_mask"], at + ".dir_mask", source);
  double folders = 0;
  for (uint64_t level = 1; level <= c.tree.depth; ++level)
    folders += std::pow(static_cast<double>(c.tree.width), static_cast<double>(level));
  if (folders > static_cast<double>(kMaxFolders))
    Bad(source, t, at,
        fmt::format("width {} and depth {} make {:.0f} folders: at most {}", c.tree.width,
                    c.tree.depth, folders, kMaxFolders));
}

// Every object set fits in the tree: its folders (the leaves, or all with distribution: all)
// times files_per_dir.
void CheckTreeHolds(const Sai3Config& c, const Source& source) {
  if (c.tree.width == 0) return;
  double folders = 0;
  for (uint64_t level = 1; level <= c.tree.depth; ++level)
    if (!c.tree.bottom || level == c.tree.depth)
      folders += std::pow(static_cast<double>(c.tree.width), static_cast<double>(level));
  for (size_t i = 0; i < c.ensure_objects.size(); ++i)
    if (static_cast<double>(c.ensure_objects[i].count) >
        folders * static_cast<double>(c.tree.files_per_dir))
      throw UsageError(fmt::format(
          "{}: prepare.ensure_objects[{}].count {} is more than the directory_structure holds "
          "({:.0f} folders x files_per_dir {}): raise files_per_dir or lower count",
          source.path, i, c.ensure_objects[i].count, folders, c.tree.files_per_dir));
}

}  // namespace

FileTargets ReadFileTargets(const YAML::Node& root) {
  FileTargets file;
  file.target =
      root["target"] && root["target"].IsScalar() ? WithSlash(root["target"].Scalar()) : "";
  if (root["prepare"] && root["prepare"]["ensure_objects"] &&
      root["prepare"]["ensure_objects"].IsSequence())
    for (const auto& e : root["prepare"]["ensure_objects"])
      file.bases.push_back(e.IsMap() && e["base_uri"] && e["base_uri"].IsScalar()
                               ? WithSlash(e["base_uri"].Scalar())
                               : "");
  return file;
}

void ReadPrepare(const YAML::Node& p, const FileTargets& file, Sai3Config& c,
                 const Source& source) {
  if (p && p.IsMap()) {
    if (p["cleanup_only"] &&
        Read(p["cleanup_only"], "prepare.cleanup_only", source, "true or false", Bool))
      Bad(source, p["cleanup_only"], "prepare.cleanup_only",
          "not supported: trainbench's cleanup removes what its own prepare wrote, at the end of "
          "the same run (prepare.cleanup=true)");
    if (p["cleanup"])
      c.cleanup = Read(p["cleanup"], "prepare.cleanup", source, "true or false", Bool);
    if (p["force_overwrite"])
      c.force_overwrite =
          Read(p["force_overwrite"], "prepare.force_overwrite", source, "true or false", Bool);
    if (p["ensure_objects"]) {
      if (!p["ensure_objects"].IsSequence())
        Bad(source, p["ensure_objects"], "prepare.ensure_objects",
            "expected a list of object sets");
      ReadObjectSets(p["ensure_objects"], file, c, source);
    }
    if (p["directory_structure"] && p["directory_structure"].IsMap())
      ReadTree(p["directory_structure"], c, source);
  }
  CheckTreeHolds(c, source);
}

}  // namespace trainbench::config::sai3
