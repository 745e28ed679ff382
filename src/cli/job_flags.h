// The flags several commands share, said one way everywhere: where a job's results go and
// how often its time series samples, its live progress, its op-log, and S3 storage options.
// Each takes the part of the help that is the command's own.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace trainbench::cli {

// --output DIR: `where` says the folder's name and its default.
void AddOutputFlag(CLI::App& command, std::string& folder, const std::string& where);

// --interval SECONDS per row of timeseries.csv; `columns` says what a row holds.
void AddIntervalFlag(CLI::App& command, double& seconds, const std::string& columns);

// --no-progress, which sets `progress` false.
void AddNoProgressFlag(CLI::App& command, bool& progress);

// --op-log FILE recording `what` ("every read"), in sai3-bench's columns; a file per rank
// under mpirun when `per_rank`.
void AddOpLogFlag(CLI::App& command, std::string& path, const std::string& what,
                  bool per_rank = true);

// --s3-option KEY=VALUE (repeatable) for `what` ("an s3:// SOURCE").
void AddS3OptionFlag(CLI::App& command, std::vector<std::string>& pairs, const std::string& what);

}  // namespace trainbench::cli
