#include "config/sai3/values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/strings.h"
#include "common/units.h"

namespace trainbench::config {

double Sai3Seconds(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  double unit = 1;
  if (!t.empty()) {
    switch (t.back()) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      default:
        unit = 0;
    }
    if (unit != 0) t.pop_back();
    if (unit == 0) unit = 1;
  }
  const double v = sai3::Number(t);
  if (v < 0) throw std::invalid_argument(fmt::format("'{}' is below 0", text));
  return v * unit;
}

uint64_t Sai3Bytes(const std::string& text) {
  const auto bytes = ParseByteSize(text, BareUnit::kDecimal);
  if (!bytes)
    throw std::invalid_argument(fmt::format(
        "'{}' is not a size (bytes, or with k/KB/KiB, m/MB/MiB, g/GB/GiB, t/TB)", text));
  return *bytes;
}

namespace sai3 {

uint64_t Count(const std::string& text) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != '_' && c != ' ') digits += c;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(fmt::format("'{}' is not a whole number", text));
  return std::stoull(digits);
}

bool Bool(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw std::invalid_argument(fmt::format("'{}' is not true or false", text));
}

double Number(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v))
    throw std::invalid_argument(fmt::format("'{}' is not a number", text));
  return v;
}

uint64_t Size(const YAML::Node& node, const std::string& path, const Source& source) {
  const uint64_t v = Read(node, path, source, "a size (1048576, 32KB, 1MiB)", Sai3Bytes);
  if (v > kMaxObjectBytes) Bad(source, node, path, fmt::format("{} bytes: at most 64 GiB", v));
  return v;
}

Sai3Sizes Sizes(const YAML::Node& node, const std::string& path, const Source& source) {
  Sai3Sizes s;
  if (node.IsScalar()) {
    s.min = s.max = Size(node, path, source);
    return s;
  }
  if (!node.IsMap()) Bad(source, node, path, "expected a size or a map (type, min, max, ...)");
  if (node["fixed"]) {
    s.min = s.max = Size(node["fixed"], path + ".fixed", source);
    return s;
  }
  YAML::Node spec = node;
  if (node["uniform"]) {
    s.type = "uniform";
    spec = node["uniform"];
  } else if (node["lognormal"]) {
    s.type = "lognormal";
    spec = node["lognormal"];
  } else if (node["type"]) {
    s.type = Text(node["type"], path + ".type", source);
  }
  if (s.type != "fixed" && s.type != "uniform" && s.type != "lognormal")
    Bad(source, node, path + ".type",
        fmt::format("'{}': give fixed, uniform or lognormal", s.type));
  for (const auto& entry : spec) {
    const std::string k = entry.first.Scalar();
    const std::string p = path + "." + k;
    if (k == "min") {
      s.min = Size(entry.second, p, source);
    } else if (k == "max") {
      s.max = Size(entry.second, p, source);
    } else if (k == "mean") {
      s.mean = static_cast<double>(Size(entry.second, p, source));
    } else if (k == "std_dev") {
      s.std_dev = static_cast<double>(Size(entry.second, p, source));
    } else if (k == "size" || k == "value") {
      s.min = s.max = Size(entry.second, p, source);
    } else if (k != "type") {
      std::string message = fmt::format("unknown key '{}'", k);
      const std::string nearest = NearestMatch(k, {"type", "min", "max", "mean", "std_dev"});
      if (!nearest.empty()) message += fmt::format(" (did you mean '{}'?)", nearest);
      Bad(source, entry.first, path, message);
    }
  }
  if (s.type == "fixed" && s.min != s.max) s.max = s.min = std::max(s.min, s.max);
  if (s.type == "lognormal" && s.mean <= 0) Bad(source, node, path, "lognormal needs mean > 0");
  if (s.type == "lognormal" && s.max == 0) s.max = kMaxObjectBytes;
  if (s.min > s.max) Bad(source, node, path, fmt::format("min {} is above max {}", s.min, s.max));
  return s;
}

std::string WithSlash(std::string uri) {
  if (!uri.empty() && uri.back() != '/') uri += '/';
  return uri;
}

void CheckScheme(const std::string& uri, const std::string& path, const Source& source,
                 const YAML::Node& node) {
  const size_t colon = uri.find("://");
  if (colon == std::string::npos || StartsWith(uri, "file://") || StartsWith(uri, "s3://"))
    return;  // a path, or a URI trainbench opens
  Bad(source, node, path,
      fmt::format("'{}': trainbench reaches a file system (file:///path) or S3 "
                  "(s3://bucket/prefix/), not {}; override it: target=file:///mnt/fs/resnet50/",
                  uri, uri.substr(0, colon + 3)));
}

}  // namespace sai3
}  // namespace trainbench::config
