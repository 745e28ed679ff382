#include "app/report_job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "common/log.h"
#include "common/output_path.h"
#include "report/page/chart_js.h"
#include "report/page/html_report.h"
#include "report/page/png_charts.h"
#include "report/replication.h"
#include "report/result_envelope.h"
#include "report/results_folder.h"
#include "report/results_reader.h"

namespace trainbench::app {
namespace {

// A kind's results can be compared whatever their workloads, but the reader is told.
void WarnOfMixedWorkloads(const std::vector<report::RunResults>& runs) {
  std::vector<std::string> workloads;
  for (const auto& r : runs) {
    const std::string w = r.summary.value("workload", std::string("?"));
    if (std::find(workloads.begin(), workloads.end(), w) == workloads.end()) workloads.push_back(w);
  }
  if (workloads.size() > 1)
    LogWarning(fmt::format(
        "these runs are of different workloads ({}): the comparison sets unlike runs side by side",
        fmt::join(workloads, ", ")));
}

}  // namespace

JobReport ReportJob(const ReportOptions& options) {
  namespace fs = std::filesystem;
  std::string output = options.output;
  const bool page = !output.empty() || !options.check_replication;
  if (output.empty() && page)
    output = options.folders.size() == 1 ? (fs::path(options.folders[0]) / "report.html").string()
                                         : "report.html";
  // The results first: a missing results folder is the mistake to name, not the default
  // -o inside it.
  std::vector<report::RunResults> runs;
  for (const auto& folder : options.folders) runs.push_back(report::ReadRunResults(folder));
  if (page) CheckWritableFile(output, "-o");
  if (!options.png.empty()) CheckWritableFolder(options.png, "--png");
  report::CheckOneKind(runs);
  if (!report::AreRunResults(runs)) {
    if (options.check_replication)
      throw UsageError("--check-replication judges `trainbench run` results; these are " +
                       runs.front().kind + " results");
    if (!options.png.empty())
      throw UsageError("--png draws `trainbench run` results; a " + runs.front().kind +
                       " is drawn on its HTML page (drop --png)");
  }
  WarnOfMixedWorkloads(runs);
  JobReport outcome;
  outcome.reports = true;
  if (page) {
    const std::string chart_js = report::LoadChartJs(options.chart_js);
    const fs::path path(output);
    const std::string folder = path.has_parent_path() ? path.parent_path().string() : ".";
    report::WriteResultFile(folder, path.filename().string(),
                            report::RenderReportHtml(report::ReportModel(runs), chart_js));
    outcome.text += fmt::format("report: {}\n", output);
  }
  if (!options.png.empty()) {
    std::vector<std::string> skipped;
    for (const auto& file : report::WritePngCharts(runs, options.png, &skipped))
      outcome.text += fmt::format("chart: {}\n", file);
    for (const auto& s : skipped) outcome.text += fmt::format("no chart: {}\n", s);
  }
  if (options.check_replication) {
    const auto result = report::CheckReplication(runs);
    outcome.text += result.text;
    if (!result.passed) outcome.exit_code = static_cast<int>(ExitCode::kRuntime);
  }
  return outcome;
}

const char* DefaultChartJs() { return report::kDebianChartJs; }

std::string ReportedJobs() { return report::ReportedJobsInWords(); }

}  // namespace trainbench::app
