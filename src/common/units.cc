#include "common/units.h"

#include <fmt/format.h>

#include <cmath>

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

}  // namespace trainbench
