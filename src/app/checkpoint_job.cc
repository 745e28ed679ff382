// CheckpointJob (run_job.h): a checkpointing workload (workflow.train false) reads no
// dataset; every rank writes and reads its checkpoint shards.
#include <fmt/format.h>

#include "app/job_log.h"
#include "app/job_op_log.h"
#include "app/run_job.h"
#include "app/run_report.h"
#include "app/run_rules.h"
#include "common/clock.h"
#include "common/interrupt.h"
#include "common/output_path.h"
#include "sim/checkpoint_run.h"
#include "sim/llm_checkpoint.h"
#include "sim/ranks.h"

namespace trainbench::app {

RunOutcome CheckpointJob(const RunJobOptions& options, JobEnv& env) {
  CheckRunOptions(options);
  const auto& config = options.config;
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  if (lead && env.check_local_folders) CheckWritableFolder(config.output.folder, "output.folder");
  if (!options.op_log.empty()) CheckWritableFile(options.op_log, "--op-log");
  const auto checkpoints =
      env.open_storage(config.checkpoint.checkpoint_folder, config.storage.storage_options);
  if (const auto local = checkpoints->LocalPath(""); local && env.check_local_folders)
    CheckWritableFolder(*local, "checkpoint.checkpoint_folder");
  const sim::RankLayout layout = sim::ExchangeRankLayout(ranks, options.accelerators);
  if (sim::IsSizedTransformer(config.model))  // refuses more ranks than a subset's job
    sim::CheckpointJobRanks(config.model, static_cast<uint64_t>(ranks.Size()));
  const std::string started = UtcStamp();
  ResultsSink* results = lead ? env.results : nullptr;
  JobLog log(results);
  ResultsWriter writer(results, RunEnvelope(config, started, layout), options.interval_s);
  const std::string folder = OpenRunResults(config, writer, started, ranks.Size());
  sim::CheckpointRunOptions run;
  const auto on_host = sim::RanksOnHost(layout, ranks.Host());
  run.ranks_on_host = on_host.size();
  // The host's first rank empties its page cache.
  run.first_rank_on_host = on_host.front() == static_cast<size_t>(ranks.Rank());
  run.drop_caches = options.drop_caches;
  run.accelerators = layout.total_accelerators;
  run.log = [&](const std::string& line) { log.Info(line); };
  // Every shard's PUT and each read of it back.
  JobOpLog op_log(options.op_log, ranks, checkpoints->Describe(""));
  run.storage = &op_log.Wrap(*checkpoints);
  InstallInterruptHandler();
  log.Info(fmt::format(
      "run {}: checkpointing to {} over {} rank(s), {} writes then {} reads, results in {}",
      config.workload_name, checkpoints->Describe(""), ranks.Size(),
      config.checkpoint.num_checkpoints_write, config.checkpoint.num_checkpoints_read, folder));
  report::RulesReport rules;
  if (lead) {
    rules = CheckRunRules(layout, *checkpoints, "the checkpoints", std::nullopt, folder);
    AddCheckpointRules(config, static_cast<uint64_t>(ranks.Size()), rules);
    for (const auto& w : rules.warnings) log.Warn(w);
  }
  const auto mine = sim::RunCheckpointWorkload(config, ranks, run);
  if (op_log) log.Info(op_log.Close());
  return ReportRun({options, env, layout, folder, started, log, lead ? &rules : nullptr, writer},
                   mine);
}

}  // namespace trainbench::app
