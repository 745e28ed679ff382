#include "app/replay/op_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.h"
#include "report/latency_histogram_json.h"

namespace trainbench::app {

OpRow RowOf(const ops::OpFigures& f, double seconds) {
  return {.op = std::nullopt,
          .count = f.count,
          .bytes = f.bytes,
          .errors = f.errors,
          .skipped = f.skipped,
          .first_error = f.first_error,
          .ops_per_second = PerSecond(static_cast<double>(f.count), seconds),
          .MiB_per_second = PerSecond(static_cast<double>(f.bytes) / kMiB, seconds),
          .latency_ms = report::LatencyJson(f.latency_ns, 1e-6),
          .share = std::nullopt,
          .first_byte_latency_ms = std::nullopt};
}

std::string OpsTable(const std::vector<OpLine>& lines) {
  const bool shares = std::any_of(lines.begin(), lines.end(), [](auto& l) { return l.share; });
  const bool first_bytes =
      std::any_of(lines.begin(), lines.end(), [](auto& l) { return l.first_byte; });
  std::string text = fmt::format("{:<11} {:>9}", "op", "ops");
  if (shares) text += fmt::format(" {:>7}", "share");
  text +=
      fmt::format(" {:>12} {:>10} {:>10} {:>9} {:>9}", "MiB", "ops/s", "MiB/s", "p50 ms", "p99 ms");
  if (first_bytes) text += fmt::format(" {:>11}", "1st byte ms");
  text += "  errors\n";
  for (const OpLine& l : lines) {
    const ops::OpFigures& f = *l.figures;
    text += fmt::format("{:<11} {:>9}", l.label, f.count);
    if (shares)
      text += l.share ? fmt::format(" {:>6.1f}%", *l.share * 100) : fmt::format(" {:>7}", "-");
    text += fmt::format(" {:>12.3f} {:>10.1f} {:>10.2f} {:>9.3f} {:>9.3f}",
                        static_cast<double>(f.bytes) / kMiB,
                        PerSecond(static_cast<double>(f.count), l.seconds),
                        PerSecond(static_cast<double>(f.bytes) / kMiB, l.seconds),
                        f.latency_ns.Percentile(0.5) / 1e6, f.latency_ns.Percentile(0.99) / 1e6);
    if (first_bytes)
      text += l.first_byte ? fmt::format(" {:>11.3f}", l.first_byte->Percentile(0.5) / 1e6)
                           : fmt::format(" {:>11}", "-");
    text += f.errors ? fmt::format("  {} ({})\n", f.errors, f.first_error) : "  0\n";
  }
  return text;
}

}  // namespace trainbench::app
