#include "common/log.h"

#include <unistd.h>

#include <atomic>
#include <string>

#include "common/secrets.h"

namespace trainbench {
namespace {
std::atomic<bool> quiet{false};
// Set once at start-up, before threads that log exist.
std::string prefix = "trainbench";
// A job of a mix names itself on its thread's lines: "trainbench: [resnet] epoch 1/2 ...".
thread_local std::string thread_tag;

void WriteLine(std::string text) {
  // A URL with a password may reach any message (a SOURCE, a mirror, a redirect): the one
  // way out of the process to stderr hides it.
  std::string line = RedactUrlPasswords(text);
  line.push_back('\n');
  // One write(2) per line so lines from threads never interleave.
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}
}  // namespace

void LogWarning(std::string_view message) {
  WriteLine(prefix + ": " + thread_tag + "warning: " + std::string(message));
}

void LogError(std::string_view message) {
  WriteLine(prefix + ": " + thread_tag + "error: " + std::string(message));
}

void LogInfo(std::string_view message) {
  if (!quiet.load(std::memory_order_relaxed))
    WriteLine(prefix + ": " + thread_tag + std::string(message));
}

ThreadLogTag::ThreadLogTag(const std::string& name) { thread_tag = "[" + name + "] "; }

ThreadLogTag::~ThreadLogTag() { thread_tag.clear(); }

void SetQuiet(bool value) { quiet.store(value); }

void SetLogPrefix(std::string value) { prefix = std::move(value); }

std::string LogPrefix() { return prefix; }

}  // namespace trainbench
