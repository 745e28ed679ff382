#include "report/page/png_charts.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "common/error.h"
#include "report/page/gnuplot.h"

namespace trainbench::report {
namespace {

namespace fs = std::filesystem;

// A gnuplot string literal: single quotes take everything but a single quote literally.
std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string Title(const std::vector<RunResults>& runs, size_t i) {
  return runs.size() > 1 ? fmt::format("{}: {}", i + 1, runs[i].name) : runs[i].name;
}

void WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw IoError(fmt::format("cannot write {}", path.string()), errno);
}

struct Chart {
  std::string name;  // file name without .png
  std::string body;  // gnuplot commands after `set output`
};

void CreateFolder(const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    throw IoError(fmt::format("cannot create --png folder '{}': {}", folder, ec.message()),
                  ec.value());
}

// The folder the charts are drawn in, inside `folder`. Absolute: the script `cd`s into it,
// and a relative `set output` after that would name a path below it.
fs::path MakeScratch(const std::string& folder) {
  const fs::path scratch =
      fs::absolute(fs::path(folder)) / fmt::format(".trainbench-png-{}", ::getpid());
  std::error_code ec;
  fs::create_directories(scratch, ec);
  if (ec)
    throw IoError(fmt::format("cannot write in --png folder '{}': {}", folder, ec.message()),
                  ec.value());
  return scratch;
}

// One line per interval: elapsed, samples/s, MB/s, data wait %, p50 and p99 ms ('?' for an
// interval without reads).
std::string SeriesData(const RunResults& r) {
  std::string text;
  const auto& s = r.series;
  for (size_t k = 0; k < s.at("elapsed_s").size(); ++k) {
    const bool reads = s.at("reads")[k] > 0;
    text += fmt::format("{} {} {} {} {} {}\n", s.at("elapsed_s")[k], s.at("samples_per_second")[k],
                        s.at("io_MB_per_second")[k], 100 * s.at("data_wait_share")[k],
                        reads ? fmt::format("{}", s.at("read_latency_p50_ms")[k]) : "?",
                        reads ? fmt::format("{}", s.at("read_latency_p99_ms")[k]) : "?");
  }
  return text;
}

// The cumulative share of reads at each bucket's upper bound.
std::string CdfData(const nlohmann::json& histogram) {
  const double total = histogram.at("count").get<double>();
  double seen = 0;
  std::string text;
  for (size_t k = 0; k < histogram.at("counts").size(); ++k) {
    seen += histogram.at("counts")[k].get<double>();
    text += fmt::format("{} {}\n", histogram.at("high_ms")[k].get<double>(), seen / total);
  }
  return text;
}

std::string AuData(const RunResults& r) {
  std::string au;
  const auto& epochs = r.summary.at("metric").value("train_au_percentage", nlohmann::json::array());
  for (size_t e = 0; e < epochs.size(); ++e)
    au += fmt::format("{} {}\n", e + 1, epochs[e].get<double>());
  return au;
}

struct DataFiles {
  bool any_series = false, any_histogram = false;
};

// Data files, one set per run: ts<i>.dat where it has a time series, cdf<i>.dat where it has
// a latency histogram, au<i>.dat always.
DataFiles WriteDataFiles(const std::vector<RunResults>& runs, const fs::path& scratch) {
  DataFiles found;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunResults& r = runs[i];
    if (r.has_timeseries && !r.series.at("elapsed_s").empty()) {
      found.any_series = true;
      WriteText(scratch / fmt::format("ts{}.dat", i), SeriesData(r));
    }
    const auto& h = r.summary.value("read_latency_histogram", nlohmann::json::object());
    if (h.value("count", 0) > 0) {
      found.any_histogram = true;
      WriteText(scratch / fmt::format("cdf{}.dat", i), CdfData(h));
    }
    WriteText(scratch / fmt::format("au{}.dat", i), AuData(r));
  }
  return found;
}

// The plot clauses of every run with a `file` data file, each from `item` (the run and its
// data file's quoted name), as one command's continued lines.
std::string PlotEach(const std::vector<RunResults>& runs, const fs::path& scratch,
                     const std::string& file,
                     const std::function<std::string(size_t, const std::string&)>& item) {
  std::string parts;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (!fs::exists(scratch / fmt::format("{}{}.dat", file, i))) continue;
    parts += (parts.empty() ? "" : ", \\\n  ") + item(i, Quote(fmt::format("{}{}.dat", file, i)));
  }
  return parts;
}

// throughput, data_wait and read_latency: from the time series.
std::vector<Chart> SeriesCharts(const std::vector<RunResults>& runs, const fs::path& scratch) {
  std::vector<Chart> charts;
  charts.push_back(
      {"throughput",
       "set title 'Throughput'\nset xrange [0:*]\nset xlabel 'elapsed (s)'\nset ylabel "
       "'samples/s'\n"
       "set y2label 'MB/s (dashed)'\nset ytics nomirror\nset y2tics\n"
       "set yrange [0:*]\nset y2range [0:*]\n" +
           std::string("plot ") +
           PlotEach(runs, scratch, "ts",
                    [&](size_t i, const std::string& f) {
                      return fmt::format(
                          "{0} using 1:2 with lines lw 2 lc {1} title {2}, {0} using 1:3 "
                          "axes x1y2 with lines dt 2 lc {1} title {3}",
                          f, i + 1, Quote(Title(runs, i) + " samples/s"),
                          Quote(Title(runs, i) + " MB/s"));
                    }) +
           "\n"});
  charts.push_back(
      {"data_wait",
       "set title 'Data wait: share of accelerator time waiting for data'\n"
       "set xrange [0:*]\nset xlabel 'elapsed (s)'\nset ylabel '%'\nset yrange [0:100]\n" +
           std::string("plot ") +
           PlotEach(runs, scratch, "ts",
                    [&](size_t i, const std::string& f) {
                      return fmt::format("{} using 1:4 with lines lw 2 lc {} title {}", f, i + 1,
                                         Quote(Title(runs, i)));
                    }) +
           "\n"});
  charts.push_back(
      {"read_latency",
       "set title 'Read latency per interval (p99 solid, p50 dashed)'\n"
       "set xrange [0:*]\nset xlabel 'elapsed (s)'\nset ylabel 'ms'\nset yrange [0:*]\n" +
           std::string("plot ") +
           PlotEach(runs, scratch, "ts",
                    [&](size_t i, const std::string& f) {
                      return fmt::format(
                          "{0} using 1:6 with lines lw 2 lc {1} title {2}, {0} using 1:5 "
                          "with lines dt 2 lc {1} title {3}",
                          f, i + 1, Quote(Title(runs, i) + " p99"), Quote(Title(runs, i) + " p50"));
                    }) +
           "\n"});
  return charts;
}

