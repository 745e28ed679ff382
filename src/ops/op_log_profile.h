// What an op-log says about the job that wrote it, for `trainbench oplog`: per kind of
// operation the count, bytes, request sizes and latency; the objects touched and how often;
// how many operations were in flight (the most at once, and on average: the sum of their
// durations over the span); and the order (how often a thread's next GET went to the object
// its last one read). Profiles of a `train` log and a `run` log side by side show how
// faithful the emulation's requests are. Pure: computed from the entries alone.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics/op_log_reader.h"

namespace trainbench::ops {

// Figures of one log, in the order they print: name -> value (numbers or text).
nlohmann::ordered_json ProfileOpLog(const std::vector<metrics::OpLogEntry>& entries);

// Reads FILE (metrics::ReadOpLog) and profiles it; `dropped` says why its end was not read.
struct OpLogFileProfile {
  nlohmann::ordered_json profile;
  std::string dropped;
};
OpLogFileProfile ProfileOpLogFile(const std::string& path);

// The profiles as a table, a column per log (`names` heads them).
std::string ProfileTable(const std::vector<std::string>& names,
                         const std::vector<nlohmann::ordered_json>& profiles);

}  // namespace trainbench::ops
