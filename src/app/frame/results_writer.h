// The one writer of a job's results folder, written as the job goes, so that a job killed
// with SIGKILL at any moment leaves a folder that `report` draws as incomplete with what was
// measured until then:
//   Open    makes the folder and writes summary.json at once: the envelope, complete false,
//           a stop_reason saying the job has not ended (what a killed job leaves);
//   Row     appends each time-series row to timeseries.csv as it is sampled;
//   Update  rewrites summary.json with the figures so far (whole, renamed into place);
//   File    writes a job's other files (a run's epochs.csv, config.yaml, rank files), each
//           whole or not at all; one that cannot be written is counted, not thrown;
//   Finish  writes the final summary.json (listing the files that could not be written as
//           unwritten_files) and the whole time series.
// After Open nothing throws: an error is kept in WrittenResults, since a job that measured
// must still show what it measured. With no sink (no --output) every call does nothing.
// Thread safety: Row may be called from the sampler's thread while the job's own thread
// calls Update; Open and Finish from the job's thread, before and after sampling.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/frame/job_report.h"
#include "app/frame/job_timeseries.h"
#include "app/frame/results_sink.h"
#include "metrics/timeseries.h"
#include "report/result_envelope.h"

namespace trainbench::app {

// What summary.json says of a job until it ends: a kill -9 leaves this.
inline constexpr const char* kNotEndedReason =
    "the job did not end (killed, or still running): this is what it measured until then";

class ResultsWriter {
 public:
  // Writes into `sink` (not owned; null: nothing is kept).
  ResultsWriter(ResultsSink* sink, report::ResultEnvelope envelope, double interval_s);

  // Makes the folder, named by `name` and the envelope's start, and writes the first summary
  // with `figures` (what the job is about to do). Throws IoError naming the folder: the job
  // is refused before its work.
  void Open(const std::string& name, const nlohmann::ordered_json& figures = {});
  // The same for a job that resumes (a sweep): the folder named `name` alone, taken as it is
  // where an earlier invocation made it (its journal is there).
  void OpenResumable(const std::string& name, const nlohmann::ordered_json& figures = {});
  // The folder as the user sees it ("" before Open, or without a sink).
  const std::string& folder() const { return written_.folder; }

  void Row(const metrics::TimeseriesRow& row);
  void Update(const nlohmann::ordered_json& figures);
  // What summary.json says while the job runs (kNotEndedReason unless set: a run of several
  // ranks says whose figures they are).
  void SetNotEndedReason(const std::string& reason);
  // Writes `name` whole; returns why it could not ("" when written). Never throws.
  std::string File(const std::string& name, const std::string& text);
  // Removes the folder (a job refused before it measured anything: a folder with nothing
  // measured would pass for a job).
  void Discard();
  // The end: the envelope as it ended (complete or not, and why), the figures and the series
  // (a job that wrote its own series with File gives none). Files that could not be written
  // are listed in the summary and in the error ("results incomplete: could not write ...").
  WrittenResults Finish(const report::ResultEnvelope& envelope,
                        const nlohmann::ordered_json& figures, const TimeseriesResult& timeseries);

 private:
  void WriteSummary(const report::ResultEnvelope& envelope, const nlohmann::ordered_json& figures,
                    double sampler_cpu_s);

  ResultsSink* sink_;
  report::ResultEnvelope envelope_;  // as it stands while the job runs
  double interval_s_;
  std::mutex mutex_;
  bool open_ = false;
  WrittenResults written_;
  std::vector<std::string> unwritten_;
};

}  // namespace trainbench::app
