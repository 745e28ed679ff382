// A latency histogram in summary.json: its percentiles (LatencyJson: count, mean, p50, p90,
// p99, p999, max, times `scale`: 1e-6 for ms from ns), and as `read_latency_histogram`: the
// read-latency histogram's non-empty buckets, so a reader can draw its distribution (a CDF, a
// histogram) and not only the percentiles. Bucket i holds latencies in [low_ms[i], high_ms[i]); the
// buckets are those of metrics::Histogram (exact below 128 ns, then 64 per power of two: < 1.6%
// wide). Pure.
#pragma once

#include <nlohmann/json.hpp>

#include "common/json_fields.h"
#include "metrics/histogram.h"

namespace trainbench::report {

// A latency's percentiles (as a run's final line gives them).
struct LatencyPercentiles {
  double p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
};
TB_JSON_FIELDS(LatencyPercentiles, p50, p90, p99, p999, max)

// And how many, with the mean (as summary.json gives them).
struct LatencyFigures {
  uint64_t count = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
};
TB_JSON_FIELDS(LatencyFigures, count, mean, p50, p90, p99, p999, max)

LatencyFigures LatencyOf(const metrics::Histogram& h, double scale);
LatencyPercentiles PercentilesOf(const metrics::Histogram& h, double scale);

nlohmann::json LatencyHistogramJson(const metrics::Histogram& latency_ns);
nlohmann::json LatencyJson(const metrics::Histogram& h, double scale);

}  // namespace trainbench::report
