#include "config/mix.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "common/error.h"
#include "config/yaml_file.h"

namespace trainbench::config {
namespace {

constexpr uint64_t kMaxAccelerators = 1u << 20;
constexpr double kMaxEveryS = 7 * 24 * 3600.0;  // a week

// Where a value in the file is, for messages: "mix.yaml:12".
std::string At(const std::string& path, const YAML::Node& node) {
  return fmt::format("{}:{}", path, node.Mark().line + 1);
}

bool GoodName(const std::string& name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

uint64_t Accelerators(const std::string& text, const std::string& where) {
  uint64_t n = 0;
  try {
    size_t used = 0;
    n = std::stoull(text, &used);
    if (used != text.size() || text.front() == '-') throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw UsageError(fmt::format("{}: accelerators '{}' is not a whole number", where, text));
  }
  if (n < 1 || n > kMaxAccelerators)
    throw UsageError(
        fmt::format("{}: accelerators {}: give 1 to {}", where, text, kMaxAccelerators));
  return n;
}

double EverySeconds(const std::string& text, const std::string& where) {
  double s = 0;
  try {
    size_t used = 0;
    s = std::stod(text, &used);
    if (used != text.size()) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw UsageError(fmt::format("{}: every_s '{}' is not a number of seconds", where, text));
  }
  if (!std::isfinite(s) || s < 0.01 || s > kMaxEveryS)
    throw UsageError(
        fmt::format("{}: every_s {}: give 0.01 to {:g} seconds", where, text, kMaxEveryS));
  return s;
}

bool Flag(const std::string& text, const std::string& key, const std::string& where) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw UsageError(fmt::format("{}: {} '{}': give true or false", where, key, text));
}

std::string KeyValue(const std::string& text, const std::string& where) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(fmt::format(
        "{}: '{}' is not KEY=VALUE (example: dataset.data_folder=/mnt/data)", where, text));
  return text;
}

// A job's `set:` (or the file's): a map of dotted keys, or a list of KEY=VALUE.
std::vector<std::string> Overrides(const YAML::Node& node, const std::string& path) {
  std::vector<std::string> out;
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key = entry.first.as<std::string>();
      if (!entry.second.IsScalar() && !entry.second.IsNull()) {
        YAML::Emitter e;
        e << YAML::Flow << entry.second;
        out.push_back(key + "=" + e.c_str());
      } else {
        out.push_back(key + "=" + (entry.second.IsNull() ? "" : entry.second.as<std::string>()));
      }
    }
    return out;
  }
  if (node.IsSequence()) {
    for (const auto& item : node) {
      if (!item.IsScalar())
        throw UsageError(fmt::format("{}: set: each entry is KEY=VALUE text", At(path, item)));
      out.push_back(KeyValue(item.as<std::string>(), At(path, item)));
    }
    return out;
  }
  throw UsageError(fmt::format(
      "{}: set: give a map of keys ({{dataset.data_folder: /mnt/data}}) or a list of KEY=VALUE",
      At(path, node)));
}

std::string Scalar(const YAML::Node& node, const std::string& key, const std::string& path) {
  if (!node.IsScalar())
    throw UsageError(fmt::format("{}: {}: give one value", At(path, node), key));
  return node.as<std::string>();
}

// A DLIO file named relative to the mix file is found beside it.
std::string WorkloadBeside(const std::string& workload, const std::string& mix_path) {
  const bool file = workload.ends_with(".yaml") || workload.ends_with(".yml");
  if (!file || std::filesystem::path(workload).is_absolute()) return workload;
  const auto beside = std::filesystem::path(mix_path).parent_path() / workload;
  return std::filesystem::exists(beside) ? beside.string() : workload;
}

MixJob JobOf(const YAML::Node& node, const std::string& path) {
  if (!node.IsMap())
    throw UsageError(fmt::format(
        "{}: each job is a map (workload: resnet50_h100, accelerators: 4, ...)", At(path, node)));
  MixJob job;
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    const std::string where = At(path, entry.first);
    if (key == "name") {
      job.name = Scalar(entry.second, key, path);
    } else if (key == "workload") {
      job.workload = WorkloadBeside(Scalar(entry.second, key, path), path);
    } else if (key == "accelerators") {
      job.accelerators = Accelerators(Scalar(entry.second, key, path), where);
    } else if (key == "every_s") {
      job.every_s = EverySeconds(Scalar(entry.second, key, path), where);
    } else if (key == "background") {
      job.background = Flag(Scalar(entry.second, key, path), key, where);
    } else if (key == "set") {
      job.overrides = Overrides(entry.second, path);
    } else {
      throw UsageError(fmt::format(
          "{}: a job has no key '{}': name, workload, accelerators, every_s, background, set",
          where, key));
    }
  }
  if (job.workload.empty())
    throw UsageError(
        fmt::format("{}: the job names no workload (workload: resnet50_h100)", At(path, node)));
  return job;
}

}  // namespace

