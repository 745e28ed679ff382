// summary.json's `read_latency_histogram`: the read-latency histogram's non-empty buckets,
// so a reader can draw its distribution (a CDF, a histogram) and not only the percentiles.
// Bucket i holds latencies in [low_ms[i], high_ms[i]); the buckets are those of
// metrics::Histogram (exact below 128 ns, then 64 per power of two: < 1.6% wide). Pure.
#pragma once

#include <nlohmann/json.hpp>

#include "metrics/histogram.h"

namespace trainbench::report {

nlohmann::json LatencyHistogramJson(const metrics::Histogram& latency_ns);

}  // namespace trainbench::report
