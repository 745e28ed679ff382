#include "report/timeseries_csv.h"

#include <fmt/format.h>

namespace trainbench::report {
namespace {

void AppendRows(std::string& out, const std::string& rank,
                const std::vector<metrics::TimeseriesRow>& rows) {
  for (const auto& r : rows) out += TimeseriesCsvLine(rank, r);
}

}  // namespace

std::string TimeseriesCsvHeader() {
  return "rank,elapsed_s,interval_s,phase,epoch,samples_per_second,io_MB_per_second,reads,"
         "reads_in_flight,data_wait_share,accelerators_waiting,read_latency_p50_ms,"
         "read_latency_p99_ms,cpu_percent,rss_bytes\n";
}

std::string TimeseriesCsvLine(const std::string& rank, const metrics::TimeseriesRow& r) {
  return fmt::format(
      "{},{:.6f},{:.6f},{},{},{:.2f},{:.3f},{},{},{:.4f},{:.3f},{:.4f},{:.4f},{:.1f},{}\n", rank,
      r.elapsed_s, r.interval_s, r.phase, r.epoch, r.samples_per_second, r.io_mb_per_second,
      r.reads, r.reads_in_flight, r.data_wait_share, r.accelerators_waiting, r.read_latency_p50_ms,
      r.read_latency_p99_ms, r.cpu_percent, r.rss_bytes);
}

std::string TimeseriesCsv(const std::vector<std::vector<metrics::TimeseriesRow>>& ranks,
                          const std::vector<metrics::TimeseriesRow>* merged) {
  std::string out = TimeseriesCsvHeader();
  for (size_t r = 0; r < ranks.size(); ++r) AppendRows(out, std::to_string(r), ranks[r]);
  if (merged) AppendRows(out, "all", *merged);
  return out;
}

}  // namespace trainbench::report
