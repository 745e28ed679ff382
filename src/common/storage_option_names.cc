#include "common/storage_option_names.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "common/strings.h"

namespace trainbench {

const std::vector<std::string>& StorageOptionNames() {
  // "endpoint" is DLIO's older spelling of endpoint_url.
  static const std::vector<std::string> names = {
      "endpoint_url",        "endpoint",          "region",
      "access_key_id",       "secret_access_key", "session_token",
      "s3_force_path_style", "s3_max_attempts",   "ca_bundle",
      "list_max_keys",       "part_size",         "range_size",
      "lease_seconds"};
  return names;
}

std::string UnknownStorageOption(const std::string& name) {
  const auto& names = StorageOptionNames();
  if (std::find(names.begin(), names.end(), name) != names.end()) return "";
  std::string message = fmt::format("unknown option '{}'", name);
  const std::string nearest = NearestMatch(name, names);
  if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
  return message + fmt::format("; the options are {}", fmt::join(names, ", "));
}

}  // namespace trainbench
