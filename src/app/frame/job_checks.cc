#include "app/frame/job_checks.h"

#include <fmt/format.h>

#include "common/error.h"

namespace trainbench::app {

void CheckInterval(double interval_s) {
  if (interval_s > 0 && interval_s < 0.05)
    throw UsageError(fmt::format(
        "--interval {}: a time-series row takes at least 0.05 s; give 0.05 or more, or 0 for none",
        interval_s));
}

}  // namespace trainbench::app
