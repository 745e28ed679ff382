// CheckpointJob (run_job.h): a checkpointing workload (workflow.train false) reads no
// dataset; every rank writes and reads its checkpoint shards, or with
// checkpoint.num_checkpoints_write 0 reads the shards an earlier job wrote.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/frame/job_log.h"
#include "app/frame/job_op_log.h"
#include "app/run/run_job.h"
#include "app/run/run_report.h"
#include "app/run/run_rules.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/interrupt.h"
#include "common/output_path.h"
#include "sim/checkpoint_records.h"
#include "sim/checkpoint_run.h"
#include "sim/checkpointer.h"
#include "sim/llm_checkpoint.h"
#include "sim/ranks.h"

namespace trainbench::app {
namespace {

// Rank 0's refusal of a read-only run that finds fewer than it asks for (exit 2, before any
// work): the folder, what it holds, and what to run first.
UsageError TooFewToRead(const config::WorkloadConfig& config, const std::string& folder,
                        const sim::RecordedCheckpoints& found, int ranks) {
  const int64_t want = config.checkpoint.num_checkpoints_read;
  const std::string write_first = fmt::format(
      "run a job that writes them first with this workload, model and {} rank(s) "
      "(checkpoint.num_checkpoints_write={} checkpoint.num_checkpoints_read=0), then this again",
      ranks, want);
  if (found.readable.empty() && found.unreadable.empty())
    return UsageError(fmt::format(
        "checkpoint.checkpoint_folder {} holds no checkpoint trainbench wrote (no {}<R>.json "
        "record in it), and this run writes none (checkpoint.num_checkpoints_write=0) to read "
        "back: {}",
        folder, sim::kCheckpointRecordStem, write_first));
  // Why the first few recorded ones cannot be read.
  constexpr size_t kShown = 3;
  const size_t shown = std::min(kShown, found.unreadable.size());
  const std::string why = fmt::format(
      "{}{}", fmt::join(found.unreadable.begin(), found.unreadable.begin() + shown, "; "),
      found.unreadable.size() > shown ? "; ..." : "");
  if (found.readable.empty())
    return UsageError(fmt::format(
        "checkpoint.checkpoint_folder {} holds {} checkpoint(s) trainbench wrote, none that this "
        "run can read ({}): {}",
        folder, found.unreadable.size(), why, write_first));
  std::vector<std::string> names;
  for (const auto& c : found.readable) names.push_back(c.path);
  return UsageError(fmt::format(
      "checkpoint.checkpoint_folder {} holds {} checkpoint(s) this run can read ({}){}, "
      "checkpoint.num_checkpoints_read asks for {}: read {} (checkpoint.num_checkpoints_read={}), "
      "or {}",
      folder, names.size(), fmt::join(names, ", "),
      found.unreadable.empty()
          ? ""
          : fmt::format(" and {} it cannot read ({})", found.unreadable.size(), why),
      want, names.size(), names.size(), write_first));
}

// A run that writes no checkpoint reads those an earlier job wrote in the folder: rank 0
// finds them by their records before any work and refuses (every rank ends with it) when
// fewer than checkpoint.num_checkpoints_read match this run; the other ranks get its list.
// `skipped` gets rank 0's recorded checkpoints that this run cannot read.
std::vector<metrics::CheckpointRecord> EarlierCheckpoints(const config::WorkloadConfig& config,
                                                          storage::Storage& folder,
                                                          dist::Communicator& ranks,
                                                          std::vector<std::string>& skipped) {
  if (config.checkpoint.num_checkpoints_read <= 0)
    throw UsageError(fmt::format(
        "checkpoint.num_checkpoints_write=0 and checkpoint.num_checkpoints_read={}: this run "
        "would write and read nothing; to read the checkpoints an earlier job wrote in {}, set "
        "checkpoint.num_checkpoints_read=N",
        config.checkpoint.num_checkpoints_read, folder.Describe("")));
  nlohmann::json list = nlohmann::json::array();
  if (ranks.Rank() == 0) {
    auto found = sim::FindRecordedCheckpoints(folder, config, ranks.Size());
    if (found.readable.size() < static_cast<size_t>(config.checkpoint.num_checkpoints_read))
      throw TooFewToRead(config, folder.Describe(""), found, ranks.Size());
    skipped = std::move(found.unreadable);
    for (const auto& c : found.readable)
      list.push_back({{"path", c.path},
                      {"epoch", c.epoch},
                      {"step", c.step},
                      {"bytes", c.bytes},
                      {"files", c.files}});
  }
  const auto all = ranks.Size() > 1 ? ranks.AllGather(list.dump()) : std::vector{list.dump()};
  std::vector<metrics::CheckpointRecord> earlier;
  for (const auto& c : nlohmann::json::parse(all.front())) {
    metrics::CheckpointRecord r;
    r.operation = "write";
    r.path = c.at("path").get<std::string>();
    r.epoch = c.at("epoch").get<uint64_t>();
    r.step = c.at("step").get<uint64_t>();
    r.bytes = c.at("bytes").get<uint64_t>();
    r.files = c.at("files").get<uint64_t>();
    earlier.push_back(r);
  }
  return earlier;
}

// The run's first line: what it writes and reads, where, over how many ranks.
std::string StartLine(const config::WorkloadConfig& config, const std::string& where, int ranks,
                      const std::vector<metrics::CheckpointRecord>& earlier,
                      const std::string& results) {
  const auto& k = config.checkpoint;
  const std::string whose = k.read_shard_offset % static_cast<uint64_t>(ranks) == 0
                                ? ""
                                : fmt::format(", rank r reading the shard of rank (r + {}) mod {}",
                                              k.read_shard_offset, ranks);
  if (k.num_checkpoints_write != 0)
    return fmt::format(
        "run {}: checkpointing to {} over {} rank(s), {} writes then {} reads{}, results in {}",
        config.workload_name, where, ranks, k.num_checkpoints_write, k.num_checkpoints_read, whose,
        results);
  // The last num_checkpoints_read, as sim::RunCheckpointWorkload reads them.
  const size_t n = std::min(earlier.size(), static_cast<size_t>(k.num_checkpoints_read));
  std::vector<std::string> names;
  for (size_t i = earlier.size() - n; i < earlier.size(); ++i) names.push_back(earlier[i].path);
  return fmt::format(
      "run {}: reading {} checkpoint(s) an earlier job wrote in {} ({}) over {} rank(s), no "
      "writes{}, results in {}",
      config.workload_name, n, where, fmt::join(names, ", "), ranks, whose, results);
}

}  // namespace

RunOutcome CheckpointJob(const RunJobOptions& options, JobEnv& env) {
  CheckRunOptions(options);
  const auto& config = options.config;
  dist::Communicator& ranks = env.ranks;
  const bool lead = ranks.Rank() == 0;
  if (lead && env.check_local_folders) CheckWritableFolder(config.output.folder, "output.folder");
  if (!options.op_log.empty()) CheckWritableFile(options.op_log, "--op-log");
  const auto checkpoints =
      env.open_storage(config.checkpoint.checkpoint_folder, config.storage.storage_options);
  // A run that only reads writes nothing there (and makes no folder).
  const bool read_only = config.checkpoint.num_checkpoints_write == 0;
  if (const auto local = checkpoints->LocalPath(""); local && env.check_local_folders && !read_only)
    CheckWritableFolder(*local, "checkpoint.checkpoint_folder");
  const sim::RankLayout layout = sim::ExchangeRankLayout(ranks, options.accelerators);
  if (sim::IsSizedTransformer(config.model))  // refuses more ranks than a subset's job
    sim::CheckpointJobRanks(config.model, static_cast<uint64_t>(ranks.Size()));
  std::vector<std::string> skipped;
  sim::CheckpointRunOptions run;
  if (read_only) run.earlier = EarlierCheckpoints(config, *checkpoints, ranks, skipped);
  JobFrame frame(ranks, env.results, RunEnvelope(config, UtcStamp(), layout), options.interval_s);
  JobLog& log = frame.log();
  const std::string folder = OpenRunResults(config, frame);
  const auto on_host = sim::RanksOnHost(layout, ranks.Host());
  run.ranks_on_host = on_host.size();
  // The host's first rank empties its page cache.
  run.first_rank_on_host = on_host.front() == static_cast<size_t>(ranks.Rank());
  run.drop_caches = options.drop_caches;
  run.every_s = options.checkpoint_every_s;
  run.accelerators = layout.total_accelerators;
  run.log = [&](const std::string& line) { log.Info(line); };
  // Every shard's PUT and each read of it back.
  JobOpLog op_log(options.op_log, ranks, checkpoints->Describe(""), options.mix_job);
  run.storage = &op_log.Wrap(*checkpoints);
  InstallInterruptHandler();
  if (run.every_s > 0)
    log.Info(fmt::format(
        "run {}: checkpointing to {} over {} rank(s), one every {:g} s until stopped, none read "
        "back, results in {}",
        config.workload_name, checkpoints->Describe(""), ranks.Size(), run.every_s, folder));
  else
    log.Info(StartLine(config, checkpoints->Describe(""), ranks.Size(), run.earlier, folder));
  for (const auto& s : skipped) log.Info("checkpoint not read (it does not match this run): " + s);
  report::RulesReport rules;
  if (lead) {
    rules = CheckRunRules(layout, *checkpoints, "the checkpoints", std::nullopt, folder);
    AddCheckpointRules(config, static_cast<uint64_t>(ranks.Size()), rules);
    for (const auto& w : rules.warnings) log.Warn(w);
  }
  const auto mine = sim::RunCheckpointWorkload(config, ranks, run);
  if (op_log) log.Info(op_log.Close());
  return ReportRun({options, env, layout, folder, frame, lead ? &rules : nullptr}, mine);
}

}  // namespace trainbench::app
