#include "config/sai3_config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "common/error.h"
#include "common/strings.h"
#include "common/units.h"
#include "config/schema.h"
#include "config/workload_yaml.h"

namespace trainbench::config {
namespace {

// The config's file, and the values the command line's overrides put into its tree.
struct Sai3Source {
  std::string path;
  std::vector<std::pair<YAML::Node, std::string>> overrides;  // value, "key=value"
};

}  // namespace
}  // namespace trainbench::config

// A source prints as its file's path, as the plain path did in messages.
template <>
struct fmt::formatter<trainbench::config::Sai3Source> : fmt::formatter<std::string_view> {
  auto format(const trainbench::config::Sai3Source& s, fmt::format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(s.path, ctx);
  }
};

namespace trainbench::config {
namespace {

constexpr uint64_t kMaxObjects = 100000000;         // per ensure_objects entry
constexpr uint64_t kMaxObjectBytes = 64ull << 30;   // one object
constexpr uint64_t kMaxFolders = 10000000;          // directory_structure
constexpr double kMaxDurationS = 30 * 24 * 3600.0;  // a month
constexpr const char* kAgents =
    "sai3-bench's agents and controller (gRPC, SSH, containers): "
    "trainbench's ranks are mpirun's";

const std::vector<Sai3Key>& Table() {
  static const std::vector<Sai3Key> kKeys = {
      {"target", "supported", ""},
      {"duration", "supported", ""},
      {"concurrency", "supported", ""},
      {"op_log_path", "supported", ""},
      {"page_cache_mode", "supported", ""},
      {"dynamic_put_pool", "ignored",
       "GETs choose among the objects there when the workload starts"},
      {"cache_checkpoint_interval_secs", "ignored", "sai3-bench's agents' KV cache"},
      {"multi_endpoint", "refused",
       "trainbench runs against one target: give one endpoint (--s3-option endpoint_url=...)"},
      {"perf_log", "group", ""},
      {"perf_log.enabled", "supported", ""},
      {"perf_log.interval", "supported", ""},
      {"perf_log.path", "ignored", "the series goes to timeseries.csv in the results folder"},
      {"prepare", "group", ""},
      {"prepare.ensure_objects", "list", ""},
      {"prepare.ensure_objects[].base_uri", "supported", ""},
      {"prepare.ensure_objects[].count", "supported", ""},
      {"prepare.ensure_objects[].min_size", "supported", ""},
      {"prepare.ensure_objects[].max_size", "supported", ""},
      {"prepare.ensure_objects[].size_spec", "supported", ""},
      {"prepare.ensure_objects[].fill", "supported", ""},
      {"prepare.ensure_objects[].dedup_factor", "supported", ""},
      {"prepare.ensure_objects[].compress_factor", "supported", ""},
      {"prepare.ensure_objects[].use_multi_endpoint", "supported", ""},
      {"prepare.directory_structure", "group", ""},
      {"prepare.directory_structure.width", "supported", ""},
      {"prepare.directory_structure.depth", "supported", ""},
      {"prepare.directory_structure.files_per_dir", "supported", ""},
      {"prepare.directory_structure.distribution", "supported", ""},
      {"prepare.directory_structure.dir_mask", "supported", ""},
      {"prepare.cleanup", "supported", ""},
      {"prepare.force_overwrite", "supported", ""},
      {"prepare.cleanup_only", "supported", ""},
      {"prepare.prepare_strategy", "ignored",
       "trainbench prepares with `concurrency` writers over all sets at once"},
      {"prepare.skip_verification", "ignored",
       "prepare keeps a journal and skips the objects already whole (resume), never lists first"},
      {"prepare.post_prepare_delay", "ignored", "the workload starts once every rank prepared"},
      {"prepare.cleanup_mode", "ignored", "cleanup removes only what prepare wrote"},
      {"prepare.key_prefix_shards", "refused",
       "trainbench names objects as sai3-bench's prepare does without shards"},
      {"workload", "list", ""},
      {"workload[].op", "supported", ""},
      {"workload[].path", "supported", ""},
      {"workload[].weight", "supported", ""},
      {"workload[].object_size", "supported", ""},
      {"workload[].size_distribution", "supported", ""},
      {"workload[].use_multi_endpoint", "supported", ""},
      {"workload[].concurrency", "ignored",
       "one pool of `concurrency` workers does every op, each choosing by weight"},
      {"distributed", "group", ""},
      {"distributed.agents", "supported", ""},
      {"distributed.shared_filesystem", "ignored",
       "every rank writes its share of the objects into the one target"},
      {"distributed.tree_creation_mode", "ignored",
       "each rank prepares its 1/N of the objects, folders with them"},
      {"distributed.path_selection", "ignored", "every rank's GETs choose among all objects"},
      {"distributed.partition_overlap", "ignored", "every rank's GETs choose among all objects"},
      {"distributed.path_template", "ignored", "every rank writes into the one target"},
      {"distributed.start_delay", "ignored", "the ranks start together after a barrier"},
      {"distributed.grpc_keepalive_interval", "ignored", kAgents},
      {"distributed.grpc_keepalive_timeout", "ignored", kAgents},
      {"distributed.agent_ready_timeout", "ignored", kAgents},
      {"distributed.barrier_sync", "ignored", "the ranks meet at MPI barriers"},
      {"distributed.ssh", "ignored", kAgents},
      {"distributed.deployment", "ignored", kAgents},
      {"distributed.kv_cache_dir", "ignored", "sai3-bench's agents' KV cache"},
      {"distributed.stages", "ignored",
       "trainbench runs prepare, then the workload for `duration`, then cleanup"},
      {"output", "group", ""},
      {"output.folder", "supported", ""},
  };
  return kKeys;
}

const Sai3Key* Find(const std::string& path) {
  for (const auto& k : Table())
    if (path == k.path) return &k;
  return nullptr;
}

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

// Where a value came from: the config's line, or the command line's override that set it
// (whose own YAML would otherwise be cited as the config's line 1).
std::string PlaceOf(const Sai3Source& source, const YAML::Node& node) {
  for (const auto& [value, text] : source.overrides)
    if (Within(value, node)) return fmt::format("{}: override '{}'", source.path, text);
  const int line = node.Mark().line;
  return line >= 0 ? fmt::format("{}:{}", source.path, line + 1) : source.path;
}

// Checks every key under `node` against the table; collects the ignored ones.
void Walk(const YAML::Node& node, const std::string& prefix, const Sai3Source& source,
          std::vector<std::string>& ignored) {
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const Sai3Key* key = Find(path);
    if (!key) {
      std::vector<std::string> names;
      for (const auto& k : Table()) names.push_back(k.path);
      std::string message =
          fmt::format("{}: unknown sai3-bench key '{}'", PlaceOf(source, entry.first), path);
      const std::string nearest = NearestMatch(path, names);
      if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
      throw UsageError(message + "; docs/sai3-bench.md lists every key trainbench knows");
    }
    const std::string status = key->status;
    const YAML::Node& value = entry.second;
    if (status == "refused")
      throw UsageError(
          fmt::format("{}: {}: not supported: {}", PlaceOf(source, entry.first), path, key->why));
    if (status == "ignored") {
      ignored.push_back(fmt::format("{} ({})", path, key->why));
    } else if (status == "group" && value.IsMap()) {
      Walk(value, path, source, ignored);
    } else if (status == "list" && value.IsSequence()) {
      for (const auto& item : value)
        if (item.IsMap()) Walk(item, path + "[]", source, ignored);
    }
  }
}

// Applies "a.b.0.c=value" to the tree; a list index may be left out where the list has one
// entry, and the index after the last adds an entry (workload.1.op=put).
YAML::Node ApplyOverride(YAML::Node root, const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(fmt::format(
        "override '{}' is not key=value (examples: duration=2s, prepare.ensure_objects.0.count=64)",
        text));
  std::string key = text.substr(0, eq);
  while (!key.empty() && key.front() == '+') key.erase(0, 1);
  YAML::Node value;
  try {
    value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw UsageError(fmt::format("override '{}': the value is not valid YAML: {}", text, e.msg));
  }
  std::vector<YAML::Node> chain{root};
  const auto parts = Split(key, '.');
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    YAML::Node here = chain.back();
    const bool last = i + 1 == parts.size();
    if (here.IsSequence()) {
      size_t index = 0;
      const bool numeric =
          !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
      if (numeric) {
        index = std::stoul(part);
      } else if (here.size() != 1) {
        throw UsageError(fmt::format(
            "override '{}': '{}' is a list of {}: name the entry, e.g. {}.0.{}", text,
            fmt::join(parts.begin(), parts.begin() + static_cast<long>(i), "."), here.size(),
            fmt::join(parts.begin(), parts.begin() + static_cast<long>(i), "."), part));
      }
      if (numeric && index == here.size()) {  // the next index adds an entry
        here.push_back(YAML::Node(YAML::NodeType::Map));
      } else if (index >= here.size()) {
        throw UsageError(fmt::format("override '{}': the list has {} entries (index {} adds one)",
                                     text, here.size(), here.size()));
      }
      chain.push_back(here[index]);
      if (numeric) {
        if (last) throw UsageError(fmt::format("override '{}': name a key of the entry", text));
        continue;
      }
    }
    // A handle of its own: Node's operator= would overwrite the list with its entry.
    YAML::Node map = chain.back();
    if (last) {
      map[part] = value;
      return value;
    } else {
      if (!map[part] || map[part].IsNull()) map[part] = YAML::Node(YAML::NodeType::Map);
      chain.push_back(map[part]);
    }
  }
  return value;
}

