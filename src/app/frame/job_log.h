// A job's event lines: on stderr (rank 0's, unless --quiet) and, stamped, in the results'
// log, so what a job said stays with what it measured. Thread-safe (the sink's AppendLog is).
#pragma once

#include <string>

#include "app/frame/results_sink.h"

namespace trainbench::app {

class JobLog {
 public:
  // `results` null: stderr only (ranks other than 0 keep no results).
  explicit JobLog(ResultsSink* results) : results_(results) {}

  // The log file only.
  void Line(const std::string& line);
  void Info(const std::string& line);
  void Warn(const std::string& line);
  void Error(const std::string& line);

 private:
  ResultsSink* results_;
};

}  // namespace trainbench::app
