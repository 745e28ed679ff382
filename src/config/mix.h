// A mix: several jobs run together against one storage (`trainbench mix`, `sweep --mix`).
// Each job is a workload (a built-in name or a DLIO YAML file) with its own overrides and
// accelerators; a checkpointing workload may write on a schedule (every_s). From a YAML file:
//
//   set: [storage.storage_options.endpoint_url=http://gw:7480]   # every job's, first
//   jobs:
//     - name: resnet                  # [A-Za-z0-9_.-], unique; default: the workload's name
//       workload: resnet50_h100       # or a DLIO YAML file, relative to the mix file
//       accelerators: 8
//       set: {dataset.data_folder: /mnt/data/resnet50}   # a map, or a list of KEY=VALUE
//     - workload: llama3_8b
//       accelerators: 8
//       every_s: 60                   # a checkpoint every 60 s while the others run
//       background: true              # runs until the foreground jobs end (default: every_s set)
//
// or from the command line, a --job each ("name=resnet workload=resnet50_h100 accelerators=8
// dataset.data_folder=/mnt/r50", words split at spaces). Overrides after the mix
// (KEY=VALUE: every job's; NAME:KEY=VALUE: one job's) come last. Errors are UsageError naming
// the file and line, or the flag, and what to write instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trainbench::config {

inline constexpr size_t kMaxMixJobs = 16;

struct MixJob {
  std::string name;
  std::string workload;  // a built-in name, or a DLIO YAML file's path
  uint64_t accelerators = 1;
  double every_s = 0;  // > 0: a checkpointing workload writing one every every_s seconds
  // Runs until the foreground jobs end (a training repeats its epochs); unset: true for a
  // schedule (every_s), false otherwise.
  std::optional<bool> background;
  std::vector<std::string> overrides;  // KEY=VALUE, in the order they apply

  bool Background() const { return background.value_or(every_s > 0); }
};

struct Mix {
  std::string source;  // the file, or "--job" for command-line jobs
  std::vector<MixJob> jobs;
};

Mix LoadMixFile(const std::string& path);
// One --job's text.
MixJob ParseMixJob(const std::string& text);
// A command-line override: "KEY=VALUE" for every job, "NAME:KEY=VALUE" for the job NAME (KEY
// a workload key, or the job's own accelerators, every_s or background).
void ApplyMixOverride(Mix& mix, const std::string& text);
// Names each unnamed job (its workload's name; -2, -3... for repeats) and checks the mix:
// 1 to kMaxMixJobs jobs, names unique and well-formed, at least one foreground job.
void CheckMix(Mix& mix);
// The job named `name`; UsageError naming `flag` and the jobs there are.
MixJob& MixJobNamed(Mix& mix, const std::string& name, const std::string& flag);

}  // namespace trainbench::config
