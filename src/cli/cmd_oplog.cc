// `trainbench oplog FILE...`: what op-logs say about the jobs that wrote them (app's
// CompareOpLogs), side by side: a `train` log beside the `run` log of its workload shows how
// faithful the emulation's requests are.
#include "app/replay/oplog_job.h"
#include "cli/command.h"
#include "cli/job_output.h"

namespace trainbench::cli {

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
  static std::vector<std::string> files;
  command->add_option("FILE", files, "Op-logs (trainbench's or sai3-bench's; .tsv or .tsv.zst)")
      ->required()
      ->check(CLI::ExistingFile);
  command->callback(
      [&action] { action = [] { return ShowJobReport(app::CompareOpLogs(files)); }; });
}

}  // namespace trainbench::cli
