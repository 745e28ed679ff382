#include "cli/staged_train.h"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <filesystem>

#include "cli/stage_results.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/strings.h"
#include "stage/stager.h"

namespace trainbench::cli {
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

int RunStagedTrain(const StagedTrainArgs& args, train::TrainOptions& options,
                   const std::function<void()>& ready, const std::function<std::string()>& train) {
  if (options.data == "synthetic")
    throw UsageError(
        "--stage-to stages --data before training: give --data URL (http(s)://, s3://) or a "
        "path");
  stage::StageOptions o;
  o.source = options.data;
  o.dest = args.stage_to;
  o.streams = args.streams;
  o.extract = IsTar(o.source);
  o.s3_options = ParseS3Options(args.s3_options);
  std::string started;
  // One time series across the job: the staging's rows, then the training's.
  stage::StageLive stage_live;
  metrics::LiveCounters train_live;
  o.live = &stage_live;
  options.live = &train_live;
  JobTimeseries sampling(args.interval, &stage_live, &train_live);
  stage::StageOutcome outcome = CheckAndRunStage(o, "--stage-to", args.output, started, ready);
  stage::StageAccount& account = outcome.account;
  account.command = "train";
  std::string last_line;
  std::exception_ptr failure;
  if (outcome.exit_code == 0) {
    options.data = StagedData(o, account);
    const double start = NowSeconds();
    try {
      last_line = train();
    } catch (const std::exception& e) {
      failure = std::current_exception();
      account.complete = false;
      account.stop_reason = e.what();
    }
    account.AddCompute(NowSeconds() - start);
    account.end_utc = UtcStamp();
  }
  options.live = nullptr;
  const TimeseriesResult timeseries = sampling.Finish();
  std::fflush(stdout);
  fmt::print("{}", stage::FormatTable(account));
  const std::string unwritten = WriteAccountResults(account, args.output, started, timeseries);
  if (!last_line.empty()) fmt::print("{}\n", last_line);
  std::fflush(stdout);
  if (!unwritten.empty()) LogError("the job's time account could not be written: " + unwritten);
  if (failure) std::rethrow_exception(failure);
  if (outcome.exit_code != 0) return ReportStageFailure(outcome);
  return unwritten.empty() ? 0 : static_cast<int>(ExitCode::kRuntime);
}

}  // namespace trainbench::cli
