#include "common/units.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace trainbench {
namespace {
std::string Scaled(double value, double base, const char* const* names) {
  int i = 0;
  while (std::fabs(value) >= base && names[i + 1] != nullptr) {
    value /= base;
    ++i;
  }
  return i == 0 ? fmt::format("{:.0f} {}", value, names[0])
                : fmt::format("{:.2f} {}", value, names[i]);
}
}  // namespace

std::string FormatBytes(double bytes) {
  static const char* const kNames[] = {"B", "KB", "MB", "GB", "TB", "PB", nullptr};
  return Scaled(bytes, 1000.0, kNames);
}

std::string FormatBytesBinary(double bytes) {
  static const char* const kNames[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", nullptr};
  return Scaled(bytes, 1024.0, kNames);
}

std::string FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--";
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const auto total = static_cast<long long>(seconds + 0.5);
  if (total < 3600) return fmt::format("{}m{:02}s", total / 60, total % 60);
  return fmt::format("{}h{:02}m", total / 3600, (total % 3600) / 60);
}

std::optional<uint64_t> ParseByteSize(std::string_view text, BareUnit bare) {
  size_t end = 0;
  std::string number;
  while (end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
          text[end] == ',' || text[end] == '_' || text[end] == ' ')) {
    if (text[end] != ',' && text[end] != '_' && text[end] != ' ') number += text[end];
    ++end;
  }
  std::string unit;
  for (char c : text.substr(end))
    unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const double k = bare == BareUnit::kBinary ? 1024.0 : 1e3;
  static const char* const kPrefixes = "kmgt";
  double scale = 0;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else if (const char* at = std::strchr(kPrefixes, unit[0]); at != nullptr && *at != 0) {
    const int power = static_cast<int>(at - kPrefixes) + 1;
    const std::string rest = unit.substr(1);
    if (rest.empty()) scale = std::pow(k, power);
    if (rest == "b") scale = std::pow(1e3, power);
    if (rest == "i" || rest == "ib") scale = std::pow(1024.0, power);
  }
  if (number.empty() || scale == 0) return std::nullopt;
  char* parsed_end = nullptr;
  const double value = std::strtod(number.c_str(), &parsed_end);
  if (parsed_end != number.c_str() + number.size() || !std::isfinite(value)) return std::nullopt;
  const double bytes = value * scale;
  if (bytes < 0 || bytes > 1e18) return std::nullopt;
  return static_cast<uint64_t>(std::llround(bytes));
}

}  // namespace trainbench
