#include "app/train/staged_train_job.h"

#include <cstdio>
#include <filesystem>

#include "app/frame/job_frame.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/secrets.h"
#include "common/strings.h"
#include "stage/stage_account.h"
#include "stage/stage_live.h"

namespace trainbench::app {
namespace fs = std::filesystem;
namespace {

// SOURCE without a query and trailing '/'.
std::string Trimmed(const std::string& source) {
  std::string s = source.substr(0, source.find('?'));
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// A tar (ImageNet's train tar, a tar of class folders) is extracted while it arrives: the
// trainer then reads DIR, and no copy of the archive takes space.
bool IsTar(const std::string& source) {
  const std::string name = ToLower(Trimmed(source));
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".tar") == 0;
}

// What to train on: DIR, or DIR/NAME when SOURCE was one object (a URL, an s3:// key, a
// file) rather than a prefix or folder whose objects keep their relative names under DIR.
std::string StagedData(const stage::StageOptions& o, const stage::StageAccount& account) {
  if (o.extract || account.objects.size() != 1) return o.dest;
  const std::string name = account.objects[0].name;
  const std::string source = Trimmed(o.source);
  const bool single = source.size() >= name.size() &&
                      source.compare(source.size() - name.size(), name.size(), name) == 0;
  return single ? (fs::path(o.dest) / name).string() : o.dest;
}

}  // namespace

bool IsRemoteData(const std::string& data) {
  const std::string lower = ToLower(data);
  return StartsWith(lower, "http://") || StartsWith(lower, "https://") ||
         StartsWith(lower, "s3://");
}

StagedTrainOutcome StagedTrainJob(const StagedTrainOptions& staged, train::TrainOptions& options,
                                  const std::function<void()>& ready,
                                  const std::function<nlohmann::ordered_json()>& train) {
  if (options.data == "synthetic")
    throw UsageError(
        "--stage-to stages --data before training: give --data URL (http(s)://, s3://) or a "
        "path");
  stage::StageOptions o;
  o.source = options.data;
  o.dest = staged.stage_to;
  o.streams = staged.streams;
  o.extract = IsTar(o.source);
  o.s3_options = staged.s3_options;
  // One time series across the job: the staging's rows, then the training's.
  stage::StageLive stage_live;
  metrics::LiveCounters train_live;
  o.live = &stage_live;
  options.live = &train_live;
  // The folder opens once the options are checked, before the first byte: a job killed
  // then keeps its summary (counted by `stage --report`) and time-series rows.
  FolderResults folder(staged.output, "");
  stage::StageAccount pending;
  pending.source = RedactUrlPasswords(o.source);
  pending.start_utc = UtcStamp();
  JobFrame frame(&folder, StageEnvelope(pending, o, "staged_train"), staged.interval_s);
  const nlohmann::ordered_json began = {{"command", "train"}, {"source", pending.source}};
  auto sampling = frame.Sample(&stage_live, &train_live, {}, WallTimeSoFar(frame, began));
  stage::StageOutcome outcome = CheckAndRunStage(o, "--stage-to", staged.output, [&] {
    if (ready) ready();
    frame.Begin("train", began);
  });
  stage::StageAccount& account = outcome.account;
  account.command = "train";
  StagedTrainOutcome out;
  nlohmann::ordered_json line;
  if (outcome.exit_code == 0) {
    options.data = StagedData(o, account);
    const double start = NowSeconds();
    try {
      line = train();
    } catch (const std::exception& e) {
      out.failure = std::current_exception();
      account.complete = false;
      account.stop_reason = e.what();
    }
    account.AddCompute(NowSeconds() - start);
    account.end_utc = UtcStamp();
  }
  options.live = nullptr;
  const TimeseriesResult timeseries = sampling->Finish();
  out.reports = true;
  out.exit_code = outcome.exit_code;
  out.error = outcome.error;
  out.text = stage::FormatTable(account);
  auto figures = stage::ToJson(account);
  if (!line.is_null()) figures["train"] = line;  // the training's own figures
  out.results = frame.Finish(StageEnding(account), figures, timeseries);
  if (!line.is_null()) out.line = FinalLine(line, frame.envelope(), out.results.folder);
  return out;
}

}  // namespace trainbench::app
