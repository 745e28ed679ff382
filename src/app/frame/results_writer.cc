#include "app/frame/results_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

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

void ResultsWriter::SetNotEndedReason(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  envelope_.stop_reason = reason;
}

std::string ResultsWriter::File(const std::string& name, const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_) return "";
  // A file counts as unwritten while its last write failed (a run rewrites epochs.csv as it
  // goes: an early failure is mended by a later write).
  const auto listed = std::find(unwritten_.begin(), unwritten_.end(), name);
  try {
    sink_->WriteFile(name, text);
    if (listed != unwritten_.end()) unwritten_.erase(listed);
    return "";
  } catch (const std::exception& e) {
    if (listed == unwritten_.end()) unwritten_.push_back(name);
    return e.what();
  }
}

void ResultsWriter::Discard() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!sink_) return;
  sink_->Discard();
  open_ = false;
  written_.folder.clear();
}

WrittenResults ResultsWriter::Finish(const report::ResultEnvelope& envelope,
                                     const nlohmann::ordered_json& figures,
                                     const TimeseriesResult& timeseries) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_) return written_;
  nlohmann::ordered_json final_figures = figures;
  try {
    if (!timeseries.rows.empty())
      sink_->WriteFile("timeseries.csv", report::TimeseriesCsv({timeseries.rows}, nullptr));
  } catch (const std::exception&) {
    unwritten_.push_back("timeseries.csv");
  }
  if (!unwritten_.empty()) final_figures["unwritten_files"] = unwritten_;
  std::string summary_error;
  try {
    WriteSummary(envelope, final_figures, timeseries.sampler_cpu_s);
  } catch (const std::exception& e) {
    summary_error = e.what();
    unwritten_.push_back("summary.json");
  }
  // The summary alone: its own error says why; several files: which, and where.
  if (unwritten_.size() == 1 && !summary_error.empty())
    written_.error = summary_error;
  else if (!unwritten_.empty())
    written_.error = fmt::format("results incomplete: could not write {} in {}",
                                 fmt::join(unwritten_, ", "), written_.folder);
  open_ = false;
  return written_;
}

void ResultsWriter::WriteSummary(const report::ResultEnvelope& envelope,
                                 const nlohmann::ordered_json& figures, double sampler_cpu_s) {
  auto summary = report::WithEnvelope(envelope, figures);
  // A job that measured its own series (a run's sampler, per rank) has said these already.
  if (!summary.contains("timeseries_interval_s")) summary["timeseries_interval_s"] = interval_s_;
  if (!summary.contains("timeseries_cpu_seconds"))
    summary["timeseries_cpu_seconds"] = sampler_cpu_s;
  // A stop reason may hold bytes that are not UTF-8 (whatever a server sent): replaced,
  // never a reason to lose the account.
  sink_->WriteFile("summary.json",
                   summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace trainbench::app