// A whole number with sai3-bench's separators: "614400", "1,000,000", "500_000", "250 000".
uint64_t Count(const std::string& text) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != '_' && c != ' ') digits += c;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(fmt::format("'{}' is not a whole number", text));
  return std::stoull(digits);
}

bool Bool(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw std::invalid_argument(fmt::format("'{}' is not true or false", text));
}

double Number(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v))
    throw std::invalid_argument(fmt::format("'{}' is not a number", text));
  return v;
}

// One key's value through `parse`, its errors naming the file, line and key.
template <typename F>
auto Read(const YAML::Node& node, const std::string& path, const Sai3Source& source,
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

[[noreturn]] void Bad(const Sai3Source& source, const YAML::Node& node, const std::string& path,
                      const std::string& why) {
  throw UsageError(fmt::format("{}: {}: {}", PlaceOf(source, node), path, why));
}

std::string Text(const YAML::Node& node, const std::string& path, const Sai3Source& source) {
  return Read(node, path, source, "a single value", [](const std::string& v) { return v; });
}

uint64_t Size(const YAML::Node& node, const std::string& path, const Sai3Source& source) {
  const uint64_t v = Read(node, path, source, "a size (1048576, 32KB, 1MiB)", Sai3Bytes);
  if (v > kMaxObjectBytes) Bad(source, node, path, fmt::format("{} bytes: at most 64 GiB", v));
  return v;
}

// size_spec / size_distribution: 1048576, {fixed: N}, {uniform: {min, max}},
// {type: fixed|uniform|lognormal, min, max, mean, std_dev}.
Sai3Sizes Sizes(const YAML::Node& node, const std::string& path, const Sai3Source& source) {
  Sai3Sizes s;
  if (node.IsScalar()) {
    s.min = s.max = Size(node, path, source);
    return s;
  }
  if (!node.IsMap()) Bad(source, node, path, "expected a size or a map (type, min, max, ...)");
  if (node["fixed"]) {
    s.min = s.max = Size(node["fixed"], path + ".fixed", source);
    return s;
  }
  YAML::Node spec = node;
  if (node["uniform"]) {
    s.type = "uniform";
    spec = node["uniform"];
  } else if (node["lognormal"]) {
    s.type = "lognormal";
    spec = node["lognormal"];
  } else if (node["type"]) {
    s.type = Text(node["type"], path + ".type", source);
  }
  if (s.type != "fixed" && s.type != "uniform" && s.type != "lognormal")
    Bad(source, node, path + ".type",
        fmt::format("'{}': give fixed, uniform or lognormal", s.type));
  for (const auto& entry : spec) {
    const std::string k = entry.first.Scalar();
    const std::string p = path + "." + k;
    if (k == "min") {
      s.min = Size(entry.second, p, source);
    } else if (k == "max") {
      s.max = Size(entry.second, p, source);
    } else if (k == "mean") {
      s.mean = static_cast<double>(Size(entry.second, p, source));
    } else if (k == "std_dev") {
      s.std_dev = static_cast<double>(Size(entry.second, p, source));
    } else if (k == "size" || k == "value") {
      s.min = s.max = Size(entry.second, p, source);
    } else if (k != "type") {
      std::string message = fmt::format("unknown key '{}'", k);
      const std::string nearest = NearestMatch(k, {"type", "min", "max", "mean", "std_dev"});
      if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
      Bad(source, entry.first, path, message);
    }
  }
  if (s.type == "fixed" && s.min != s.max) s.max = s.min = std::max(s.min, s.max);
  if (s.type == "lognormal" && s.mean <= 0) Bad(source, node, path, "lognormal needs mean > 0");
  if (s.type == "lognormal" && s.max == 0) s.max = kMaxObjectBytes;
  if (s.min > s.max) Bad(source, node, path, fmt::format("min {} is above max {}", s.min, s.max));
  return s;
}

std::string WithSlash(std::string uri) {
  if (!uri.empty() && uri.back() != '/') uri += '/';
  return uri;
}

void CheckScheme(const std::string& uri, const std::string& path, const Sai3Source& source,
                 const YAML::Node& node) {
  const size_t colon = uri.find("://");
  if (colon == std::string::npos || StartsWith(uri, "file://") || StartsWith(uri, "s3://"))
    return;  // a path, or a URI trainbench opens
  Bad(source, node, path,
      fmt::format("'{}': trainbench reaches a file system (file:///path) or S3 "
                  "(s3://bucket/prefix/), not {}; override it: target=file:///mnt/fs/resnet50/",
                  uri, uri.substr(0, colon + 3)));
}

void ReadObjectSets(const YAML::Node& list, Sai3Config& c, const std::string& original_target,
                    const std::vector<std::string>& original_bases, const Sai3Source& source) {
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
      if (c.target != original_target && i < original_bases.size() &&
          set.base_uri == original_bases[i] && StartsWith(set.base_uri, original_target))
        set.base_uri = c.target + set.base_uri.substr(original_target.size());
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

void ReadTree(const YAML::Node& t, Sai3Config& c, const Sai3Source& source) {
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

void ReadWorkload(const YAML::Node& list, Sai3Config& c, const Sai3Source& source) {
  double total = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    const std::string at = fmt::format("workload[{}]", i);
    if (!e.IsMap()) Bad(source, e, at, "expected a map (op, path, weight)");
    Sai3Op op;
    if (!e["op"]) Bad(source, e, at, "op is missing: get, put, stat, list or delete");
    op.op = ToLower(Text(e["op"], at + ".op", source));
    if (op.op == "head") op.op = "stat";
    if (op.op != "get" && op.op != "put" && op.op != "stat" && op.op != "list" &&
        op.op != "delete") {
      std::string message = fmt::format("'{}': give get, put, stat, list or delete", op.op);
      const std::string nearest = NearestMatch(op.op, {"get", "put", "stat", "list", "delete"});
      if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
      Bad(source, e["op"], at + ".op", message);
    }
    if (!e["path"]) Bad(source, e, at, "path is missing: a glob or prefix under the target");
    op.path = Text(e["path"], at + ".path", source);
    if (op.path.find('{') != std::string::npos)
      Bad(source, e["path"], at + ".path", "brace expansions are not globs: use *");
    op.weight = e["weight"] ? Read(e["weight"], at + ".weight", source, "a number", Number) : 1;
    if (op.weight < 0 || op.weight > 1e9)
      Bad(source, e["weight"], at + ".weight", fmt::format("{}: give 0 to 1e9", op.weight));
    if (op.op == "put") {
      if (e["size_distribution"])
        op.sizes = Sizes(e["size_distribution"], at + ".size_distribution", source);
      else if (e["object_size"])
        op.sizes.min = op.sizes.max = Size(e["object_size"], at + ".object_size", source);
      else
        Bad(source, e, at, "a put needs object_size or size_distribution");
    }
    if (e["use_multi_endpoint"] &&
        Read(e["use_multi_endpoint"], at + ".use_multi_endpoint", source, "true or false", Bool))
      Bad(source, e["use_multi_endpoint"], at + ".use_multi_endpoint",
          "trainbench runs against one target: give false");
    total += op.weight;
    c.workload.push_back(op);
  }
  if (!c.workload.empty() && c.duration_s > 0 && total <= 0)
    Bad(source, list, "workload", "the weights add up to 0: give at least one op a weight");
}

}  // namespace

const std::vector<Sai3Key>& Sai3Keys() { return Table(); }

double Sai3Seconds(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  double unit = 1;
  if (!t.empty()) {
    switch (t.back()) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      default:
        unit = 0;
    }
    if (unit != 0) t.pop_back();
    if (unit == 0) unit = 1;
  }
  const double v = Number(t);
  if (v < 0) throw std::invalid_argument(fmt::format("'{}' is below 0", text));
  return v * unit;
}

