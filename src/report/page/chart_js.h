// Chart.js for the HTML report, read when the report is made from Debian's libjs-chart.js
// (/usr/share/javascript/chart.js/chart.min.js), not embedded in the binary at build time:
// the build needs no JavaScript package (GPU hosts build from a fixed set of .debs), the
// library keeps receiving Debian's updates, and the binary stays 200 KB smaller. The cost:
// the machine that makes the report needs the package (`apt-get install libjs-chart.js`)
// or a copy of the file (--chart-js FILE). The report inlines it, so the page itself needs
// nothing. Thread-safe.
#pragma once

#include <string>

namespace trainbench::report {

inline constexpr const char* kDebianChartJs = "/usr/share/javascript/chart.js/chart.min.js";

// The library's source from `path` (kDebianChartJs when empty); throws RuntimeError naming
// the file and the package to install when it cannot be read or is not Chart.js.
std::string LoadChartJs(const std::string& path);

}  // namespace trainbench::report
