// The fixed parts of the HTML report: its style sheet and the script that draws the page
// from the embedded data (report-data, html_report.h). The script draws every chart with
// Chart.js, and writes the points it drew into each canvas's data-points attribute (and
// sets data-rendered), so a test or a reader can check what is on screen against
// summary.json and timeseries.csv without reading pixels. Constants; thread-safe.
#pragma once

namespace trainbench::report {

extern const char* const kReportStyle;
// The page's script is these three, in order, inside one function: kReportScript (the
// data and the drawing helpers), kJobPageScript (job_page.cc: the page of a datagen,
// stage, train or staged-train result, which ends the script there) and kRunPageScript
// (the page of `run` results).
extern const char* const kReportScript;
extern const char* const kJobPageScript;
extern const char* const kRunPageScript;

}  // namespace trainbench::report
