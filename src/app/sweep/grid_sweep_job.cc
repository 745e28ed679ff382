#include "app/sweep/grid_sweep_job.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include "app/frame/job_frame.h"
#include "app/sweep/sweep_probe.h"
#include "app/workload_load.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/json_fields.h"
#include "common/log.h"
#include "common/strings.h"
#include "config/workload_yaml.h"
#include "formats/wire/crc32c.h"
#include "report/results_folder.h"

namespace trainbench::app {
namespace {
namespace fs = std::filesystem;

constexpr const char* kAccelerators = "accelerators";

struct PlannedPoint {
  std::vector<std::string> values;
  RunJobOptions run;
  uint64_t accelerators = 0;  // the whole job's
};

std::vector<PlannedPoint> Plan(const GridSweepOptions& o, int ranks) {
  std::set<std::string> keys;
  for (const auto& axis : o.axes) {
    if (axis.values.empty())
      throw UsageError(
          fmt::format("{}: give the values to sweep, e.g. {}=1,2,4", axis.key, axis.key));
    if (!keys.insert(axis.key).second)
      throw UsageError(fmt::format("{} is swept twice: give its values once", axis.key));
  }
  std::vector<PlannedPoint> points;
  std::vector<size_t> at(o.axes.size(), 0);
  while (true) {
    PlannedPoint p;
    p.run = o.run;
    p.accelerators = o.run.accelerators * static_cast<uint64_t>(ranks);
    std::vector<std::string> warnings;
    for (size_t a = 0; a < o.axes.size(); ++a) {
      const auto& value = o.axes[a].values[at[a]];
      p.values.push_back(value);
      if (o.axes[a].key == kAccelerators) {
        try {
          size_t used = 0;
          p.accelerators = std::stoull(value, &used);
          if (used != value.size() || p.accelerators == 0) throw std::invalid_argument(value);
        } catch (const std::exception&) {
          throw UsageError(fmt::format("--accelerators {}: give counts of at least 1", value));
        }
        if (p.accelerators < static_cast<uint64_t>(ranks))
          throw UsageError(fmt::format("--accelerators {} over {} ranks leaves a rank without one",
                                       value, ranks));
      } else {
        ApplyCheckedOverride(o.axes[a].key + "=" + value, p.run.config, warnings);
      }
    }
    points.push_back(std::move(p));
    size_t a = o.axes.size();
    while (a > 0 && ++at[a - 1] == o.axes[a - 1].values.size()) at[--a] = 0;
    if (a == 0) break;
  }
  return points;
}

// The sweep's folder is named by what it sweeps: the same command finds it again.
std::string GridId(const GridSweepOptions& o, int ranks) {
  std::string text = config::ToYaml(o.run.config) + fmt::format("ranks={};", ranks) +
                     fmt::format("accelerators={};", o.run.accelerators);
  for (const auto& axis : o.axes)
    text += axis.key + "=" + fmt::format("{}", fmt::join(axis.values, ",")) + ";";
  return fmt::format("{:08x}", formats::Crc32c(text.data(), text.size()));
}

std::string Key(const std::vector<std::string>& values) {
  return fmt::format("{}", fmt::join(values, "\x1f"));
}

double DemandPerAccelerator(const config::WorkloadConfig& c) {
  const double t = c.train.computation_time.mean;
  return t > 0 ? static_cast<double>(c.reader.batch_size) * c.dataset.record_length_bytes / t : 0;
}

// A row per finished point: its values, then the run's AU, rate and verdict.
std::string GridText(const std::vector<GridAxis>& axes, const std::vector<GridPoint>& points) {
  std::string text;
  for (const auto& axis : axes) text += fmt::format("{:>16} ", axis.key);
  text += "    AU %  samples/s      MB/s  verdict\n";
  for (const auto& p : points) {
    for (const auto& v : p.values) text += fmt::format("{:>16} ", v);
    text += fmt::format("{:>7.2f} {:>10.1f} {:>9.1f}  {}{}\n", p.run.au_percentage,
                        p.run.samples_per_second, p.run.mb_per_second, sweep::VerdictWord(p.run),
                        p.resumed ? " (earlier)" : "");
  }
  return text;
}

// An override's key without DLIO's "++workload." or "workload." prefix.
std::string OverrideKey(const std::string& override_text) {
  std::string key = override_text.substr(0, override_text.find('='));
  for (const std::string_view prefix : {"++workload.", "workload."})
    if (key.starts_with(prefix)) key = key.substr(prefix.size());
  return key;
}

// What an earlier invocation of the same grid left in its folder: the points it journaled
// (points.jsonl; a line cut by a kill is skipped, and that point runs again) and its summary's
// start and ending.
struct EarlierGrid {
  std::map<std::string, sweep::SweepProbe> done;  // by Key(values)
  std::string started;                            // "" without a summary
  bool complete = false;
};

EarlierGrid ReadEarlierGrid(const std::string& folder) {
  EarlierGrid earlier;
  std::ifstream in(folder + "/points.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    try {
      const auto j = nlohmann::json::parse(line);
      earlier.done[Key(j.at("values").get<std::vector<std::string>>())] =
          sweep::ProbeFromJson(j.at("run"));
    } catch (const std::exception&) {
    }
  }
  if (earlier.done.empty()) return earlier;
  try {
    std::ifstream summary(folder + "/summary.json");
    const auto j = nlohmann::json::parse(summary);
    earlier.started = j.value("started", std::string());
    earlier.complete = j.value("complete", false);
  } catch (const std::exception&) {
    // No summary yet (killed before its first write): this invocation's start stands.
  }
  return earlier;
}

// A grid's figures in summary.json: its axes, how far it got, and each point's run.
struct GridAxisFigures {
  std::string key;
  std::vector<std::string> values;
};
TB_JSON_FIELDS(GridAxisFigures, key, values)

struct GridPointFigures {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();  // axis key: its value
  nlohmann::ordered_json run;                                        // sweep::ProbeJson
};
TB_JSON_FIELDS(GridPointFigures, values, run)

struct GridFigures {
  std::string mode = "grid";
  std::vector<GridAxisFigures> axes;
  uint64_t points_total = 0;
  uint64_t points_done = 0;
  uint64_t points_resumed = 0;
  std::vector<GridPointFigures> points;
};
TB_JSON_FIELDS(GridFigures, mode, axes, points_total, points_done, points_resumed, points)

// The final line's figures of a grid.
struct GridLine {
  std::string mode;
  uint64_t points_total = 0;
  uint64_t points_done = 0;
  uint64_t points_resumed = 0;
};
TB_JSON_FIELDS(GridLine, mode, points_total, points_done, points_resumed)

// A point as the journal (points.jsonl) keeps it: its values in the axes' order, its run.
struct GridJournalEntry {
  std::vector<std::string> values;
  nlohmann::ordered_json run;
};
TB_JSON_FIELDS(GridJournalEntry, values, run)

// A grid sweep while it runs, in its steps: Open (the plan of every point, the folder named by
// what it sweeps, what an earlier invocation finished, and rank 0's results writer, whose first
// summary a kill -9 leaves), Work (a run per point not yet done, each journaled and the summary
// rewritten as it ends), Report (the final summary, text and line).
class GridRun {
 public:
  GridRun(const GridSweepOptions& options, JobEnv& env)
      : options_(options),
        config_(options.run.config),
        env_(env),
        ranks_(env.ranks),
        lead_(ranks_.Rank() == 0),
        sink_(options.output, "") {}

