#include "app/results_writer.h"

#include "report/timeseries_csv.h"

namespace trainbench::app {

ResultsWriter::ResultsWriter(ResultsSink* sink, report::ResultEnvelope envelope, double interval_s)
    : sink_(sink), envelope_(std::move(envelope)), interval_s_(interval_s) {
  envelope_.complete = false;
  envelope_.stop_reason = kNotEndedReason;
}

void ResultsWriter::Open(const std::string& name, const nlohmann::ordered_json& figures) {
  if (!sink_) return;
  written_.folder = sink_->Open(name, envelope_.started);
  std::lock_guard<std::mutex> lock(mutex_);
  WriteSummary(envelope_, figures, 0);  // throws: a folder that takes no file refuses the job
  open_ = true;
}

void ResultsWriter::OpenResumable(const std::string& name, const nlohmann::ordered_json& figures) {
  if (!sink_) return;
  written_.folder = sink_->OpenResumable(name);
  std::lock_guard<std::mutex> lock(mutex_);
  WriteSummary(envelope_, figures, 0);
  open_ = true;
}

void ResultsWriter::Row(const metrics::TimeseriesRow& row) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_) sink_->AppendRow(row);
}

void ResultsWriter::Update(const nlohmann::ordered_json& figures) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_) return;
  try {
    WriteSummary(envelope_, figures, 0);
  } catch (const std::exception&) {
    // The next update, or the end, tries again; the end reports a failure.
  }
}

WrittenResults ResultsWriter::Finish(const report::ResultEnvelope& envelope,
                                     const nlohmann::ordered_json& figures,
                                     const TimeseriesResult& timeseries) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_) return written_;
  try {
    if (!timeseries.rows.empty())
      sink_->WriteFile("timeseries.csv", report::TimeseriesCsv({timeseries.rows}, nullptr));
    WriteSummary(envelope, figures, timeseries.sampler_cpu_s);
  } catch (const std::exception& e) {
    written_.error = e.what();
  }
  open_ = false;
  return written_;
}

void ResultsWriter::WriteSummary(const report::ResultEnvelope& envelope,
                                 const nlohmann::ordered_json& figures, double sampler_cpu_s) {
  auto summary = report::WithEnvelope(envelope, figures);
  summary["timeseries_interval_s"] = interval_s_;
  summary["timeseries_cpu_seconds"] = sampler_cpu_s;
  // A stop reason may hold bytes that are not UTF-8 (whatever a server sent): replaced,
  // never a reason to lose the account.
  sink_->WriteFile("summary.json",
                   summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace trainbench::app
