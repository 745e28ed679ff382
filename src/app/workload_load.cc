#include "app/workload_load.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/log.h"
#include "common/secrets.h"
#include "config/sai3/sai3_config.h"
#include "config/workload_yaml.h"
#include "formats/format.h"
#include "storage/storage_options.h"

namespace trainbench::app {

config::WorkloadConfig LoadCheckedWorkload(const std::string& workload,
                                           const std::vector<std::string>& overrides, bool quiet) {
  if (config::IsSai3Config(workload))
    throw UsageError(
        fmt::format("{} is a sai3-bench config: `trainbench run {}` runs it (its prepare included; "
                    "docs/sai3-bench.md); this command takes DLIO workloads",
                    workload, workload));
  auto loaded = config::LoadWorkload(workload, overrides, storage::UnknownStorageOption);
  formats::CheckFormat(loaded.config);
  if (!quiet)
    for (const auto& w : loaded.warnings) LogWarning(w);
  return std::move(loaded.config);
}

void ApplyCheckedOverride(const std::string& override_text, config::WorkloadConfig& config,
                          std::vector<std::string>& warnings) {
  config::ApplyOverride(override_text, config, warnings, storage::UnknownStorageOption);
}

namespace {

std::string ShellQuote(const std::string& s) {
  if (s.find_first_of(" '\"$`\\*?&;|<>()") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

std::string TrainbenchCommand(const std::string& command, const std::string& workload,
                              const std::vector<std::string>& overrides) {
  std::string line = "trainbench " + command + " " + ShellQuote(workload);
  for (const auto& o : overrides) {
    // A secret's value is never printed: the user gives it again.
    const size_t eq = o.find('=');
    const bool secret = eq != std::string::npos && IsSecretName(o.substr(0, eq));
    line += " " + ShellQuote(secret ? o.substr(0, eq + 1) + std::string(kRedacted) : o);
  }
  return line;
}

std::string FormatList() {
  std::string out = "Formats (dataset.format; files named .EXTENSION, older spellings read too):\n";
  for (const auto* d : formats::AllFormats()) {
    std::string extensions;
    for (const auto e : d->extensions)
      extensions += fmt::format("{}.{}", extensions.empty() ? "" : " ", e);
    out += fmt::format("  {:<20} {:<26} {}\n", d->name, extensions, d->help);
  }
  return out;
}

}  // namespace trainbench::app