Chart LatencyCdfChart(const std::vector<RunResults>& runs, const fs::path& scratch) {
  return {"latency_cdf",
          "set title 'Read latency CDF'\nset logscale x\nset xlabel 'ms'\n"
          "set ylabel 'fraction of reads <= x'\nset yrange [0:1]\n" +
              std::string("plot ") +
              PlotEach(runs, scratch, "cdf",
                       [&](size_t i, const std::string& f) {
                         return fmt::format("{} using 1:2 with steps lw 2 lc {} title {}", f, i + 1,
                                            Quote(Title(runs, i)));
                       }) +
              "\n"};
}

// The runs' bars side by side in each epoch, and the first run's target as a line.
Chart AuEpochsChart(const std::vector<RunResults>& runs, const fs::path& scratch) {
  const double width = 0.8 / static_cast<double>(runs.size());
  return {"au_epochs",
          fmt::format("set title 'AU per epoch (target {:.0f}%)'\nset xlabel 'epoch'\n"
                      "set ylabel 'AU %'\nset yrange [0:105]\nset xtics 1\nset style fill solid "
                      "0.8\n"
                      "set boxwidth {}\n",
                      runs[0].summary.value("au_target_percentage", 0.0), width) +
              std::string("plot ") +
              PlotEach(runs, scratch, "au",
                       [&](size_t i, const std::string& f) {
                         const double offset =
                             (static_cast<double>(i) - (static_cast<double>(runs.size()) - 1) / 2) *
                             width;
                         return fmt::format("{} using ($1+{}):2 with boxes lc {} title {}", f,
                                            offset, i + 1, Quote(Title(runs, i)));
                       }) +
              fmt::format(", {} with lines dt 2 lc rgb '#444444' title 'target'\n",
                          runs[0].summary.value("au_target_percentage", 0.0))};
}

// The charts the data files allow; those left out are named in `skipped`.
std::vector<Chart> Charts(const std::vector<RunResults>& runs, const fs::path& scratch,
                          const DataFiles& data, std::vector<std::string>* skipped) {
  std::vector<Chart> charts;
  if (data.any_series)
    charts = SeriesCharts(runs, scratch);
  else if (skipped)
    skipped->push_back("throughput, data_wait, read_latency (no timeseries.csv)");
  if (data.any_histogram)
    charts.push_back(LatencyCdfChart(runs, scratch));
  else if (skipped)
    skipped->push_back("latency_cdf (no read_latency_histogram in summary.json)");
  charts.push_back(AuEpochsChart(runs, scratch));
  return charts;
}

// One gnuplot script for every chart, each drawn into <scratch>/<name>.png.
std::string Script(const std::vector<Chart>& charts, const std::string& terminal,
                   const fs::path& scratch) {
  std::string script;
  for (const auto& c : charts) {
    script += fmt::format("reset session\nset terminal {} size 1100,520 {}\nset output {}\n",
                          terminal, terminal == "pngcairo" ? "font 'sans,10'" : "",
                          Quote((scratch / (c.name + ".png")).string()));
    script +=
        "set datafile missing '?'\nset grid\nset key outside bottom center horizontal "
        "noenhanced\nset title noenhanced\n";
    script += fmt::format("cd {}\n", Quote(scratch.string())) + c.body + "unset output\n";
  }
  return script;
}

// Each chart appears whole under its final name. Returns their paths.
std::vector<std::string> MoveCharts(const std::vector<Chart>& charts, const fs::path& scratch,
                                    const std::string& folder) {
  std::vector<std::string> written;
  for (const auto& c : charts) {
    const fs::path final_path = fs::path(folder) / (c.name + ".png");
    std::error_code ec;
    fs::rename(scratch / (c.name + ".png"), final_path, ec);
    if (ec)
      throw IoError(fmt::format("cannot write {}: {}", final_path.string(), ec.message()),
                    ec.value());
    written.push_back(final_path.string());
  }
  return written;
}

}  // namespace

std::vector<std::string> WritePngCharts(const std::vector<RunResults>& runs,
                                        const std::string& folder,
                                        std::vector<std::string>* skipped) {
  CreateFolder(folder);
  const std::string terminal = GnuplotPngTerminal();
  const fs::path scratch = MakeScratch(folder);
  struct Cleanup {
    fs::path path;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } cleanup{scratch};
  const std::vector<Chart> charts = Charts(runs, scratch, WriteDataFiles(runs, scratch), skipped);
  WriteText(scratch / "charts.gp", Script(charts, terminal, scratch));
  RunGnuplot((scratch / "charts.gp").string(), (scratch / "gnuplot.log").string());
  return MoveCharts(charts, scratch, folder);
}

}  // namespace trainbench::report
