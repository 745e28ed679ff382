#include "app/train/stage_job.h"

#include <fmt/format.h>

#include <optional>

#include "app/frame/job_checks.h"
#include "app/frame/job_frame.h"
#include "app/frame/job_op_log.h"
#include "app/frame/job_results.h"
#include "common/clock.h"
#include "common/host_name.h"
#include "common/interrupt.h"
#include "common/log.h"
#include "common/output_path.h"
#include "common/secrets.h"
#include "dist/communicator.h"
#include "stage/campaign.h"
#include "stage/campaign_folders.h"
#include "stage/stage_account.h"
#include "stage/stage_live.h"

namespace trainbench::app {

report::ResultEnvelope StageEnvelope(const stage::StageAccount& account,
                                     const stage::StageOptions& o, const std::string& kind) {
  nlohmann::json s3 = nlohmann::json::object();
  for (const auto& [key, value] : o.s3_options)
    s3[key] = IsSecretName(key) ? std::string(kRedacted) : value;
  std::vector<std::string> mirrors;
  for (const auto& m : o.mirrors) mirrors.push_back(RedactUrlPasswords(m));
  report::ResultEnvelope e = report::NewEnvelope(kind, account.source, {LocalHostName()},
                                                 {{"source", RedactUrlPasswords(o.source)},
                                                  {"dest", o.dest},
                                                  {"mirrors", mirrors},
                                                  {"streams", o.streams},
                                                  {"chunk_size_bytes", o.chunk_size},
                                                  {"max_attempts", o.max_attempts},
                                                  {"stall_timeout_s", o.stall_timeout_s},
                                                  {"sha256", o.sha256},
                                                  {"checksums_file", o.checksums_file},
                                                  {"extract", o.extract},
                                                  {"s3_options", s3}},
                                                 account.start_utc);
  return e;
}

JobEnding StageEnding(const stage::StageAccount& account) {
  JobEnding ending;
  ending.complete = account.complete;
  ending.stop_reason = account.stop_reason;
  ending.finished = account.end_utc;
  return ending;
}

std::function<void(const metrics::TimeseriesRow&)> WallTimeSoFar(
    JobFrame& frame, const nlohmann::ordered_json& began) {
  return [&frame, began](const metrics::TimeseriesRow& row) {
    nlohmann::ordered_json so_far = began;
    so_far["wall_s"] = row.elapsed_s;
    frame.writer().Update(so_far);
  };
}

stage::StageOutcome CheckAndRunStage(const stage::StageOptions& options,
                                     const std::string& dest_flag, const std::string& output,
                                     const std::function<void()>& ready) {
  stage::CheckStageOptions(options);
  CheckWritableFolder(options.dest, dest_flag);
  CheckWritableFolder(output, "--output");
  if (ready) ready();
  InstallInterruptHandler();
  return stage::RunStage(options);
}

StageJobOutcome StageJob(StageJobOptions options) {
  CheckInterval(options.interval_s);
  stage::StageLive live;
  options.stage.live = &live;
  // The op-log is made once the options are checked: a refused stage leaves no file.
  std::optional<JobOpLog> op_log;
  auto open_op_log = [&] {
    if (options.op_log.empty()) return;
    CheckWritableFile(options.op_log, "--op-log");
    op_log.emplace(options.op_log, dist::World(), RedactUrlPasswords(options.stage.source));
    options.stage.op_log = op_log->log();
  };
  // The folder opens once the options are checked, before the first byte: a stage killed
  // then keeps its summary (counted by `stage --report` with its wall time so far) and rows.
  FolderResults folder(options.output, "");
  stage::StageAccount pending;
  pending.source = RedactUrlPasswords(options.stage.source);
  pending.start_utc = UtcStamp();
  JobFrame frame(&folder, StageEnvelope(pending, options.stage, "stage"), options.interval_s);
  const nlohmann::ordered_json began = {{"command", "stage"}, {"source", pending.source}};
  auto sampling = frame.Sample(&live, nullptr, {}, WallTimeSoFar(frame, began));
  const stage::StageOutcome stage = CheckAndRunStage(options.stage, "DEST", options.output, [&] {
    open_op_log();
    frame.Begin("stage", began);
  });
  if (op_log) LogInfo(op_log->Close());
  const TimeseriesResult timeseries = sampling->Finish();
  const auto& account = stage.account;
  StageJobOutcome out;
  out.reports = true;
  out.exit_code = stage.exit_code;
  out.error = stage.error;
  out.text = stage::FormatTable(account);
  out.results = frame.Finish(StageEnding(account), stage::ToJson(account), timeseries);
  out.line = FinalLine(stage::FinalLine(account), frame.envelope(), out.results.folder);
  return out;
}

JobReport StageCampaign(const std::vector<std::string>& folders) {
  const auto totals = stage::Summarize(stage::LoadCampaignJobs(folders));
  JobReport campaign;
  campaign.reports = true;
  campaign.text = stage::FormatCampaign(totals);
  campaign.line = stage::CampaignLine(totals).dump();
  return campaign;
}

}  // namespace trainbench::app
