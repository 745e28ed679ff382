#include "storage/s3/s3_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "common/error.h"
#include "common/strings.h"
#include "storage/storage_options.h"

namespace trainbench::storage {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// The keys of `section` in an INI file (~/.aws/credentials: [name]; ~/.aws/config:
// [profile name], or [default]).
std::map<std::string, std::string> IniSection(const std::string& path, const std::string& section) {
  std::map<std::string, std::string> values;
  std::ifstream in(path);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      inside = Trim(line.substr(1, line.size() - 2)) == section;
      continue;
    }
    const size_t eq = line.find('=');
    if (inside && eq != std::string::npos)
      values[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return values;
}

bool ParseBool(const std::string& name, const std::string& value) {
  const std::string v = ToLower(value);
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  throw UsageError(
      fmt::format("storage.storage_options.{}: '{}' is not true or false", name, value));
}

uint64_t ParseCount(const std::string& name, const std::string& value, uint64_t min) {
  try {
    size_t used = 0;
    const unsigned long long n = std::stoull(value, &used);
    if (used == value.size() && n >= min) return n;
  } catch (const std::exception&) {
  }
  throw UsageError(fmt::format("storage.storage_options.{}: '{}' is not a whole number >= {}", name,
                               value, min));
}

// One option of storage.storage_options: its name and how its value sets S3Options.
struct OptionSpec {
  const char* name;
  void (*apply)(S3Options& o, const std::string& name, const std::string& value);
};

// The S3 backend's options, one a line. The map applies in name order, so endpoint_url wins
// over "endpoint" (DLIO's older spelling) when both are given.
// clang-format off
const OptionSpec kOptions[] = {
    {"endpoint_url", [](S3Options& o, const std::string&, const std::string& v) {
       o.endpoint = v;
     }},
    {"endpoint", [](S3Options& o, const std::string&, const std::string& v) { o.endpoint = v; }},
    {"region", [](S3Options& o, const std::string&, const std::string& v) { o.region = v; }},
    {"access_key_id", [](S3Options& o, const std::string&, const std::string& v) {
       o.access_key_id = v;
       o.credentials_source = "storage.storage_options";
     }},
    {"secret_access_key", [](S3Options& o, const std::string&, const std::string& v) {
       o.secret_access_key = v;
       o.credentials_source = "storage.storage_options";
     }},
    {"session_token", [](S3Options& o, const std::string&, const std::string& v) {
       o.session_token = v;
     }},
    {"s3_force_path_style", [](S3Options& o, const std::string& n, const std::string& v) {
       o.force_path_style = ParseBool(n, v);
     }},
    {"s3_max_attempts", [](S3Options& o, const std::string& n, const std::string& v) {
       o.max_attempts = static_cast<unsigned>(ParseCount(n, v, 1));
     }},
    {"ca_bundle", [](S3Options& o, const std::string&, const std::string& v) {
       o.ca_bundle = v;
       o.ca_bundle_source = "storage.storage_options.ca_bundle";
     }},
    {"list_max_keys", [](S3Options& o, const std::string& n, const std::string& v) {
       o.list_max_keys = static_cast<unsigned>(ParseCount(n, v, 1));
     }},
    {"part_size", [](S3Options& o, const std::string& n, const std::string& v) {
       o.part_size = ParseCount(n, v, 5ull << 20);  // S3's smallest part
     }},
    {"range_size", [](S3Options& o, const std::string& n, const std::string& v) {
       o.range_size = ParseCount(n, v, 0);
     }},
    {"lease_seconds", [](S3Options& o, const std::string& n, const std::string& v) {
       o.lease_seconds = static_cast<unsigned>(ParseCount(n, v, 1));
     }},
};
// clang-format on

// The spec of a known name (CheckStorageOptionNames ran first).
const OptionSpec& Option(const std::string& name) {
  return *std::find_if(std::begin(kOptions), std::end(kOptions),
                       [&](const OptionSpec& spec) { return name == spec.name; });
}

}  // namespace

