#include "app/job_frame.h"

#include <algorithm>

#include "app/job_results.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/units.h"

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

void JobFrame::Begin(const std::string& name, const nlohmann::ordered_json& figures) {
  writer_.Open(name, figures);
}

std::unique_ptr<JobTimeseries> JobFrame::Sample(std::function<void(metrics::IntervalProbe&)> io) {
  return std::make_unique<JobTimeseries>(
      results_ ? interval_s_ : 0, nullptr, nullptr, std::move(io),
      [this](const metrics::TimeseriesRow& row) { writer_.Row(row); });
}

std::vector<nlohmann::json> JobFrame::Gather(const nlohmann::json& mine) {
  const auto texts = ranks_.Gather(mine.dump());
  envelope_.finished = UtcStamp();
  std::vector<nlohmann::json> out;
  for (const auto& text : texts) out.push_back(nlohmann::json::parse(text));
  return out;
}

void JobFrame::End(JobReport& out, const JobEnding& ending, const nlohmann::ordered_json& figures,
                   const TimeseriesResult& timeseries, const std::string& line_key,
                   std::initializer_list<const char*> short_keys,
                   const nlohmann::ordered_json& extra) {
  out.reports = true;
  if (envelope_.finished.empty()) envelope_.finished = UtcStamp();
  envelope_.complete = ending.complete && !ending.interrupted;
  if (ending.interrupted) envelope_.stop_reason = "interrupted";
  // Interrupted, it exits 130 as every job does; an operation that failed is a failure.
  out.exit_code = ending.interrupted  ? static_cast<int>(ExitCode::kInterrupted)
                  : ending.errors > 0 ? static_cast<int>(ExitCode::kRuntime)
                                      : 0;
  if (ending.interrupted) out.error = "interrupted: what ran is reported above, marked incomplete";
  out.results = writer_.Finish(envelope_, figures, timeseries);
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

void RanksSpan::Add(const nlohmann::json& rank) {
  if (rank.at("end_ns").get<int64_t>() > 0) {
    start_ns = std::min(start_ns, rank.at("start_ns").get<int64_t>());
    end_ns = std::max(end_ns, rank.at("end_ns").get<int64_t>());
  }
  interrupted = interrupted || rank.at("interrupted").get<bool>();
}

double RanksSpan::Seconds() const { return SecondsBetween(start_ns, end_ns); }

}  // namespace trainbench::app
