#include "sim/run_timeseries.h"

#include "common/clock.h"

namespace trainbench::sim {

std::unique_ptr<metrics::IntervalSampler> StartTimeseries(double interval_s, double run_start,
                                                          uint64_t accelerators,
                                                          const loader::ReadScheduler& scheduler,
                                                          const metrics::LiveCounters& live,
                                                          metrics::IntervalSampler::OnRow on_row) {
  auto probe = [&scheduler, &live](metrics::IntervalProbe& p) {
    p.latency_counts.assign(p.latency_counts.size(), 0);
    scheduler.AddLatencyCounts(p.latency_counts);
    p.bytes = scheduler.BytesRead();
    p.reads = scheduler.Reads();
    p.reads_in_flight = scheduler.ReadsInFlight();
    p.phase = live.Phase();
    p.epoch = live.Epoch();
    p.samples = live.Samples();
    p.now = NowSeconds();
    p.wait_s = live.WaitAt(p.now).total_s;
  };
  return std::make_unique<metrics::IntervalSampler>(interval_s, run_start, accelerators,
                                                    std::move(probe), std::move(on_row));
}

}  // namespace trainbench::sim
