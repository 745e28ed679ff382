// The unit tests' way to read a refusal: the message of the UsageError that `f` throws, or ""
// when it throws none (another exception fails the test, as it should).
#pragma once

#include <functional>
#include <string>

#include "common/error.h"

namespace trainbench {

inline std::string UsageErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace trainbench
