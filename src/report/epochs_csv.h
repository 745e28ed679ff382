// A run's epochs.csv: one row per phase (preloads, epochs, evaluations), as the results model
// keeps it and `report` reads it back. Pure. Thread-compatible.
#pragma once

#include <string>

#include "metrics/run_record.h"

namespace trainbench::report {

std::string EpochsCsv(const metrics::RunRecord& record);

}  // namespace trainbench::report
