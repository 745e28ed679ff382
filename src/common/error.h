// Error types that carry the process exit code the CLI must use.
// Principle: usage and config errors exit 2, runtime failures exit 1, and the
// message names the thing (file, offset, key, line) and what to do next.
#pragma once

#include <stdexcept>
#include <string>

namespace trainbench {

// 130: stopped by Ctrl-C, as shells report a command SIGINT ended (128 + 2).
enum class ExitCode : int { kOk = 0, kRuntime = 1, kUsage = 2, kInterrupted = 130 };

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Bad flags, bad config keys or values: the user must change the command.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(ExitCode::kUsage, message) {}
};

// Something failed while doing the work (I/O, a corrupt file, the disk is full).
class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(ExitCode::kRuntime, message) {}

 protected:
  RuntimeError(ExitCode code, const std::string& message) : Error(code, message) {}
};

// An I/O failure on one object; the message already names path, offset and errno text.
class IoError : public RuntimeError {
 public:
  IoError(const std::string& message, int error_number)
      : RuntimeError(message), error_number_(error_number) {}
  int error_number() const { return error_number_; }

 private:
  int error_number_;
};

// Thrown by long operations when the user asked to stop (Ctrl-C); every command exits 130.
class Interrupted : public RuntimeError {
 public:
  explicit Interrupted(const std::string& message = "interrupted")
      : RuntimeError(ExitCode::kInterrupted, message) {}
};

}  // namespace trainbench
