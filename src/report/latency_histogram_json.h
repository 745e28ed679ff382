// A latency histogram in summary.json: its percentiles (LatencyJson: count, mean, p50, p90,
// p99, p999, max, times `scale`: 1e-6 for ms from ns), and as `read_latency_histogram`: the
// read-latency histogram's non-empty buckets, so a reader can draw its distribution (a CDF, a
// histogram) and not only the percentiles. Bucket i holds latencies in [low_ms[i], high_ms[i]); the
// buckets are those of metrics::Histogram (exact below 128 ns, then 64 per power of two: < 1.6%
// wide). Pure.
#pragma once

#include <nlohmann/json.hpp>

#include "metrics/histogram.h"

namespace trainbench::report {

nlohmann::json LatencyHistogramJson(const metrics::Histogram& latency_ns);
nlohmann::json LatencyJson(const metrics::Histogram& h, double scale);

}  // namespace trainbench::report
