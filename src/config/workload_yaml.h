// Turns a workload name or YAML path plus overrides into a validated WorkloadConfig (the
// config side of loading; src/loader/ is the data loader that reads a dataset).
// Errors (UsageError, exit 2) name the file, line, key and expected form, and suggest
// the nearest known key; DLIO keys that trainbench accepts but does not act on become
// warnings returned to the caller (which decides whether to print them).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/workload.h"

namespace trainbench::config {

struct LoadedWorkload {
  WorkloadConfig config;
  std::vector<std::string> warnings;
};

// `workload`: a built-in name (resnet50_h100) or a path to a YAML file.
// `overrides`: "dataset.num_files_train=16" or DLIO's "++workload.dataset.num_files_train=16".
LoadedWorkload LoadWorkload(const std::string& workload, const std::vector<std::string>& overrides);

// Applies YAML text (as from a file) on top of `config`; `source` names it in errors.
void ApplyYaml(const std::string& yaml_text, const std::string& source, WorkloadConfig& config,
               std::vector<std::string>& warnings);

// Applies one "key=value" override.
void ApplyOverride(const std::string& override_text, WorkloadConfig& config,
                   std::vector<std::string>& warnings);

// The resolved config as YAML with every key trainbench acts on.
std::string ToYaml(const WorkloadConfig& config);
// The resolved config as JSON, as ToYaml renders it (summary.json's "config").
nlohmann::json ToJson(const WorkloadConfig& config);
// YAML text as JSON, scalars typed by their spelling (YAML 1.2's core schema).
nlohmann::json YamlTextToJson(const std::string& yaml_text);

}  // namespace trainbench::config
