#include "app/grid_sweep_job.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/strings.h"
#include "config/workload_yaml.h"
#include "formats/crc32c.h"
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
        config::ApplyOverride(o.axes[a].key + "=" + value, p.run.config, warnings);
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
                        p.run.samples_per_second, p.run.mb_per_second, VerdictWord(p.run),
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
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  if (options.axes.empty())
    throw UsageError(
        "sweep: give what to sweep (key=v1,v2,... or --accelerators 8,16,...), or "
        "--find-max-accelerators");
  const auto planned = Plan(options, ranks.Size());  // every point's config, before any run
  const auto& config = options.run.config;
  const std::string folder =
      (fs::path(options.output) /
       fmt::format("sweep-{}-grid-{}", config.workload_name, GridId(options, ranks.Size())))
          .string();
  const std::string journal = folder + "/points.jsonl";

  // What an earlier invocation finished (rank 0 reads, every rank learns).
  std::map<std::string, SweepProbe> done;
  std::string done_text;
  if (lead) {
    std::error_code ec;
    fs::create_directories(folder + "/points", ec);
    if (ec)
      throw UsageError(fmt::format("output.folder: cannot create {}: {}", folder, ec.message()));
    std::ifstream in(journal);
    std::string line;
    while (std::getline(in, line)) {
      try {
        const auto j = nlohmann::json::parse(line);
        done[Key(j.at("values").get<std::vector<std::string>>())] = ProbeFromJson(j.at("run"));
      } catch (const std::exception&) {
        // A line cut by a kill: that point runs again.
      }
    }
    for (const auto& [key, probe] : done) done_text += key + "\x1e";
  }
  done_text = ranks.AllGather(done_text).front();

  report::ResultEnvelope envelope;
  envelope.kind = "sweep";
  envelope.workload = config.workload_name;
  envelope.started = UtcStamp();
  // A resumed sweep started when its first invocation did.
  const std::string summary_path = folder + "/summary.json";
  bool earlier_complete = false;
  if (lead && !done.empty()) {
    try {
      std::ifstream in(summary_path);
      const auto earlier = nlohmann::json::parse(in);
      envelope.started = earlier.value("started", envelope.started);
      earlier_complete = earlier.value("complete", false);
    } catch (const std::exception&) {
      // No summary yet (killed before its first write): this invocation's start stands.
    }
  }
  envelope.config = config::ToJson(config);
  envelope.host_names = report::DistinctHosts(ranks.Gather(ranks.Host()));

  GridSweepOutcome out;
  out.reports = lead;
  out.total_points = planned.size();
  const size_t resumed = done.size();
  if (lead)
    LogInfo(fmt::format(
        "sweep {}: {} points ({}){}; results in {}", config.workload_name, planned.size(),
        fmt::join(
            [&] {
              std::vector<std::string> axes;
              for (const auto& a : options.axes)
                axes.push_back(fmt::format("{} {}", a.key, fmt::join(a.values, ",")));
              return axes;
            }(),
            " x "),
        resumed ? fmt::format(", {} done by an earlier run", resumed) : "", folder));

  auto write_summary = [&] {
    nlohmann::ordered_json f;
    f["mode"] = "grid";
    auto& axes = f["axes"] = nlohmann::ordered_json::array();
    for (const auto& a : options.axes) axes.push_back({{"key", a.key}, {"values", a.values}});
    f["points_total"] = out.total_points;
    f["points_done"] = out.points.size();
    f["points_resumed"] = resumed;
    auto& rows = f["points"] = nlohmann::ordered_json::array();
    std::vector<SweepProbe> runs;
    // points.csv's leading columns: the swept keys but accelerators, a column of its own.
    std::vector<std::string> keys;
    std::vector<std::vector<std::string>> values;
    for (const auto& a : options.axes)
      if (a.key != kAccelerators) keys.push_back(a.key);
    for (const auto& p : out.points) {
      auto& row_values = values.emplace_back();
      for (size_t a = 0; a < options.axes.size(); ++a)
        if (options.axes[a].key != kAccelerators) row_values.push_back(p.values[a]);
      nlohmann::ordered_json row;
      for (size_t a = 0; a < options.axes.size(); ++a)
        row["values"][options.axes[a].key] = p.values[a];
      row["run"] = ProbeJson(p.run);
      rows.push_back(row);
      runs.push_back(p.run);
    }
    envelope.finished = UtcStamp();
    envelope.complete = out.points.size() == out.total_points;
    envelope.stop_reason = out.error;
    report::WriteResultFile(folder, "points.csv", ProbesCsv(runs, keys, values));
    report::WriteResultFile(folder, "summary.json",
                            report::WithEnvelope(envelope, f).dump(2) + "\n");
    return f;
  };

  for (const auto& p : planned) {
    const std::string key = Key(p.values);
    if (done_text.find(key + "\x1e") != std::string::npos) {
      if (lead) out.points.push_back({p.values, done.at(key), true});
      continue;
    }
    RunJobOptions run = p.run;
    const auto size = static_cast<uint64_t>(ranks.Size());
    const auto rank = static_cast<uint64_t>(ranks.Rank());
    run.accelerators = p.accelerators / size + (rank < p.accelerators % size ? 1 : 0);
    run.config.output.folder = folder + "/points";
    const ProbeRun done_run = RunProbe(
        run, env,
        lead ? std::make_unique<FolderResults>(folder + "/points", run.config.output.log_file)
             : nullptr);
    // The same decision on every rank (RunJob's status is the job's): no rank waits alone.
    if (done_run.code != 0) {
      out.exit_code = StoppedSweepExitCode(done_run.code);
      out.error = fmt::format(
          "the run at {} ended with exit {}{}", fmt::join(p.values, ", "), done_run.code,
          done_run.code == static_cast<int>(ExitCode::kInterrupted) ? " (interrupted)" : "");
      break;
    }
    if (!lead) continue;
    GridPoint point{
        p.values, ProbeOf(done_run.summary, p.accelerators, true, DemandPerAccelerator(run.config)),
        false};
    point.run.folder = done_run.folder;
    nlohmann::ordered_json entry;
    entry["values"] = p.values;
    entry["run"] = ProbeJson(point.run);
    report::AppendResultLine(folder, "points.jsonl", entry.dump());
    out.points.push_back(std::move(point));
    write_summary();  // a sweep killed later keeps what it measured
  }
  if (!lead) return out;
  try {
    // A rerun that ran nothing leaves the finished sweep's summary as it was.
    if (out.points.size() != resumed || !out.error.empty() || !earlier_complete) write_summary();
    out.results.folder = folder;
  } catch (const std::exception& e) {
    out.results.error = e.what();
  }
  nlohmann::ordered_json line;
  line["trainbench_sweep"] = {{"mode", "grid"},
                              {"points_total", out.total_points},
                              {"points_done", out.points.size()},
                              {"points_resumed", resumed}};
  out.line = FinalLine(line, envelope, out.results.folder);
  out.text = GridText(options.axes, out.points);
  return out;
}

}  // namespace trainbench::app
