// Loading a workload for a job: the built-in name or DLIO YAML file with overrides, checked
// against the formats' registry and the storage's options (config/ sees neither formats/ nor
// storage/: an unknown dataset.format, a key its format refuses, or a storage_options name
// the S3 backend does not know, is a UsageError here, before any job works). The loader's
// warnings (DLIO keys trainbench ignores) go to stderr unless `quiet`. A sai3-bench config
// is refused naming `run`, which alone takes one.
#pragma once

#include <string>
#include <vector>

#include "config/workload.h"

namespace trainbench::app {

config::WorkloadConfig LoadCheckedWorkload(const std::string& workload,
                                           const std::vector<std::string>& overrides, bool quiet);

// One more override on a loaded workload (a grid sweep's point), its storage_options names
// checked as above.
void ApplyCheckedOverride(const std::string& override_text, config::WorkloadConfig& config,
                          std::vector<std::string>& warnings);

// "trainbench COMMAND WORKLOAD OVERRIDES...", each word shell-quoted as needed and a secret's
// value shown as <redacted>: the line a job names for the user to run next (the datagen of a
// missing dataset, datasize's answer).
std::string TrainbenchCommand(const std::string& command, const std::string& workload,
                              const std::vector<std::string>& overrides);

// The known dataset formats, one a line: name, extensions, help (from formats/' registry).
std::string FormatList();

}  // namespace trainbench::app
