#include "app/frame/job_results.h"

#include "common/clock.h"
#include "report/results_folder.h"
#include "report/timeseries_csv.h"

namespace trainbench::app {

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
  return report::NewEnvelope(kind, workload, report::DistinctHosts(ranks.AllGather(ranks.Host())));
}

}  // namespace trainbench::app