  void Open();
  void Work();
  GridSweepOutcome Report();

 private:
  void OpenResults();
  // False where the point's run stopped the grid (the same decision on every rank).
  bool RunPoint(const PlannedPoint& p);
  void Keep(GridPoint point);
  nlohmann::ordered_json Figures() const;
  std::string PointsCsv() const;

  const GridSweepOptions& options_;
  const config::WorkloadConfig& config_;
  JobEnv& env_;
  dist::Communicator& ranks_;
  const bool lead_;
  std::vector<PlannedPoint> planned_;
  std::map<std::string, size_t> order_;  // a point's place in the grid, by Key(values)
  std::string name_, folder_;
  EarlierGrid earlier_;
  std::string done_text_;  // every rank's view of the keys done, each ended by \x1e
  size_t resumed_ = 0;
  FolderResults sink_;             // rank 0's results folder, written through the frame
  std::optional<JobFrame> frame_;  // from Open
  GridSweepOutcome out_;
};

void GridRun::Open() {
  if (options_.axes.empty())
    throw UsageError(
        "sweep: give what to sweep (key=v1,v2,... or --accelerators 8,16,...), or "
        "--find-max-accelerators");
  planned_ = Plan(options_, ranks_.Size());  // every point's config, before any run
  for (size_t i = 0; i < planned_.size(); ++i) order_[Key(planned_[i].values)] = i;
  name_ = fmt::format("sweep-{}-grid-{}", config_.workload_name, GridId(options_, ranks_.Size()));
  folder_ = (fs::path(options_.output) / name_).string();
  // What an earlier invocation finished (rank 0 reads, every rank learns).
  if (lead_) {
    earlier_ = ReadEarlierGrid(folder_);
    for (const auto& [key, probe] : earlier_.done) done_text_ += key + "\x1e";
  }
  done_text_ = ranks_.AllGather(done_text_).front();
  resumed_ = earlier_.done.size();
  report::ResultEnvelope envelope = StartEnvelope("sweep", config_.workload_name, ranks_);
  envelope.config = config::ToJson(config_);
  // A resumed sweep started when its first invocation did.
  if (!earlier_.started.empty()) envelope.started = earlier_.started;
  frame_.emplace(ranks_, &sink_, std::move(envelope), 0.0);
  out_.reports = lead_;
  out_.total_points = planned_.size();
  if (lead_) OpenResults();
  if (!lead_) return;
  std::vector<std::string> axes;
  for (const auto& a : options_.axes)
    axes.push_back(fmt::format("{} {}", a.key, fmt::join(a.values, ",")));
  LogInfo(fmt::format("sweep {}: {} points ({}){}; results in {}", config_.workload_name,
                      planned_.size(), fmt::join(axes, " x "),
                      resumed_ ? fmt::format(", {} done by an earlier run", resumed_) : "",
                      folder_));
}

// The writer's first summary holds the points an earlier invocation finished, marked not
// ended. A finished grid asked again runs nothing and leaves its folder as it was.
void GridRun::OpenResults() {
  for (const auto& p : planned_)
    if (const auto it = earlier_.done.find(Key(p.values)); it != earlier_.done.end())
      out_.points.push_back({p.values, it->second, true});
  if (earlier_.complete && out_.points.size() == planned_.size()) return;
  try {
    frame_->BeginResumable(name_, Figures());
  } catch (const UsageError&) {
    throw;  // another grid holds the folder: its message says what to do
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("output.folder: {}", e.what()));
  }
  frame_->writer().File("points.csv", PointsCsv());  // the end says what it could not write
}

