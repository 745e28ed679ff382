// The time series of one `run`: an IntervalSampler whose probe reads the read scheduler
// (bytes, reads, reads in flight, the reader loops' latency buckets) and the step loop's
// LiveCounters (phase, samples, wait for data). Both are read without locks; see
// metrics/live_histogram.h and metrics/live_counters.h for why that is safe and cheap.
// Thread safety: as IntervalSampler's; the scheduler and counters must outlive the sampler.
#pragma once

#include <memory>

#include "loader/read_scheduler.h"
#include "metrics/interval_sampler.h"
#include "metrics/live_counters.h"

namespace trainbench::sim {

std::unique_ptr<metrics::IntervalSampler> StartTimeseries(double interval_s, double run_start,
                                                          uint64_t accelerators,
                                                          const loader::ReadScheduler& scheduler,
                                                          const metrics::LiveCounters& live,
                                                          metrics::IntervalSampler::OnRow on_row);

}  // namespace trainbench::sim