Mix LoadMixFile(const std::string& path) {
  const YAML::Node root = LoadYamlFile(path, "the mix file");
  if (!root.IsMap() || !root["jobs"])
    throw UsageError(fmt::format("{}: a mix file is a map with jobs: [a list of jobs]", path));
  Mix mix;
  mix.source = path;
  std::vector<std::string> shared;
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    if (key == "set") {
      shared = Overrides(entry.second, path);
    } else if (key != "jobs") {
      throw UsageError(
          fmt::format("{}: a mix file has no key '{}': jobs, set", At(path, entry.first), key));
    }
  }
  const YAML::Node jobs = root["jobs"];
  if (!jobs.IsSequence() || jobs.size() == 0)
    throw UsageError(fmt::format("{}: jobs: give a list of one job or more", At(path, jobs)));
  for (const auto& node : jobs) {
    MixJob job = JobOf(node, path);
    job.overrides.insert(job.overrides.begin(), shared.begin(), shared.end());
    mix.jobs.push_back(std::move(job));
  }
  return mix;
}

MixJob ParseMixJob(const std::string& text) {
  const std::string where = fmt::format("--job '{}'", text);
  MixJob job;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(fmt::format(
          "{}: '{}' is not KEY=VALUE (example: --job 'workload=resnet50_h100 accelerators=4')",
          where, word));
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "name")
      job.name = value;
    else if (key == "workload")
      job.workload = value;
    else if (key == "accelerators")
      job.accelerators = Accelerators(value, where);
    else if (key == "every_s")
      job.every_s = EverySeconds(value, where);
    else if (key == "background")
      job.background = Flag(value, key, where);
    else if (key.find('.') != std::string::npos)
      job.overrides.push_back(word);
    else
      throw UsageError(fmt::format(
          "{}: no key '{}': name, workload, accelerators, every_s, background, or a workload "
          "key (dataset.data_folder=...)",
          where, key));
  }
  if (job.workload.empty())
    throw UsageError(fmt::format("{}: name the workload (workload=resnet50_h100)", where));
  return job;
}

void ApplyMixOverride(Mix& mix, const std::string& text) {
  const auto eq = text.find('=');
  const auto colon = text.find(':');
  if (colon != std::string::npos && colon < eq) {  // NAME:KEY=VALUE
    const std::string name = text.substr(0, colon);
    const std::string where = fmt::format("'{}'", text);
    MixJob& job = MixJobNamed(mix, name, where);
    const std::string key = text.substr(colon + 1, eq - colon - 1), value = text.substr(eq + 1);
    if (key == "accelerators")
      job.accelerators = Accelerators(value, where);
    else if (key == "every_s")
      job.every_s = EverySeconds(value, where);
    else if (key == "background")
      job.background = Flag(value, key, where);
    else
      job.overrides.push_back(KeyValue(text.substr(colon + 1), where));
    return;
  }
  KeyValue(text, "override");
  for (auto& job : mix.jobs) job.overrides.push_back(text);
}

void CheckMix(Mix& mix) {
  if (mix.jobs.empty())
    throw UsageError(
        "a mix needs one job or more: a mix file, or --job 'workload=resnet50_h100 "
        "accelerators=4' for each");
  if (mix.jobs.size() > kMaxMixJobs)
    throw UsageError(fmt::format("{} jobs in the mix: at most {}", mix.jobs.size(), kMaxMixJobs));
  std::map<std::string, int> repeats;
  std::set<std::string> names;
  for (auto& job : mix.jobs) {
    if (job.name.empty()) {
      std::string stem = std::filesystem::path(job.workload).stem().string();
      const int n = ++repeats[stem];
      job.name = n == 1 ? stem : fmt::format("{}-{}", stem, n);
    }
    if (!GoodName(job.name))
      throw UsageError(fmt::format(
          "job name '{}': use letters, digits, '_', '-' and '.' (at most 64), as it names the "
          "job's results folder",
          job.name));
    if (!names.insert(job.name).second)
      throw UsageError(fmt::format("two jobs are named '{}': give each its own name", job.name));
  }
  const bool any_foreground = std::any_of(mix.jobs.begin(), mix.jobs.end(),
                                          [](const MixJob& j) { return !j.Background(); });
  if (!any_foreground)
    throw UsageError(
        "every job of the mix is background (every_s, or background: true), so nothing would end "
        "it: make one job a foreground job (background: false)");
}

MixJob& MixJobNamed(Mix& mix, const std::string& name, const std::string& flag) {
  for (auto& job : mix.jobs)
    if (job.name == name) return job;
  std::vector<std::string> all;
  for (const auto& job : mix.jobs) all.push_back(job.name);
  throw UsageError(fmt::format("{}: the mix has no job '{}': its jobs are {}", flag, name,
                               fmt::join(all, ", ")));
}

}  // namespace trainbench::config
