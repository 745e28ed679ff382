// `trainbench sweep WORKLOAD key=v1,v2,... [--accelerators 8,16]`: runs the grid of every
// combination of the swept values, one `run` per point, each with its own results folder
// under the sweep's (<output>/sweep-<workload>-grid-<id>/points/), and a sweep summary
// (summary.json, kind sweep, mode grid; points.csv). The sweep's folder is named by what it
// sweeps (the resolved config and the axes), and every finished point is journaled
// (points.jsonl, synced) as it ends: a sweep that is interrupted or killed keeps its points,
// and the same command again runs only the rest. Not thread-safe: one job per process.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/frame/job_results.h"
#include "app/run/run_job.h"
#include "sweep/probe.h"

namespace trainbench::app {

// One swept key and its values, in order ("accelerators" is the run's count, split over
// ranks as `sweep --find-max-accelerators` splits it; any other key is a config override).
struct GridAxis {
  std::string key;
  std::vector<std::string> values;
};

struct GridSweepOptions {
  RunJobOptions run;  // the workload with its fixed overrides, and the run's flags
  std::vector<GridAxis> axes;
  std::string output;  // the folder the sweep's folder goes in (output.folder)
};

struct GridPoint {
  std::vector<std::string> values;  // one per axis, in the axes' order
  sweep::SweepProbe run;
  bool resumed = false;  // finished by an earlier invocation
};

// text: a row per finished point; line: {"trainbench_sweep": {...}, "trainbench": {...}};
// exit_code 130 (interrupted) or 1 when a point's run stopped the grid, `error` naming it.
struct GridSweepOutcome : JobReport {
  std::vector<GridPoint> points;  // finished ones, in grid order
  size_t total_points = 0;
};

// Takes the swept keys out of `overrides`: KEY=V1,V2,... is an axis (a "workload." or
// "++workload." prefix dropped, as the config's keys have none), and what is left stays a
// fixed override; a value in braces or brackets (a YAML map or list, with commas of its
// own) is one value.
std::vector<GridAxis> TakeGridAxes(std::vector<std::string>& overrides);

// Throws UsageError before any run for an empty axis, a key twice, or a value the config
// refuses (every point's config is resolved first).
GridSweepOutcome GridSweepJob(const GridSweepOptions& options, JobEnv& env);

}  // namespace trainbench::app