void GridRun::Work() {
  for (const auto& p : planned_) {
    if (done_text_.find(Key(p.values) + "\x1e") != std::string::npos) continue;
    if (!RunPoint(p)) break;
  }
}

bool GridRun::RunPoint(const PlannedPoint& p) {
  RunJobOptions run = p.run;
  const auto size = static_cast<uint64_t>(ranks_.Size());
  const auto rank = static_cast<uint64_t>(ranks_.Rank());
  run.accelerators = p.accelerators / size + (rank < p.accelerators % size ? 1 : 0);
  run.config.output.folder = folder_ + "/points";
  const ProbeRun done = RunProbe(
      run, env_,
      lead_ ? std::make_unique<FolderResults>(folder_ + "/points", run.config.output.log_file)
            : nullptr);
  // The same decision on every rank (RunJob's status is the job's): no rank waits alone.
  if (done.code != 0) {
    out_.exit_code = StoppedSweepExitCode(done.code);
    out_.error =
        fmt::format("the run at {} ended with exit {}{}", fmt::join(p.values, ", "), done.code,
                    done.code == static_cast<int>(ExitCode::kInterrupted) ? " (interrupted)" : "");
    return false;
  }
  if (!lead_) return true;
  GridPoint point{
      p.values,
      sweep::ProbeOf(done.summary, p.accelerators, true, DemandPerAccelerator(run.config)), false};
  point.run.folder = done.folder;
  Keep(std::move(point));
  return true;
}

