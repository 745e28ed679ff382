// Diagnostics on stderr in one shape: "trainbench: warning: ...". Thread-safe (one
// write per line). Results go to stdout and files, never through here.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace trainbench {

void LogWarning(std::string_view message);
void LogInfo(std::string_view message);
// "trainbench: error: ...": the one line a failed command ends with.
void LogError(std::string_view message);
// Silences LogInfo (warnings still show); set once by the CLI from --quiet.
void SetQuiet(bool quiet);
// "trainbench" unless set: several ranks of one job name themselves ("trainbench[2/4 hostb]").
void SetLogPrefix(std::string prefix);
std::string LogPrefix();

// While it lives, this thread's lines name `name` after the prefix ("trainbench: [resnet]
// ..."): the jobs of a mix, each on its thread, say whose a line is.
class ThreadLogTag {
 public:
  explicit ThreadLogTag(const std::string& name);
  ~ThreadLogTag();
  ThreadLogTag(const ThreadLogTag&) = delete;
  ThreadLogTag& operator=(const ThreadLogTag&) = delete;
};

template <typename... Args>
void Warn(fmt::format_string<Args...> format, Args&&... args) {
  LogWarning(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace trainbench
