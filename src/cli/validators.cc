#include "cli/validators.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "common/error.h"

namespace trainbench::cli {

CLI::Validator AtLeast(int64_t min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno == ERANGE || value < min)
          return "'" + text + "': expected an integer of at least " + std::to_string(min);
        return {};
      },
      "INT>=" + std::to_string(min));
}

CLI::Validator Between(int64_t min, int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const long long value = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
          return fmt::format("'{}': expected an integer from {} to {}", text, min, max);
        return {};
      },
      fmt::format("INT in [{}, {}]", min, max));
}

namespace {

CLI::Validator Finite(bool allow_zero) {
  return CLI::Validator(
      [allow_zero](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const bool ok = !text.empty() && *end == '\0' && std::isfinite(value) &&
                        (allow_zero ? value >= 0 : value > 0);
        if (!ok)
          return "'" + text + "': expected a finite number " +
                 (allow_zero ? "of at least 0" : "above 0");
        return {};
      },
      allow_zero ? "NUMBER>=0" : "NUMBER>0");
}

}  // namespace

CLI::Validator PositiveFinite() { return Finite(false); }
CLI::Validator NonNegativeFinite() { return Finite(true); }

std::map<std::string, std::string> ParseS3Options(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> options;
  for (const auto& kv : pairs) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(
          fmt::format("--s3-option '{}': give KEY=VALUE (storage_options keys, "
                      "e.g. endpoint_url=http://127.0.0.1:7480)",
                      kv));
    options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return options;
}

}  // namespace trainbench::cli