// Journaled as it ends, and the summary and points.csv rewritten: a sweep killed later keeps
// what it measured, and its rerun runs only the rest.
void GridRun::Keep(GridPoint point) {
  const nlohmann::ordered_json entry = GridJournalEntry{point.values, sweep::ProbeJson(point.run)};
  report::AppendResultLine(folder_, "points.jsonl", entry.dump());
  // In the grid's order, among the points an earlier invocation finished.
  auto at = out_.points.begin();
  while (at != out_.points.end() && order_.at(Key(at->values)) < order_.at(Key(point.values))) ++at;
  out_.points.insert(at, std::move(point));
  frame_->writer().Update(Figures());
  frame_->writer().File("points.csv", PointsCsv());
}

nlohmann::ordered_json GridRun::Figures() const {
  GridFigures f;
  for (const auto& a : options_.axes) f.axes.push_back({a.key, a.values});
  f.points_total = out_.total_points;
  f.points_done = out_.points.size();
  f.points_resumed = resumed_;
  for (const auto& p : out_.points) {
    GridPointFigures row;
    for (size_t a = 0; a < options_.axes.size(); ++a)
      row.values[options_.axes[a].key] = p.values[a];
    row.run = sweep::ProbeJson(p.run);
    f.points.push_back(std::move(row));
  }
  return f;
}

// points.csv's leading columns: the swept keys but accelerators, a column of its own.
std::string GridRun::PointsCsv() const {
  std::vector<std::string> keys;
  std::vector<std::vector<std::string>> values;
  std::vector<sweep::SweepProbe> runs;
  for (const auto& a : options_.axes)
    if (a.key != kAccelerators) keys.push_back(a.key);
  for (const auto& p : out_.points) {
    auto& row_values = values.emplace_back();
    for (size_t a = 0; a < options_.axes.size(); ++a)
      if (options_.axes[a].key != kAccelerators) row_values.push_back(p.values[a]);
    runs.push_back(p.run);
  }
  return sweep::ProbesCsv(runs, keys, values);
}

GridSweepOutcome GridRun::Report() {
  if (!lead_) return std::move(out_);
  out_.results.folder = folder_;
  // Written where the frame's folder is open (a grid an earlier invocation finished is not).
  frame_->writer().File("points.csv", PointsCsv());
  JobEnding ending;
  ending.complete = out_.points.size() == out_.total_points;
  ending.stop_reason = out_.error;
  const WrittenResults written = frame_->Finish(ending, Figures(), TimeseriesResult{});
  if (!written.error.empty()) out_.results.error = written.error;
  if (!out_.results.error.empty()) out_.results.folder.clear();
  const GridLine counts{"grid", out_.total_points, out_.points.size(), resumed_};
  nlohmann::ordered_json line = {{"trainbench_sweep", counts}};
  out_.line = FinalLine(line, frame_->envelope(), out_.results.folder);
  out_.text = GridText(options_.axes, out_.points);
  return std::move(out_);
}

}  // namespace

std::vector<GridAxis> TakeGridAxes(std::vector<std::string>& overrides) {
  std::vector<GridAxis> axes;
  std::vector<std::string> fixed;
  for (const auto& o : overrides) {
    const size_t eq = o.find('=');
    const std::string value = eq == std::string::npos ? "" : o.substr(eq + 1);
    if (eq == std::string::npos || value.find(',') == std::string::npos ||
        value.find_first_of("{[") != std::string::npos) {
      fixed.push_back(o);
      continue;
    }
    axes.push_back({OverrideKey(o), Split(value, ',')});
  }
  // A key swept and also given plainly: the plain value would silently win on every point.
  for (const auto& o : fixed) {
    const std::string key = OverrideKey(o);
    for (const auto& axis : axes)
      if (axis.key == key)
        throw UsageError(
            fmt::format("{} is swept ({}) and also given as {}: give it once, swept or not", key,
                        fmt::join(axis.values, ","), o));
  }
  overrides = std::move(fixed);
  return axes;
}

GridSweepOutcome GridSweepJob(const GridSweepOptions& options, JobEnv& env) {
  GridRun grid(options, env);
  grid.Open();
  grid.Work();
  return grid.Report();
}

}  // namespace trainbench::app
