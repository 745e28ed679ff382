// Diagnostics on stderr in one shape: "trainbench: warning: ...". Thread-safe (one
// write per line). Results go to stdout and files, never through here.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace trainbench {

void LogWarning(std::string_view message);
void LogInfo(std::string_view message);
// Silences LogInfo (warnings still show); set once by the CLI from --quiet.
void SetQuiet(bool quiet);

template <typename... Args>
void Warn(fmt::format_string<Args...> format, Args&&... args) {
  LogWarning(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace trainbench
