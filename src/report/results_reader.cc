#include "report/results_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "common/error.h"
#include "report/result_envelope.h"

namespace trainbench::report {
namespace {

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  return cells;
}

void ReadTimeseries(const std::filesystem::path& path, RunResults& r) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return;
  const auto header = SplitCsvLine(line);
  std::vector<std::vector<std::string>> rows;
  bool has_all = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto cells = SplitCsvLine(line);
    // A run killed while writing a row leaves that row cut short at the end: drop it.
    if (cells.size() != header.size() && in.eof()) break;
    if (cells.size() != header.size())
      throw UsageError(
          fmt::format("{}: line {} has {} fields, the header {}; the file is damaged "
                      "(run again, or pass the folder without it)",
                      path.string(), rows.size() + 2, cells.size(), header.size()));
    has_all = has_all || cells[0] == "all";
    rows.push_back(std::move(cells));
  }
  // A header alone (a checkpointing run, a run killed before its first row) is no series.
  r.has_timeseries = !rows.empty();
  r.timeseries_rank = has_all ? "all" : "0";
  for (const auto& cells : rows) {
    if (cells[0] != r.timeseries_rank) continue;
    for (size_t c = 1; c < header.size(); ++c) {
      if (header[c] == "phase") {
        r.phases.push_back(cells[c]);
        continue;
      }
      try {
        r.series[header[c]].push_back(std::stod(cells[c]));
      } catch (const std::exception&) {
        throw UsageError(fmt::format("{}: column {} holds '{}', not a number; the file is damaged",
                                     path.string(), header[c], cells[c]));
      }
    }
  }
}

}  // namespace

RunResults ReadRunResults(const std::string& folder) {
  namespace fs = std::filesystem;
  RunResults r;
  r.folder = folder;
  fs::path dir(folder);
  r.name = (dir.has_filename() ? dir : dir.parent_path()).filename().string();
  if (!fs::is_directory(dir))
    throw UsageError(fmt::format(
        "results folder '{}' {}: give the results folder of a trainbench job, the one it "
        "printed as \"results: FOLDER\" (a run's is <output.folder>/<workload>-<UTC stamp>/)",
        folder, fs::exists(dir) ? "is not a folder" : "does not exist"));
  const fs::path summary = dir / "summary.json";
  if (!fs::exists(summary) && fs::exists(dir / "config.yaml")) {
    // A run killed before its results were written (SIGKILL, a lost node): what its time
    // series holds so far, marked incomplete.
    r.config_yaml = Slurp(dir / "config.yaml");
    if (fs::exists(dir / "timeseries.csv")) ReadTimeseries(dir / "timeseries.csv", r);
    std::smatch stamp;  // <workload>-<UTC stamp>[-N]
    const bool named = std::regex_match(r.name, stamp, std::regex(R"((.+)-(\d{8}T\d{6}Z)(-\d+)?)"));
    r.summary = {{"workload", named ? stamp[1].str() : r.name},
                 {"start", named ? stamp[2].str() : ""},
                 {"complete", false},
                 {"killed", true},
                 {"stop_reason",
                  "the run ended without writing its results (killed?): only its time series so "
                  "far and config.yaml are here"},
                 {"metric", nlohmann::json::object()}};
    r.kind = "run";  // only a run keeps config.yaml
    return r;
  }
  if (!fs::exists(summary))
    throw UsageError(
        fmt::format("'{}' has no summary.json: give the results folder of a trainbench job, "
                    "the one it printed as \"results: FOLDER\" (a run's is "
                    "<output.folder>/<workload>-<UTC stamp>/)",
                    folder));
  try {
    r.summary = nlohmann::json::parse(Slurp(summary));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("{}: not valid JSON ({}); the job may have been cut short",
                                 summary.string(), e.what()));
  }
  if (r.summary.is_object() && !r.summary.contains("kind") && r.summary.contains("metric"))
    // A run's from before the envelope.
    r.kind = r.summary.value("checkpointing_only", false) ? "checkpoint" : "run";
  else
    r.kind = EnvelopeOf(r.summary, summary.string()).kind;
  if ((r.kind == "run" || r.kind == "checkpoint") && !r.summary.contains("metric"))
    throw UsageError(
        fmt::format("{}: not a trainbench summary (no `metric` field)", summary.string()));
  if (fs::exists(dir / "config.yaml")) r.config_yaml = Slurp(dir / "config.yaml");
  if (fs::exists(dir / "timeseries.csv")) ReadTimeseries(dir / "timeseries.csv", r);
  return r;
}

namespace {
std::string Family(const std::string& kind) { return kind == "checkpoint" ? "run" : kind; }
}  // namespace

void CheckOneKind(const std::vector<RunResults>& results) {
  std::vector<std::string> listed;
  bool mixed = false;
  for (const auto& r : results) {
    listed.push_back(fmt::format("{} ({})", r.folder, r.kind));
    mixed = mixed || Family(r.kind) != Family(results.front().kind);
  }
  if (mixed)
    throw UsageError(fmt::format(
        "these results are of different kinds and cannot share a page: {}; report each kind "
        "on its own (several folders of one kind are compared)",
        fmt::join(listed, ", ")));
}

bool AreRunResults(const std::vector<RunResults>& results) {
  for (const auto& r : results)
    if (Family(r.kind) != "run") return false;
  return true;
}

}  // namespace trainbench::report
