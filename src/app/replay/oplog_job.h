// `trainbench oplog FILE...`'s job: the op-logs' profiles (ops/op_log_profile.h) side by
// side, a column per log, and the final line. Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "app/frame/job_report.h"

namespace trainbench::app {

// The files' profiles as a table and the final line
// {"trainbench_oplog": [{"op_log": FILE, "profile": {...}}, ...]}. A log cut short is read up
// to its last whole line, with a warning on stderr.
JobReport CompareOpLogs(const std::vector<std::string>& files);

}  // namespace trainbench::app
