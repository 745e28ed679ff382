// Loading a sai3-bench config: its file, the command line's overrides set into its tree
// (config/override.h, the workload YAML's grammar), every key checked against the table
// (walk.cc), then each section read (prepare.cc, workload_ops.cc) into a Sai3Config.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

#include "common/error.h"
#include "config/override.h"
#include "config/sai3/place.h"
#include "config/sai3/prepare.h"
#include "config/sai3/sai3_config.h"
#include "config/sai3/values.h"
#include "config/sai3/walk.h"
#include "config/sai3/workload_ops.h"
#include "config/workload_yaml.h"
#include "config/yaml_file.h"

namespace trainbench::config {
namespace sai3 {
namespace {

constexpr double kMaxDurationS = 30 * 24 * 3600.0;  // a month

YAML::Node ReadRoot(const std::string& path) {
  YAML::Node root = LoadYamlFile(path, "sai3-bench config");
  if (!root.IsMap()) throw UsageError(fmt::format("{}: expected a map of keys at the top", path));
  return root;
}

// target, duration, concurrency, op_log_path, page_cache_mode.
void ReadRun(const YAML::Node& root, Sai3Config& c, const Source& s) {
  if (!root["target"])
    throw UsageError(
        fmt::format("{}: target is missing: file:///path or s3://bucket/prefix/", s.path));
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
}

void ReadPerfLog(const YAML::Node& p, Sai3Config& c, const Source& s) {
  if (!p || !p.IsMap()) return;
  if (p["enabled"]) c.perf_log = Read(p["enabled"], "perf_log.enabled", s, "true or false", Bool);
  if (p["interval"]) {
    c.interval_s = Read(p["interval"], "perf_log.interval", s, "a duration (1s)", Sai3Seconds);
    if (c.interval_s < 0.01 || c.interval_s > 3600)
      Bad(s, p["interval"], "perf_log.interval",
          fmt::format("{} s: give 0.01 s to 1h", c.interval_s));
  }
}

// workload, distributed.agents, output.folder.
void ReadWorkloadAndAfter(const YAML::Node& root, Sai3Config& c, const Source& s) {
  if (root["workload"]) {
    if (!root["workload"].IsSequence())
      Bad(s, root["workload"], "workload", "expected a list of ops (op, path, weight)");
    ReadWorkload(root["workload"], c, s);
  }
  if (c.ensure_objects.empty() && c.workload.empty())
    throw UsageError(
        fmt::format("{}: neither prepare.ensure_objects nor workload: nothing to do", s.path));
  if (const YAML::Node d = root["distributed"]; d && d.IsMap() && d["agents"]) {
    if (!d["agents"].IsSequence())
      Bad(s, d["agents"], "distributed.agents", "expected a list of agents");
    c.agents = d["agents"].size();
  }
  if (const YAML::Node o = root["output"]; o && o.IsMap() && o["folder"])
    c.output_folder = Text(o["folder"], "output.folder", s);
}

}  // namespace
}  // namespace sai3

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
  YAML::Node root = sai3::ReadRoot(path);
  const sai3::FileTargets file = sai3::ReadFileTargets(root);
  sai3::Source s{path, {}};
  for (const auto& text : overrides) {
    const Override o =
        ParseOverride(text, "examples: duration=2s, prepare.ensure_objects.0.count=64");
    s.overrides.emplace_back(SetOverride(root, o), o.shown);
  }
  std::vector<std::string> ignored;
  sai3::WalkKeys(root, "", s, ignored);
  if (!ignored.empty())
    loaded.warnings.push_back(
        fmt::format("{}: sai3-bench keys trainbench accepts but does not act on: {}", path,
                    fmt::join(ignored, "; ")));
  sai3::ReadRun(root, c, s);
  sai3::ReadPerfLog(root["perf_log"], c, s);
  sai3::ReadPrepare(root["prepare"], file, c, s);
  sai3::ReadWorkloadAndAfter(root, c, s);
  c.resolved = YamlTextToJson(YAML::Dump(root));
  return loaded;
}

}  // namespace trainbench::config
