// trainbench: storage and training benchmark for deep learning. Parses the command
// line with CLI11, runs the chosen command, and maps errors to exit codes
// (0 ok, 1 runtime failure, 2 usage or config error).
#include <CLI/CLI.hpp>
#include <exception>

#include "app/frame/binary_job.h"
#include "cli/command.h"
#include "cli/parse_errors.h"
#include "common/error.h"
#include "common/log.h"
#include "common/output_path.h"

namespace {

// Under several ranks a failure ends every rank of the job at once, this one having said
// why (its line names the rank and host).
int Fail(int code, const std::string& message) {
  trainbench::LogError(message);
  trainbench::RemoveEmptyFoldersMadeByChecks();
  trainbench::app::EndJob(code);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace trainbench;
  CLI::App app{
      "trainbench: can this storage feed these accelerators, and how fast does training run?\n"
      "Generates DLIO-compatible datasets, emulates training I/O, and runs ResNet-50 with "
      "LibTorch.",
      "trainbench"};
  app.set_version_flag("--version", std::string("trainbench ") + TRAINBENCH_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  cli::Action action;
  // In the order `trainbench --help` lists them.
  for (auto* add :
       {cli::AddDatagenCommand, cli::AddWorkloadsCommand, cli::AddConfigCommand,
        cli::AddDatasizeCommand, cli::AddRunCommand, cli::AddTrainCommand, cli::AddCleanCommand,
        cli::AddReportCommand, cli::AddStageCommand, cli::AddSweepCommand, cli::AddReplayCommand,
        cli::AddOplogCommand, cli::AddMixCommand})
    add(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help (the chosen subcommand's) and --version: printed on stdout, exit 0.
    if (e.get_exit_code() == 0) return app.exit(e);
    return Fail(static_cast<int>(ExitCode::kUsage), cli::ParseErrorText(app, e, argc, argv) +
                                                        "; run `trainbench --help` or "
                                                        "`trainbench COMMAND --help`");
  }
  try {
    const int code = action ? action() : 0;
    // A job that failed after its checks, having written nothing, leaves no empty results
    // folder (those with results in them stay).
    if (code != 0) RemoveEmptyFoldersMadeByChecks();
    return code;
  } catch (const Error& e) {
    return Fail(static_cast<int>(e.code()), e.what());
  } catch (const std::exception& e) {
    return Fail(static_cast<int>(ExitCode::kRuntime), e.what());
  }
}
