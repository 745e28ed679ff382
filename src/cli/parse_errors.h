// CLI11's parse errors in trainbench's words: what was given, what is expected, and the next
// step, where CLI11 says "Could not convert: --confirm = abc" or "A subcommand is required"
// (for a command that does not exist).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace trainbench::cli {

std::string ParseErrorText(CLI::App& app, const CLI::ParseError& error, int argc,
                           const char* const* argv);

}  // namespace trainbench::cli
