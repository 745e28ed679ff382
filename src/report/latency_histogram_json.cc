#include "report/latency_histogram_json.h"

namespace trainbench::report {

nlohmann::json LatencyHistogramJson(const metrics::Histogram& h) {
  const auto parts = h.Export();
  nlohmann::json low = nlohmann::json::array(), high = nlohmann::json::array(),
                 counts = nlohmann::json::array();
  for (const auto& [bucket, n] : parts.buckets) {
    low.push_back(static_cast<double>(metrics::Histogram::BucketLow(bucket)) / 1e6);
    high.push_back(static_cast<double>(metrics::Histogram::BucketHigh(bucket) + 1) / 1e6);
    counts.push_back(n);
  }
  return {{"unit", "ms"},
          {"count", parts.count},
          {"low_ms", low},
          {"high_ms", high},
          {"counts", counts}};
}

LatencyPercentiles PercentilesOf(const metrics::Histogram& h, double scale) {
  return {h.Percentile(0.50) * scale, h.Percentile(0.90) * scale, h.Percentile(0.99) * scale,
          h.Percentile(0.999) * scale, static_cast<double>(h.Max()) * scale};
}

LatencyFigures LatencyOf(const metrics::Histogram& h, double scale) {
  const LatencyPercentiles p = PercentilesOf(h, scale);
  return {h.Count(), h.Mean() * scale, p.p50, p.p90, p.p99, p.p999, p.max};
}

nlohmann::json LatencyJson(const metrics::Histogram& h, double scale) {
  return LatencyOf(h, scale);
}

}  // namespace trainbench::report
