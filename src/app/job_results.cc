#include "app/job_results.h"

#include "common/clock.h"
#include "report/results_folder.h"
#include "report/timeseries_csv.h"

namespace trainbench::app {

WrittenResults WriteJobResults(const std::string& output, const std::string& name,
                               const report::ResultEnvelope& envelope,
                               const nlohmann::ordered_json& figures,
                               const TimeseriesResult& timeseries) {
  WrittenResults written;
  try {
    const std::string folder = report::CreateResultsFolder(output, name, envelope.started);
    auto summary = report::WithEnvelope(envelope, figures);
    summary["timeseries_interval_s"] = timeseries.interval_s;
    summary["timeseries_cpu_seconds"] = timeseries.sampler_cpu_s;
    // A stop reason may hold bytes that are not UTF-8 (whatever a server sent): replaced,
    // never a reason to lose the account.
    report::WriteResultFile(
        folder, "summary.json",
        summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    if (!timeseries.rows.empty())
      report::WriteResultFile(folder, "timeseries.csv",
                              report::TimeseriesCsv({timeseries.rows}, nullptr));
    written.folder = folder;
  } catch (const std::exception& e) {
    written.error = e.what();
  }
  return written;
}

std::string FinalLine(nlohmann::ordered_json line, const report::ResultEnvelope& envelope,
                      const std::string& folder) {
  auto& ours = line["trainbench"];
  if (!ours.is_object()) ours = nlohmann::ordered_json::object();
  const nlohmann::json short_form = report::LineEnvelope(envelope, folder);
  for (const auto& [key, value] : short_form.items()) ours[key] = value;
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

report::ResultEnvelope StartEnvelope(const std::string& kind, const std::string& workload,
                                     dist::Communicator& ranks) {
  report::ResultEnvelope envelope;
  envelope.kind = kind;
  envelope.workload = workload;
  envelope.started = UtcStamp();
  envelope.host_names = report::DistinctHosts(ranks.AllGather(ranks.Host()));
  return envelope;
}

}  // namespace trainbench::app
