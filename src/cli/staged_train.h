// `trainbench train --data URL --stage-to DIR`: the job a training campaign runs on a
// cluster without the dataset: stage --data into DIR exactly as `trainbench stage` does
// (stage::RunStage; a .tar is extracted into DIR while it downloads), train on what arrived,
// and keep one time account of the whole job: the stage's shares (transfer, retry wasted,
// verify, extract) plus compute_s (the training), adding up to
// the job's wall time. The account is printed as a table before the training's final JSON
// line and written to <--output>/train-<UTC stamp>/summary.json, which
// `trainbench stage --report` sums into the campaign table. LibTorch is loaded before the
// stage (`ready`), so a build without it fetches nothing. A job that fails later (the
// stage, the training) still writes its account, marked incomplete: a
// campaign counts its failed jobs. What was staged stays in DIR, so a rerun does not fetch
// whole objects again. Not thread-safe: one per process.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "train/trainer.h"

namespace trainbench::cli {

struct StagedTrainArgs {
  std::string stage_to;  // DIR; empty: no staging
  std::string output = "./results";
  unsigned streams = 4;
  std::vector<std::string> s3_options;  // KEY=VALUE
  double interval = 1;                  // seconds per time-series row; 0: none
};

// Whether --data names something to stage (an http(s):// or s3:// URL).
bool IsRemoteData(const std::string& data);

// Checks the flags, calls `ready` (it throws when the job cannot train: nothing is fetched
// then), stages options.data into args.stage_to, points options.data at what was staged, and
// runs
// `train`, which trains (printing its progress) and returns the line to print last on
// stdout (the training's JSON line; empty for none). Then prints the account's table, the
// results folder, and that line. Throws UsageError before anything is fetched for bad
// flags; a stage that fails returns its exit code; an exception from `train` is recorded
// in the account and rethrown once the account is written.
int RunStagedTrain(const StagedTrainArgs& args, train::TrainOptions& options,
                   const std::function<void()>& ready, const std::function<std::string()>& train);

}  // namespace trainbench::cli
