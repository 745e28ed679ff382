// One run of a sweep (a probe of `--find-max-accelerators`, a point of a grid): a RunJob
// with no live view, its summary captured for the sweep's figures (sweep/probe.h), and the
// exit status of a sweep that a run stopped. Not thread-safe: the sweep's thread runs one at a
// time.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/run/run_job.h"

namespace trainbench::app {

// One run of a sweep on every rank: RunJob with its results in `sink` (rank 0's; null
// elsewhere) and no live view. Rank 0 gets the run's summary.json and folder.
struct ProbeRun {
  int code = 0;  // RunJob's: 0, 1, 130 interrupted
  nlohmann::json summary;
  std::string folder;
};
ProbeRun RunProbe(RunJobOptions run, JobEnv& env, std::unique_ptr<ResultsSink> sink);

// The exit status of a sweep that a run stopped: 130 when Ctrl-C stopped it (as the run), 1
// for anything else.
int StoppedSweepExitCode(int run_code);

}  // namespace trainbench::app
