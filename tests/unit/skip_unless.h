// The skip rule of the shell tests (tests/lib/skip.sh, tests/README.md) for gtest: a test that
// cannot run here (a tool or package missing) skips with the reason, and under CI=true fails
// with it instead, so CI never skips a test silently.
#ifndef TRAINBENCH_TESTS_UNIT_SKIP_UNLESS_H_
#define TRAINBENCH_TESTS_UNIT_SKIP_UNLESS_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace trainbench::testing {

inline bool UnderCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace trainbench::testing

// TRAINBENCH_SKIP_UNLESS(condition, why): returns from the test (or SetUp) when `condition`
// is false: skipped, or failed under CI=true.
#define TRAINBENCH_SKIP_UNLESS(condition, why)                                  \
  do {                                                                          \
    if (!(condition)) {                                                         \
      if (::trainbench::testing::UnderCi()) {                                   \
        FAIL() << "cannot run: " << why << " (CI=true: what cannot run fails)"; \
      }                                                                         \
      GTEST_SKIP() << why;                                                      \
    }                                                                           \
  } while (false)

#endif  // TRAINBENCH_TESTS_UNIT_SKIP_UNLESS_H_
