// Checks of a job's options that several jobs share, each a UsageError naming the flag.
#pragma once

namespace trainbench::app {

// --interval SECONDS of a time series: 0 (none) or at least 0.05 s.
void CheckInterval(double interval_s);

}  // namespace trainbench::app
