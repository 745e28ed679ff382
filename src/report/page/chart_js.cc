#include "report/page/chart_js.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.h"

namespace trainbench::report {

std::string LoadChartJs(const std::string& path) {
  const std::string file = path.empty() ? kDebianChartJs : path;
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw RuntimeError(fmt::format(
        "cannot read Chart.js at {}: the HTML report inlines it from Debian's libjs-chart.js; "
        "install it (`apt-get install libjs-chart.js`) or give a copy of chart.min.js (3.x) "
        "with --chart-js FILE",
        file));
  std::ostringstream text;
  text << in.rdbuf();
  const std::string js = text.str();
  if (js.find("Chart") == std::string::npos)
    throw RuntimeError(
        fmt::format("{} does not look like Chart.js (no `Chart` in it): give chart.min.js from "
                    "libjs-chart.js with --chart-js FILE",
                    file));
  return js;
}

}  // namespace trainbench::report
