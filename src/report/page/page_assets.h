// The fixed parts of the HTML report, src/report/page/assets/: its style sheet (page.css) and the
// script that draws the page from the embedded data (report-data, html_report.h). They are
// files, not strings in C++, so that a linter (tests/report/assets_lint_test.sh), an editor
// and a diff see them as the CSS and JavaScript they are; the build embeds them
// (cmake/EmbedFiles.cmake writes PageAssets). The script draws every chart with Chart.js and
// writes the points it drew into each canvas's data-points attribute (and sets
// data-rendered), so a test or a reader can check what is on screen against summary.json and
// timeseries.csv without reading pixels. Constants; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainbench::report {

struct PageAsset {
  std::string name;  // the file's name under src/report/page/assets/, e.g. "page.css"
  std::string text;
};

// Every asset, in name order.
const std::vector<PageAsset>& PageAssets();

// The text of the asset named `name`; throws std::logic_error when the build embedded none of
// that name (a mistake in the build, never the user's).
const std::string& PageAssetText(std::string_view name);

// The page's script is these, in order, inside one function that the first opens and the last
// closes: common.js (the data and the drawing helpers), job_page.js (the page of every result
// but `run`'s and checkpointing's, which ends the script there) and run_page.js (the page of
// `run` and checkpoint results). tests/report/assets_lint_test.sh lints them in this order.
inline constexpr const char* kPageScripts[] = {"common.js", "job_page.js", "run_page.js"};

}  // namespace trainbench::report
