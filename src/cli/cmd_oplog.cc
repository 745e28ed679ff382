// `trainbench oplog FILE...`: what op-logs say about the jobs that wrote them (app's
// ProfileOpLog), side by side: a `train` log beside the `run` log of its workload shows how
// faithful the emulation's requests are.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "app/op_log_profile.h"
#include "cli/command.h"
#include "common/log.h"

namespace trainbench::cli {
namespace {

struct OplogFlags {
  std::vector<std::string> files;
};

int Oplog(const OplogFlags& flags) {
  std::vector<std::string> names;
  std::vector<nlohmann::ordered_json> profiles;
  nlohmann::ordered_json line = nlohmann::ordered_json::array();
  for (const auto& file : flags.files) {
    const auto read = app::ProfileOpLogFile(file);
    if (!read.dropped.empty())
      LogWarning(fmt::format("op-log {}: read up to its last whole line ({})", file, read.dropped));
    names.push_back(std::filesystem::path(file).filename().string());
    profiles.push_back(read.profile);
    line.push_back({{"op_log", file}, {"profile", profiles.back()}});
  }
  fmt::print("{}", app::ProfileTable(names, profiles));
  fmt::print("{}\n", nlohmann::ordered_json{{"trainbench_oplog", line}}.dump());
  return 0;
}

}  // namespace

void AddOplogCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "oplog",
      "What op-logs say about their jobs (sizes, objects, concurrency, order), side by "
      "side");
  command->footer(
      "Examples:\n"
      "  trainbench oplog run.tsv.zst\n"
      "  trainbench oplog train.tsv.zst run.tsv.zst   # a real training's reads beside the "
      "emulation's\n"
      "stdout: a table (a column per log), then {\"trainbench_oplog\": [{\"op_log\": FILE, "
      "\"profile\": {...}}, ...]}.");
  static OplogFlags flags;
  command
      ->add_option("FILE", flags.files, "Op-logs (trainbench's or sai3-bench's; .tsv or .tsv.zst)")
      ->required()
      ->check(CLI::ExistingFile);
  command->callback([&action] { action = [] { return Oplog(flags); }; });
}

}  // namespace trainbench::cli
