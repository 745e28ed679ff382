#include "app/frame/job_frame.h"

#include <algorithm>

#include "app/frame/job_results.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/units.h"
#include "dist/implementations.h"
#include "ops/workers.h"

namespace trainbench::app {

JobFrame::JobFrame(JobEnv& env, const std::string& kind, const std::string& workload,
                   nlohmann::json config, double interval_s)
    : ranks_(env.ranks),
      lead_(env.ranks.Rank() == 0),
      results_(lead_ ? env.results : nullptr),
      interval_s_(interval_s),
      log_(results_),
      envelope_([&] {
        report::ResultEnvelope e = StartEnvelope(kind, workload, env.ranks);
        e.config = std::move(config);
        return e;
      }()),
      writer_(results_, envelope_, interval_s) {}

JobFrame::JobFrame(dist::Communicator& ranks, ResultsSink* results, report::ResultEnvelope envelope,
                   double interval_s)
    : ranks_(ranks),
      lead_(ranks.Rank() == 0),
      results_(lead_ ? results : nullptr),
      interval_s_(interval_s),
      log_(results_),
      envelope_(std::move(envelope)),
      writer_(results_, envelope_, interval_s) {}

JobFrame::JobFrame(ResultsSink* results, report::ResultEnvelope envelope, double interval_s)
    : single_(dist::MakeSingleProcessCommunicator()),
      ranks_(*single_),
      lead_(true),
      results_(results),
      interval_s_(interval_s),
      log_(results_),
      envelope_(std::move(envelope)),
      writer_(results_, envelope_, interval_s) {}

void JobFrame::Begin(const std::string& name, const nlohmann::ordered_json& figures) {
  writer_.Open(name, figures);
}

void JobFrame::BeginResumable(const std::string& name, const nlohmann::ordered_json& figures) {
  writer_.OpenResumable(name, figures);
}

std::unique_ptr<JobTimeseries> JobFrame::Sample(std::function<void(metrics::IntervalProbe&)> io) {
  return Sample(nullptr, nullptr, std::move(io), {});
}

std::unique_ptr<JobTimeseries> JobFrame::Sample(
    const stage::StageLive* stage, const metrics::LiveCounters* train,
    std::function<void(metrics::IntervalProbe&)> io,
    std::function<void(const metrics::TimeseriesRow&)> also) {
  return std::make_unique<JobTimeseries>(
      results_ ? interval_s_ : 0, stage, train, std::move(io),
      [this, also = std::move(also)](const metrics::TimeseriesRow& row) {
        writer_.Row(row);
        if (also) also(row);
      });
}

void JobFrame::StampEnd() { envelope_.finished = UtcStamp(); }

WrittenResults JobFrame::Finish(const JobEnding& ending, const nlohmann::ordered_json& figures,
                                const TimeseriesResult& timeseries) {
  if (!ending.finished.empty()) envelope_.finished = ending.finished;
  if (envelope_.finished.empty()) envelope_.finished = UtcStamp();
  envelope_.complete = ending.complete && !ending.interrupted;
  envelope_.stop_reason = !ending.stop_reason.empty() ? ending.stop_reason
                          : ending.interrupted        ? "interrupted"
                                                      : "";
  return writer_.Finish(envelope_, figures, timeseries);
}

void JobFrame::End(JobReport& out, const JobEnding& ending, const nlohmann::ordered_json& figures,
                   const TimeseriesResult& timeseries, const std::string& line_key,
                   std::initializer_list<const char*> short_keys,
                   const nlohmann::ordered_json& extra) {
  out.reports = true;
  // Interrupted, it exits 130 as every job does; an operation that failed is a failure.
  out.exit_code = ending.interrupted  ? static_cast<int>(ExitCode::kInterrupted)
                  : ending.errors > 0 ? static_cast<int>(ExitCode::kRuntime)
                                      : 0;
  if (ending.interrupted) out.error = "interrupted: what ran is reported above, marked incomplete";
  out.results = Finish(ending, figures, timeseries);
  nlohmann::ordered_json short_figures = short_keys.size() ? nlohmann::ordered_json() : figures;
  for (const char* key : short_keys) short_figures[key] = figures.at(key);
  for (const auto& [key, value] : extra.items()) short_figures[key] = value;
  nlohmann::ordered_json line;
  line[line_key] = short_figures;
  out.line = FinalLine(line, envelope_, out.results.folder);
}

void JobFrame::Stop(const std::string& reason, const nlohmann::ordered_json& figures,
                    const TimeseriesResult& timeseries) {
  envelope_.finished = UtcStamp();
  envelope_.complete = false;
  envelope_.stop_reason = reason;
  writer_.Finish(envelope_, figures, timeseries);
}

void RanksSpan::Add(const ops::ReplayFigures& rank) {
  if (rank.end_ns > 0) {
    start_ns = std::min(start_ns, rank.start_ns);
    end_ns = std::max(end_ns, rank.end_ns);
  }
  interrupted = interrupted || rank.interrupted;
}

double RanksSpan::Seconds() const { return SecondsBetween(start_ns, end_ns); }

}  // namespace trainbench::app
