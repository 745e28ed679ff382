// timeseries.csv: the run's time series, one row per interval and rank (metrics/timeseries.h
// says what each column holds). A job over several ranks has each rank's rows, then the
// job's (rank "all": rates summed, latencies the worst rank's). Pure; thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "metrics/timeseries.h"

namespace trainbench::report {

// The header line and one row's line (rank "0".."N-1" or "all"), each ending in '\n'.
std::string TimeseriesCsvHeader();
std::string TimeseriesCsvLine(const std::string& rank, const metrics::TimeseriesRow& row);

// ranks[r]: rank r's rows; `merged`: the job's rows (null for one process).
std::string TimeseriesCsv(const std::vector<std::vector<metrics::TimeseriesRow>>& ranks,
                          const std::vector<metrics::TimeseriesRow>* merged);

}  // namespace trainbench::report
