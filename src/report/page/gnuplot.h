// Runs Debian's gnuplot (gnuplot-nox) on a script, for `trainbench report --png`.
// Throws RuntimeError naming the package when gnuplot is missing, and gnuplot's own
// message (the script and line) when it fails. Thread-compatible.
#pragma once

#include <string>

namespace trainbench::report {

// "pngcairo" when this gnuplot has it (antialiased), else "png" (libgd).
std::string GnuplotPngTerminal();

// Runs `gnuplot script_path`; its stderr goes to `log_path`.
void RunGnuplot(const std::string& script_path, const std::string& log_path);

}  // namespace trainbench::report
