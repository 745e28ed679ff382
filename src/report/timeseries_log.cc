#include "report/timeseries_log.h"

#include "report/timeseries_csv.h"

namespace trainbench::report {

TimeseriesLog::TimeseriesLog(const std::string& folder) {
  if (folder.empty()) return;
  file_ = std::fopen((folder + "/timeseries.csv").c_str(), "w");
  if (!file_) return;
  std::fputs(TimeseriesCsvHeader().c_str(), file_);
  std::fflush(file_);
}

TimeseriesLog::~TimeseriesLog() {
  if (file_) std::fclose(file_);
}

void TimeseriesLog::Append(const metrics::TimeseriesRow& row) {
  if (!file_) return;
  std::fputs(TimeseriesCsvLine("0", row).c_str(), file_);
  std::fflush(file_);
}

}  // namespace trainbench::report
