// `trainbench train --data URL --stage-to DIR`: the job a training campaign runs on a
// cluster without the dataset: stage --data into DIR exactly as `trainbench stage` does
// (stage::RunStage; a .tar is extracted into DIR while it downloads), train on what arrived,
// and keep one time account of the whole job: the stage's shares (transfer, retry wasted,
// verify, extract) plus compute_s (the training), adding up to the job's wall time. The
// account goes to <--output>/train-<UTC stamp>/summary.json (kind staged_train), which
// `trainbench stage --report` sums into the campaign table and `trainbench report` draws
// with its one time series (stage rows, then train rows). LibTorch is loaded before the
// stage (`ready`), so a build without it fetches nothing. A job that fails later (the
// stage, the training) still writes its account, marked incomplete: a campaign counts its
// failed jobs. What was staged stays in DIR, so a rerun does not fetch whole objects again.
// Not thread-safe: one per process.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <string>

#include "app/train/stage_job.h"
#include "train/trainer.h"

namespace trainbench::app {

struct StagedTrainOptions {
  std::string stage_to;  // DIR; empty: no staging
  std::string output = "./results";
  unsigned streams = 4;
  std::map<std::string, std::string> s3_options;
  double interval_s = 1;  // per time-series row; 0: none
};

// Whether --data names something to stage (an http(s):// or s3:// URL).
bool IsRemoteData(const std::string& data);

// What the job shows when it ends (the account's table, the folder, the training's line with
// the envelope in its "trainbench" object) and the training's failure, if any, to rethrow
// once that is shown.
struct StagedTrainOutcome : JobReport {
  std::exception_ptr failure;
};

// Checks the flags, calls `ready` (it throws when the job cannot train: nothing is fetched
// then), stages options.data into stage_to, points options.data at what was staged, and
// runs `train`, which trains (printing its progress) and returns its final line as JSON
// (null for none). Throws UsageError before anything is fetched for bad flags.
StagedTrainOutcome StagedTrainJob(const StagedTrainOptions& staged, train::TrainOptions& options,
                                  const std::function<void()>& ready,
                                  const std::function<nlohmann::ordered_json()>& train);

}  // namespace trainbench::app
