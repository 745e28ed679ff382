#include "cli/job_flags.h"

#include "cli/validators.h"

namespace trainbench::cli {

void AddOutputFlag(CLI::App& command, std::string& folder, const std::string& where) {
  command.add_option("--output", folder,
                     "Keep the job's results (summary.json, timeseries.csv) " + where);
}

void AddIntervalFlag(CLI::App& command, double& seconds, const std::string& columns) {
  command
      .add_option("--interval", seconds,
                  "Seconds per row of timeseries.csv (" + columns + "; default 1; 0: none)")
      ->check(NonNegativeFinite());
}

void AddNoProgressFlag(CLI::App& command, bool& progress) {
  command.add_flag("!--no-progress", progress,
                   "No live progress on stderr (the job's own lines and results are printed as "
                   "ever)");
}

void AddOpLogFlag(CLI::App& command, std::string& path, const std::string& what, bool per_rank) {
  command.add_option(
      "--op-log", path,
      "Record " + what +
          " in FILE, a line per operation in sai3-bench's op-log columns "
          "(FILE.tsv.zst: zstd)" +
          (per_rank ? "; under mpirun a file per rank (FILE.rankNNNN.tsv.zst)" : ""));
}

void AddS3OptionFlag(CLI::App& command, std::vector<std::string>& pairs, const std::string& what) {
  command.add_option("--s3-option", pairs,
                     "KEY=VALUE of storage_options for " + what +
                         " (endpoint_url, region, s3_force_path_style, ...; repeatable)");
}

}  // namespace trainbench::cli
