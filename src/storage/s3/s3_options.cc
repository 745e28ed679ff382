#include "storage/s3/s3_options.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

#include "common/error.h"
#include "common/storage_option_names.h"
#include "common/strings.h"

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

}  // namespace

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
  for (const auto& [name, value] : storage_options)
    if (const auto wrong = UnknownStorageOption(name); !wrong.empty())
      throw UsageError("storage.storage_options: " + wrong);
  for (const auto& [name, value] : storage_options) {
    if (name == "endpoint_url" || name == "endpoint") {
      o.endpoint = value;
    } else if (name == "region") {
      o.region = value;
    } else if (name == "access_key_id") {
      o.access_key_id = value;
      o.credentials_source = "storage.storage_options";
    } else if (name == "secret_access_key") {
      o.secret_access_key = value;
      o.credentials_source = "storage.storage_options";
    } else if (name == "session_token") {
      o.session_token = value;
    } else if (name == "s3_force_path_style") {
      o.force_path_style = ParseBool(name, value);
    } else if (name == "s3_max_attempts") {
      o.max_attempts = static_cast<unsigned>(ParseCount(name, value, 1));
    } else if (name == "ca_bundle") {
      o.ca_bundle = value;
      o.ca_bundle_source = "storage.storage_options.ca_bundle";
    } else if (name == "list_max_keys") {
      o.list_max_keys = static_cast<unsigned>(ParseCount(name, value, 1));
    } else if (name == "lease_seconds") {
      o.lease_seconds = static_cast<unsigned>(ParseCount(name, value, 1));
    } else if (name == "range_size") {
      o.range_size = ParseCount(name, value, 0);
    } else if (name == "part_size") {
      o.part_size = ParseCount(name, value, 5ull << 20);  // S3's smallest part
    }
  }
  while (!o.endpoint.empty() && o.endpoint.back() == '/') o.endpoint.pop_back();
  if (!o.endpoint.empty() && o.endpoint.find("://") == std::string::npos)
    o.endpoint = "https://" + o.endpoint;
  return o;
}

}  // namespace trainbench::storage
