#include "report/result_envelope.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/clock.h"
#include "common/error.h"

namespace trainbench::report {
namespace {

std::string StringOr(const nlohmann::json& j, const char* key, const std::string& fallback = "") {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace

std::vector<std::string> DistinctHosts(const std::vector<std::string>& hosts) {
  std::vector<std::string> out;
  for (const auto& host : hosts)
    if (std::find(out.begin(), out.end(), host) == out.end()) out.push_back(host);
  return out;
}

const std::vector<std::string>& ResultKinds() {
  static const std::vector<std::string> kKinds = {"run",   "checkpoint",   "datagen", "stage",
                                                  "train", "staged_train", "sweep",   "replay",
                                                  "sai3",  "fidelity",     "mix"};
  return kKinds;
}

std::string ReportedJobsInWords() {
  // A kind as its command is known: a grid is a sweep's mode, sai3 a run of a sai3-bench
  // config, fidelity bench/fidelity.sh's study.
  std::vector<std::string> names;
  for (const auto& kind : ResultKinds()) {
    if (kind == "staged_train") {
      names.push_back("staged train");
    } else if (kind == "sweep") {
      names.push_back("sweep");
      names.push_back("grid");
    } else if (kind == "sai3") {
      names.push_back("sai3-bench");
    } else if (kind == "fidelity") {
      names.push_back("fidelity study");
    } else {
      names.push_back(kind);
    }
  }
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

nlohmann::ordered_json WithEnvelope(const ResultEnvelope& e, const nlohmann::json& figures) {
  nlohmann::ordered_json out = e;
  for (const auto& [key, value] : figures.items())
    if (!out.contains(key)) out[key] = value;  // the envelope's fields win: one meaning each
  return out;
}

ResultEnvelope NewEnvelope(const std::string& kind, const std::string& workload,
                           std::vector<std::string> hosts, nlohmann::json config,
                           const std::string& started) {
  ResultEnvelope e;
  e.kind = kind;
  e.workload = workload;
  e.started = started.empty() ? UtcStamp() : started;
  e.host_names = std::move(hosts);
  e.config = std::move(config);
  return e;
}

ResultEnvelope EnvelopeOf(const nlohmann::json& s, const std::string& where) {
  if (!s.is_object())
    throw UsageError(fmt::format("{}: not a trainbench summary (not a JSON object)", where));
  ResultEnvelope e;
  e.kind = StringOr(s, "kind");
  if (e.kind.empty()) {
    // Before the envelope: a stage's (and a staged train's) account named its command; a
    // run's summary had its workload and phases.
    const std::string command = StringOr(s, "command");
    if (command == "stage")
      e.kind = "stage";
    else if (command == "train")
      e.kind = "staged_train";
    else if (s.contains("trainbench_version") && s.contains("phases"))
      e.kind = s.value("checkpointing_only", false) ? "checkpoint" : "run";
  }
  if (std::find(ResultKinds().begin(), ResultKinds().end(), e.kind) == ResultKinds().end())
    throw UsageError(fmt::format(
        "{}: not a trainbench summary (no \"kind\" of {}): point `trainbench report` at the "
        "results folder of a {}",
        where, e.kind.empty() ? "any" : "'" + e.kind + "'", ReportedJobsInWords()));
  e.workload = StringOr(s, "workload", StringOr(s, "source"));
  e.started = StringOr(s, "started", StringOr(s, "start"));
  e.finished = StringOr(s, "finished", StringOr(s, "end"));
  e.complete = s.value("complete", false);
  e.stop_reason = StringOr(s, "stop_reason");
  if (const auto it = s.find("host_names"); it != s.end() && it->is_array())
    for (const auto& h : *it)
      if (h.is_string()) e.host_names.push_back(h.get<std::string>());
  if (e.host_names.empty() && s.contains("hostname") && s["hostname"].is_string())
    e.host_names.push_back(s["hostname"].get<std::string>());
  e.version = StringOr(s, "version", StringOr(s, "trainbench_version"));
  if (const auto it = s.find("config"); it != s.end() && it->is_object()) e.config = *it;
  return e;
}

nlohmann::json LineEnvelope(const ResultEnvelope& e, const std::string& results) {
  return {{"kind", e.kind}, {"version", e.version}, {"complete", e.complete}, {"results", results}};
}

}  // namespace trainbench::report
