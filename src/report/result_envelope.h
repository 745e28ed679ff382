// The one result record's common part: every job's summary.json (each of ResultKinds(): run,
// checkpoint, datagen, stage, train, staged train, sweep, replay, sai3-bench, and
// bench/fidelity.sh's study) starts with the same envelope at its top level, then the kind's
// own figures; every job's final stdout line carries its short form as the "trainbench"
// object beside the kind's figures (`trainbench_metrics`, `trainbench_stage`,
// `radix_metrics`, ...). `trainbench report` reads the envelope to know what it draws.
// Older summaries (before the envelope) are read too: a run's had no `kind`, and `start` and
// `end` for started and finished; a stage's named its kind in `command`. Thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/json_fields.h"

namespace trainbench::report {

struct ResultEnvelope {
  std::string kind;               // one of ResultKinds()
  std::string workload;           // the workload; a stage's source; a train job's model
  std::string started, finished;  // UTC stamps (20261124T150158Z)
  bool complete = false;
  std::string stop_reason;              // why not complete ("" when complete)
  std::vector<std::string> host_names;  // the hosts the job ran on
  std::string version = TRAINBENCH_VERSION;
  nlohmann::json config = nlohmann::json::object();  // the job's resolved config or options
};
TB_JSON_FIELDS(ResultEnvelope, kind, workload, started, finished, complete, stop_reason, host_names,
               version, config)

// The one way to make an envelope: a job of `kind` over `workload` on `hosts`, with its
// resolved config or options, started at `started` (a UTC stamp; "" is now). Not complete
// until the job says so at its end.
ResultEnvelope NewEnvelope(const std::string& kind, const std::string& workload,
                           std::vector<std::string> hosts,
                           nlohmann::json config = nlohmann::json::object(),
                           const std::string& started = "");

// `hosts` (every rank's, in rank order) once each, in the order they first appear.
std::vector<std::string> DistinctHosts(const std::vector<std::string>& hosts);

// The kinds, in the order `report` lists them.
const std::vector<std::string>& ResultKinds();
// Those kinds as their commands are known, in that order: "run, checkpoint, ... or sai3-bench".
std::string ReportedJobsInWords();

// Sets the envelope's fields at the top level of `summary`, before the kind's figures.
nlohmann::ordered_json WithEnvelope(const ResultEnvelope& envelope, const nlohmann::json& figures);
// The envelope of a summary.json, of any version. Throws UsageError when it is no
// trainbench summary at all.
ResultEnvelope EnvelopeOf(const nlohmann::json& summary, const std::string& where);
// The final line's "trainbench" object: kind, version, complete, results (the folder, ""
// when none was kept).
nlohmann::json LineEnvelope(const ResultEnvelope& envelope, const std::string& results);

}  // namespace trainbench::report
