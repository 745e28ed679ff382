// Turns a workload name or YAML path plus overrides into a validated WorkloadConfig (the
// config side of loading; src/loader/ is the data loader that reads a dataset).
// Errors (UsageError, exit 2) name the file, line, key and expected form, and suggest
// the nearest known key; DLIO keys that trainbench accepts but does not act on become
// warnings returned to the caller (which decides whether to print them).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/workload.h"

namespace trainbench::config {

// storage.storage_options is a free-form map to config/: the names it may hold are its
// storage backend's, a layer above (app/workload_load.cc passes storage's table). A check
// returns "" for a known name, else what is wrong, an error naming the file and line; without
// one, any name is read.
using OptionNameCheck = std::function<std::string(const std::string& name)>;

struct LoadedWorkload {
  WorkloadConfig config;
  std::vector<std::string> warnings;
};

// `workload`: a built-in name (resnet50_h100) or a path to a YAML file.
// `overrides`: "dataset.num_files_train=16" or DLIO's "++workload.dataset.num_files_train=16".
LoadedWorkload LoadWorkload(const std::string& workload, const std::vector<std::string>& overrides,
                            const OptionNameCheck& check = {});

// Applies YAML text (as from a file) on top of `config`; `source` names it in errors.
void ApplyYaml(const std::string& yaml_text, const std::string& source, WorkloadConfig& config,
               std::vector<std::string>& warnings, const OptionNameCheck& check = {});

// Applies one "key=value" override (config/override.h's grammar; DLIO's ++workload.KEY too).
void ApplyOverride(const std::string& override_text, WorkloadConfig& config,
                   std::vector<std::string>& warnings, const OptionNameCheck& check = {});

// The resolved config as YAML with every key trainbench acts on.
std::string ToYaml(const WorkloadConfig& config);
// The resolved config as JSON, as ToYaml renders it (summary.json's "config").
nlohmann::json ToJson(const WorkloadConfig& config);
// YAML text as JSON, scalars typed by their spelling (YAML 1.2's core schema).
nlohmann::json YamlTextToJson(const std::string& yaml_text);

}  // namespace trainbench::config
