// The CLI's commands: each file registers one subcommand on the CLI11 app and runs it.
// A command returns the process exit code; errors are thrown as trainbench::Error and
// turned into "trainbench: error: ..." with exit 2 or 1 by main.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace trainbench::cli {

// Set by the subcommand that was chosen; main runs it after parsing.
using Action = std::function<int()>;

void AddDatagenCommand(CLI::App& app, Action& action);
void AddWorkloadsCommand(CLI::App& app, Action& action);
void AddConfigCommand(CLI::App& app, Action& action);
void AddDatasizeCommand(CLI::App& app, Action& action);
void AddRunCommand(CLI::App& app, Action& action);
void AddTrainCommand(CLI::App& app, Action& action);
void AddCleanCommand(CLI::App& app, Action& action);
void AddReportCommand(CLI::App& app, Action& action);
void AddStageCommand(CLI::App& app, Action& action);
void AddSweepCommand(CLI::App& app, Action& action);
void AddReplayCommand(CLI::App& app, Action& action);
void AddOplogCommand(CLI::App& app, Action& action);
void AddMixCommand(CLI::App& app, Action& action);

}  // namespace trainbench::cli
