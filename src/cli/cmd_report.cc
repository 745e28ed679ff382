// `trainbench report RESULTS_DIR... [-o FILE] [--png DIR] [--check-replication]`: the
// results of any job (app::ReportedJobs(): run, sweep, replay, ...) as people look
// at them: a self-contained HTML page (one folder, or several of one kind compared); for
// `run` also PNG charts drawn by gnuplot and MLPerf Storage's replication check.
#include "app/report_job.h"
#include "cli/command.h"
#include "cli/job_output.h"

namespace trainbench::cli {

void AddReportCommand(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand(
      "report",
      "Charts and tables of any job's results (" + app::ReportedJobs() +
          "): one self-contained HTML page (several folders of one kind: a comparison); for runs "
          "also PNG charts and MLPerf Storage's replication check");
  command->footer(
      "Examples:\n"
      "  trainbench report results/resnet50_h100-20261121T194635Z        # -> its report.html\n"
      "  trainbench report results/run-a results/run-b -o compare.html   # overlaid, deltas\n"
      "  trainbench report results/run-a --png charts/                   # PNGs via gnuplot\n"
      "  trainbench report --check-replication results/r1 ... results/r5 # exit 0 pass, 1 fail\n"
      "  trainbench report results/stage-20261125T010203Z                # a stage's account\n"
      "The page opens from disk with no network: Chart.js (Debian's libjs-chart.js) is inlined.");
  static app::ReportOptions flags;
  command
      ->add_option(
          "results", flags.folders,
          "Results folders (\"results: FOLDER\" as each job printed it) of " + app::ReportedJobs())
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
                      std::string("Chart.js 3.x to inline (default ") + app::DefaultChartJs() +
                          ", from libjs-chart.js)");
  command->callback([&action] { action = [] { return ShowJobReport(app::ReportJob(flags)); }; });
}

}  // namespace trainbench::cli
