// `trainbench report`'s HTML page: one self-contained file that opens from disk with no
// network. It holds the results as data (a <script type="application/json" id="report-data">:
// each run's summary.json, time series and config), Chart.js inlined, and the script that
// draws the page from the data (page_assets.h). Its Content-Security-Policy allows nothing
// but its own inline scripts and styles, so the page can make no request even if asked to.
// One run gives its report; several give a comparison (charts overlaid, a table of deltas).
// Pure; thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/results_reader.h"

namespace trainbench::report {

// The page's data: {"generated_by", "runs": [{name, folder, summary, config_yaml,
// timeseries_rank, timeseries: {column: [values]} or null}]}.
nlohmann::json ReportModel(const std::vector<RunResults>& runs);

// The page; `chart_js` is Chart.js's source (chart_js.h), inlined as it is.
std::string RenderReportHtml(const nlohmann::json& model, const std::string& chart_js);

}  // namespace trainbench::report
