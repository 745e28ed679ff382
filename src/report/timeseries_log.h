// timeseries.csv as the run goes: rank 0's rows appended as they are sampled and flushed each
// interval, so a run killed with SIGKILL leaves what it measured (as fio's --write_*_log and
// DLIO's per-step logs do). At the end the whole file (every rank's rows, the job's) replaces
// it. Write failures are ignored: the final file reports them. Call from one thread.
#pragma once

#include <cstdio>
#include <string>

#include "metrics/timeseries.h"

namespace trainbench::report {

class TimeseriesLog {
 public:
  // Opens folder/timeseries.csv and writes its header; "" logs nothing.
  explicit TimeseriesLog(const std::string& folder);
  ~TimeseriesLog();
  TimeseriesLog(const TimeseriesLog&) = delete;
  TimeseriesLog& operator=(const TimeseriesLog&) = delete;

  void Append(const metrics::TimeseriesRow& row);

 private:
  std::FILE* file_ = nullptr;
};

}  // namespace trainbench::report