uint64_t Sai3Bytes(const std::string& text) {
  const auto bytes = ParseByteSize(text, BareUnit::kDecimal);
  if (!bytes)
    throw std::invalid_argument(fmt::format(
        "'{}' is not a size (bytes, or with k/KB/KiB, m/MB/MiB, g/GB/GiB, t/TB)", text));
  return *bytes;
}

bool IsSai3Config(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    if (!root.IsMap()) return false;
    if (root["workload"] && root["workload"].IsSequence()) return true;
    return root["prepare"] && root["prepare"].IsMap() && root["prepare"]["ensure_objects"];
  } catch (const YAML::Exception&) {
    return false;  // the DLIO loader names the file and line
  }
}

LoadedSai3 LoadSai3Config(const std::string& path, const std::vector<std::string>& overrides) {
  LoadedSai3 loaded;
  Sai3Config& c = loaded.config;
  c.source = path;
  c.name = std::filesystem::path(path).stem().string();
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw UsageError(fmt::format("cannot read sai3-bench config '{}'", path));
  } catch (const YAML::Exception& e) {
    throw UsageError(fmt::format("{}:{}: invalid YAML: {}", path, e.mark.line + 1, e.msg));
  }
  if (!root.IsMap()) throw UsageError(fmt::format("{}: expected a map of keys at the top", path));
  const std::string original_target =
      root["target"] && root["target"].IsScalar() ? WithSlash(root["target"].Scalar()) : "";
  std::vector<std::string> original_bases;
  if (root["prepare"] && root["prepare"]["ensure_objects"] &&
      root["prepare"]["ensure_objects"].IsSequence())
    for (const auto& e : root["prepare"]["ensure_objects"])
      original_bases.push_back(e.IsMap() && e["base_uri"] && e["base_uri"].IsScalar()
                                   ? WithSlash(e["base_uri"].Scalar())
                                   : "");
  Sai3Source s{path, {}};
  for (const auto& o : overrides) s.overrides.emplace_back(ApplyOverride(root, o), o);

  std::vector<std::string> ignored;
  Walk(root, "", s, ignored);
  if (!ignored.empty())
    loaded.warnings.push_back(
        fmt::format("{}: sai3-bench keys trainbench accepts but does not act on: {}", path,
                    fmt::join(ignored, "; ")));

  if (!root["target"])
    throw UsageError(fmt::format("{}: target is missing: file:///path or s3://bucket/prefix/", s));
  c.target =
      WithSlash(Read(root["target"], "target", s, "a URI", [](const std::string& v) { return v; }));
  CheckScheme(c.target, "target", s, root["target"]);
  if (root["duration"]) {
    c.duration_s = Read(root["duration"], "duration", s, "a duration (60s, 5m, 2h)", Sai3Seconds);
    if (c.duration_s > kMaxDurationS) Bad(s, root["duration"], "duration", "at most 30 days");
  }
  if (root["concurrency"]) {
    const uint64_t n = Read(root["concurrency"], "concurrency", s, "a whole number", Count);
    if (n < 1 || n > kMaxSai3Concurrency)
      Bad(s, root["concurrency"], "concurrency",
          fmt::format("{}: give 1 to {}", n, kMaxSai3Concurrency));
    c.concurrency = static_cast<unsigned>(n);
  }
  if (root["op_log_path"]) c.op_log_path = Text(root["op_log_path"], "op_log_path", s);
  if (root["page_cache_mode"]) {
    const std::string mode = Text(root["page_cache_mode"], "page_cache_mode", s);
    if (mode != "auto" && mode != "sequential" && mode != "random" && mode != "dontneed" &&
        mode != "normal")
      Bad(s, root["page_cache_mode"], "page_cache_mode",
          fmt::format("'{}': give auto, sequential, random, dontneed or normal", mode));
    c.page_cache_mode = mode;
  }
  if (const YAML::Node p = root["perf_log"]; p && p.IsMap()) {
    if (p["enabled"]) c.perf_log = Read(p["enabled"], "perf_log.enabled", s, "true or false", Bool);
    if (p["interval"]) {
      c.interval_s = Read(p["interval"], "perf_log.interval", s, "a duration (1s)", Sai3Seconds);
      if (c.interval_s < 0.01 || c.interval_s > 3600)
        Bad(s, p["interval"], "perf_log.interval",
            fmt::format("{} s: give 0.01 s to 1h", c.interval_s));
    }
  }
  if (const YAML::Node p = root["prepare"]; p && p.IsMap()) {
    if (p["cleanup_only"] &&
        Read(p["cleanup_only"], "prepare.cleanup_only", s, "true or false", Bool))
      Bad(s, p["cleanup_only"], "prepare.cleanup_only",
          "not supported: trainbench's cleanup removes what its own prepare wrote, at the end of "
          "the same run (prepare.cleanup=true)");
    if (p["cleanup"]) c.cleanup = Read(p["cleanup"], "prepare.cleanup", s, "true or false", Bool);
    if (p["force_overwrite"])
      c.force_overwrite =
          Read(p["force_overwrite"], "prepare.force_overwrite", s, "true or false", Bool);
    if (p["ensure_objects"]) {
      if (!p["ensure_objects"].IsSequence())
        Bad(s, p["ensure_objects"], "prepare.ensure_objects", "expected a list of object sets");
      ReadObjectSets(p["ensure_objects"], c, original_target, original_bases, s);
    }
    if (p["directory_structure"] && p["directory_structure"].IsMap())
      ReadTree(p["directory_structure"], c, s);
  }
  if (c.tree.width > 0) {
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
            s, i, c.ensure_objects[i].count, folders, c.tree.files_per_dir));
  }
  if (root["workload"]) {
    if (!root["workload"].IsSequence())
      Bad(s, root["workload"], "workload", "expected a list of ops (op, path, weight)");
    ReadWorkload(root["workload"], c, s);
  }
  if (c.ensure_objects.empty() && c.workload.empty())
    throw UsageError(
        fmt::format("{}: neither prepare.ensure_objects nor workload: nothing to do", s));
  if (const YAML::Node d = root["distributed"]; d && d.IsMap() && d["agents"]) {
    if (!d["agents"].IsSequence())
      Bad(s, d["agents"], "distributed.agents", "expected a list of agents");
    c.agents = d["agents"].size();
  }
  if (const YAML::Node o = root["output"]; o && o.IsMap() && o["folder"])
    c.output_folder = Text(o["folder"], "output.folder", s);
  c.resolved = YamlTextToJson(YAML::Dump(root));
  return loaded;
}

}  // namespace trainbench::config
