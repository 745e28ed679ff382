// `trainbench report --png DIR`: the main charts as PNG files for notes and tickets, drawn
// by gnuplot (gnuplot.h): throughput.png (samples/s and MB/s over time), data_wait.png,
// read_latency.png (p50 and p99 per interval), latency_cdf.png and au_epochs.png; several
// runs are overlaid. Each file appears whole under its final name (drawn in a scratch
// folder inside DIR, then renamed). Thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "report/results_reader.h"

namespace trainbench::report {

// Returns the paths written; charts without data (no time series, no histogram) are left
// out and named in `skipped`.
std::vector<std::string> WritePngCharts(const std::vector<RunResults>& runs,
                                        const std::string& folder,
                                        std::vector<std::string>* skipped);

}  // namespace trainbench::report
