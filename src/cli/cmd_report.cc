// `trainbench report RESULTS_DIR... [-o FILE] [--png DIR] [--check-replication]`: the
// results of any job (run, checkpoint, datagen, stage, train, staged train) as people look
// at them: a self-contained HTML page (one folder, or several of one kind compared); for
// `run` also PNG charts drawn by gnuplot and MLPerf Storage's replication check.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "cli/command.h"
#include "common/error.h"
#include "common/log.h"
#include "common/output_path.h"
#include "report/chart_js.h"
#include "report/html_report.h"
#include "report/png_charts.h"
#include "report/replication.h"
#include "report/results_folder.h"
#include "report/results_reader.h"

namespace trainbench::cli {
namespace {

struct ReportFlags {
  std::vector<std::string> folders;
  std::string output;
  std::string png;
  std::string chart_js;
  bool check_replication = false;
};

int Execute(const ReportFlags& flags) {
  namespace fs = std::filesystem;
  // Without -o: beside one run's results, or here for a comparison; with
  // --check-replication alone, no page.
  std::string output = flags.output;
  const bool page = !output.empty() || !flags.check_replication;
  if (output.empty() && page)
    output = flags.folders.size() == 1 ? (fs::path(flags.folders[0]) / "report.html").string()
                                       : "report.html";
  if (page) CheckWritableFile(output, "-o");
  if (!flags.png.empty()) CheckWritableFolder(flags.png, "--png");

  std::vector<report::RunResults> runs;
  for (const auto& folder : flags.folders) runs.push_back(report::ReadRunResults(folder));
  report::CheckOneKind(runs);
  if (!report::AreRunResults(runs)) {
    if (flags.check_replication)
      throw UsageError("--check-replication judges `trainbench run` results; these are " +
                       runs.front().kind + " results");
    if (!flags.png.empty())
      throw UsageError("--png draws `trainbench run` results; a " + runs.front().kind +
                       " is drawn on its HTML page (drop --png)");
  }
  std::vector<std::string> workloads;
  for (const auto& r : runs) {
    const std::string w = r.summary.value("workload", std::string("?"));
    if (std::find(workloads.begin(), workloads.end(), w) == workloads.end()) workloads.push_back(w);
  }
  if (workloads.size() > 1)
    LogWarning(fmt::format(
        "these runs are of different workloads ({}): the comparison sets unlike runs side by side",
        fmt::join(workloads, ", ")));
  if (page) {
    const std::string chart_js = report::LoadChartJs(flags.chart_js);
    const fs::path path(output);
    const std::string folder = path.has_parent_path() ? path.parent_path().string() : ".";
    report::WriteResultFile(folder, path.filename().string(),
                            report::RenderReportHtml(report::ReportModel(runs), chart_js));
    fmt::print("report: {}\n", output);
  }
  if (!flags.png.empty()) {
    std::vector<std::string> skipped;
    for (const auto& file : report::WritePngCharts(runs, flags.png, &skipped))
      fmt::print("chart: {}\n", file);
    for (const auto& s : skipped) fmt::print("no chart: {}\n", s);
  }
  if (flags.check_replication) {
    const auto result = report::CheckReplication(runs);
    fmt::print("{}", result.text);
    return result.passed ? 0 : 1;
  }
  return 0;
}

}  // namespace

void AddReportCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "report",
      "Charts and tables of any job's results (run, datagen, stage, train, staged train): one "
      "self-contained HTML page (several folders of one kind: a comparison); for runs also PNG "
      "charts and MLPerf Storage's replication check");
  command->footer(
      "Examples:\n"
      "  trainbench report results/resnet50_h100-20261121T194635Z        # -> its report.html\n"
      "  trainbench report results/run-a results/run-b -o compare.html   # overlaid, deltas\n"
      "  trainbench report results/run-a --png charts/                   # PNGs via gnuplot\n"
      "  trainbench report --check-replication results/r1 ... results/r5 # exit 0 pass, 1 fail\n"
      "  trainbench report results/stage-20261125T010203Z                # a stage's account\n"
      "The page opens from disk with no network: Chart.js (Debian's libjs-chart.js) is inlined.");
  static ReportFlags flags;
  command
      ->add_option(
          "results", flags.folders,
          "Results folders of `trainbench run`, `datagen --output`, `stage`, `train --output`")
      ->required();
  command->add_option("-o,--output", flags.output,
                      "The HTML file (default: report.html in the results folder of one run, "
                      "in this folder for several)");
  command->add_option("--png", flags.png,
                      "Also write the main charts as PNG files into this folder (gnuplot)");
  command->add_flag("--check-replication", flags.check_replication,
                    "MLPerf Storage's rule over 5 runs of one configuration: every run passes AU "
                    "and samples/s lie within 5% of each other; exit 0 pass, 1 fail (the HTML "
                    "only with -o)");
  command->add_option("--chart-js", flags.chart_js,
                      std::string("Chart.js 3.x to inline (default ") + report::kDebianChartJs +
                          ", from libjs-chart.js)");
  command->callback([&action] { action = [] { return Execute(flags); }; });
}

}  // namespace trainbench::cli