const std::vector<std::string>& StorageOptionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto& spec : kOptions) all.emplace_back(spec.name);
    return all;
  }();
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

void CheckStorageOptionNames(const std::map<std::string, std::string>& options,
                             const std::string& source) {
  for (const auto& [name, value] : options)
    if (const std::string wrong = UnknownStorageOption(name); !wrong.empty())
      throw UsageError(source + " " + wrong);
}

S3Location ParseS3Uri(const std::string& uri) {
  if (!StartsWith(uri, "s3://"))
    throw UsageError(fmt::format("'{}' is not an s3://bucket/prefix URI", uri));
  std::string rest = uri.substr(5);
  const size_t slash = rest.find('/');
  S3Location l;
  l.bucket = rest.substr(0, slash);
  l.prefix = slash == std::string::npos ? "" : rest.substr(slash + 1);
  while (!l.prefix.empty() && l.prefix.back() == '/') l.prefix.pop_back();
  while (!l.prefix.empty() && l.prefix.front() == '/') l.prefix.erase(0, 1);
  while (StartsWith(l.prefix, "./")) l.prefix.erase(0, 2);
  if (l.bucket.empty())
    throw UsageError(fmt::format("'{}' names no bucket (use s3://bucket/prefix)", uri));
  return l;
}

S3Options ResolveS3Options(const std::map<std::string, std::string>& storage_options) {
  S3Options o;
  const std::string home = Env("HOME");
  std::string profile = Env("AWS_PROFILE");
  const bool named_profile = !profile.empty();
  if (profile.empty()) profile = "default";
  if (!home.empty()) {
    auto config =
        IniSection(home + "/.aws/config", profile == "default" ? profile : "profile " + profile);
    if (config.count("region")) o.region = config["region"];
    if (config.count("endpoint_url")) o.endpoint = config["endpoint_url"];
    if (config.count("ca_bundle")) {
      o.ca_bundle = config["ca_bundle"];
      o.ca_bundle_source = "ca_bundle in ~/.aws/config";
    }
    auto creds = IniSection(home + "/.aws/credentials", profile);
    if (creds.count("aws_access_key_id") && creds.count("aws_secret_access_key")) {
      o.access_key_id = creds["aws_access_key_id"];
      o.secret_access_key = creds["aws_secret_access_key"];
      o.session_token = creds.count("aws_session_token") ? creds["aws_session_token"] : "";
      o.credentials_source = fmt::format("profile '{}' in ~/.aws/credentials", profile);
    } else if (named_profile) {
      o.credentials_source = fmt::format("profile '{}' (not found in ~/.aws/credentials)", profile);
    }
  }
  if (!Env("AWS_DEFAULT_REGION").empty()) o.region = Env("AWS_DEFAULT_REGION");
  if (!Env("AWS_REGION").empty()) o.region = Env("AWS_REGION");
  if (!Env("AWS_ENDPOINT_URL").empty()) o.endpoint = Env("AWS_ENDPOINT_URL");
  if (!Env("AWS_ENDPOINT_URL_S3").empty()) o.endpoint = Env("AWS_ENDPOINT_URL_S3");
  if (!Env("AWS_CA_BUNDLE").empty()) {
    o.ca_bundle = Env("AWS_CA_BUNDLE");
    o.ca_bundle_source = "AWS_CA_BUNDLE";
  }
  if (!Env("AWS_ACCESS_KEY_ID").empty() && !Env("AWS_SECRET_ACCESS_KEY").empty()) {
    o.access_key_id = Env("AWS_ACCESS_KEY_ID");
    o.secret_access_key = Env("AWS_SECRET_ACCESS_KEY");
    o.session_token = Env("AWS_SESSION_TOKEN");
    o.credentials_source = "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY";
  }
  CheckStorageOptionNames(storage_options, "storage.storage_options:");
  for (const auto& [name, value] : storage_options) Option(name).apply(o, name, value);
  while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
  if (!o.endpoint.empty() && o.endpoint.find("://") == std::string::npos)
    o.endpoint = "https://" + o.endpoint;
  return o;
}

}  // namespace trainbench::storage
