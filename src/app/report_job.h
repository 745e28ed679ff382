// `trainbench report`'s job: the results folders of any one kind as a self-contained HTML
// page (one folder, or several compared); for `run` results also PNG charts (gnuplot) and
// MLPerf Storage's replication check. Refuses (UsageError, before writing anything) an
// output place it cannot write, folders of different kinds, and what a kind has not: PNGs
// or the replication check of anything but runs. Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "app/frame/job_report.h"

namespace trainbench::app {

struct ReportOptions {
  std::vector<std::string> folders;
  std::string output;    // the page; "": report.html beside one folder's results, else here
  std::string png;       // "": no PNG charts
  std::string chart_js;  // "": Debian's libjs-chart.js
  bool check_replication = false;  // with no `output`, no page either
};

// Its text: "report: FILE", "chart: FILE" lines, the replication check's table; exit_code 1
// when the replication check failed.
JobReport ReportJob(const ReportOptions& options);

// The Chart.js file inlined when ReportOptions::chart_js is "" (for --chart-js's help).
const char* DefaultChartJs();

// The jobs whose results it draws, in words ("run, checkpoint, ... or sai3-bench").
std::string ReportedJobs();

}  // namespace trainbench::app
