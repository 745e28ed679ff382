// The results folder of one run, <output.folder>/<workload>-<UTC stamp>/, holding
// config.yaml (the resolved config), summary.json, epochs.csv and the run's log.
// Files are written whole (temporary name, then rename). Not thread-safe.
#pragma once

#include <string>

namespace trainbench::report {

// Creates the folder (a numbered suffix if the stamp is taken) and returns its path.
std::string CreateResultsFolder(const std::string& output_folder, const std::string& workload,
                                const std::string& utc_stamp);

// The folder `name` under `output_folder`, made if it is not there and taken as it is if it
// is: the place of a job that resumes (a sweep named by what it sweeps). Throws IoError.
std::string OpenResumableFolder(const std::string& output_folder, const std::string& name);

// Appends one line to folder/name and syncs it: a journal's entry survives a SIGKILL right
// after. Throws IoError naming the file.
void AppendResultLine(const std::string& folder, const std::string& name, const std::string& line);

// Writes `text` to folder/name atomically; throws IoError naming the file.
void WriteResultFile(const std::string& folder, const std::string& name, const std::string& text);

}  // namespace trainbench::report
