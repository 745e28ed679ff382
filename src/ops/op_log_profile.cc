#include "ops/op_log_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "metrics/histogram.h"
#include "ops/in_flight.h"
#include "ops/op_figures.h"

namespace trainbench::ops {
namespace {

// One kind of operation in the log: its figures and its requests' sizes.
struct OpProfile {
  OpFigures figures;
  metrics::Histogram sizes;
};

std::string Cell(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "-";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return d != 0 && (d < 0.01 || d >= 1e7) ? fmt::format("{:.3g}", d) : fmt::format("{:.3f}", d);
  }
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

nlohmann::ordered_json ProfileOpLog(const std::vector<metrics::OpLogEntry>& entries) {
  std::map<std::string, OpProfile> ops;
  std::unordered_map<std::string, uint64_t> per_object;
  std::set<std::pair<std::string, uint64_t>> threads;
  int64_t first = INT64_MAX, last = INT64_MIN;
  double busy_s = 0;
  std::vector<std::pair<int64_t, int64_t>> intervals;  // each operation's [start, end)
  for (const auto& e : entries) {
    OpProfile& profile = ops[e.op];
    OpFigures& f = profile.figures;
    ++f.count;
    f.bytes += e.bytes;
    f.errors += !e.error.empty();
    f.latency_ns.Record(e.duration_ns);
    profile.sizes.Record(e.bytes);
    ++per_object[e.file];
    threads.insert({e.client_id, e.thread});
    first = std::min(first, e.start_ns);
    last = std::max(last, e.end_ns);
    busy_s += static_cast<double>(e.duration_ns) / 1e9;
    intervals.push_back({e.start_ns, e.end_ns});
  }
  const double span = entries.empty() ? 0 : static_cast<double>(last - first) / 1e9;
  uint64_t bytes = 0;
  for (const auto& [op, profile] : ops) bytes += profile.figures.bytes;
  const uint64_t most = MostInFlight(intervals);
  // Order: each thread's GETs in start order, and how often one went to its last one's object.
  std::map<std::pair<std::string, uint64_t>, std::vector<const metrics::OpLogEntry*>> by_thread;
  for (const auto& e : entries)
    if (e.op == "GET") by_thread[{e.client_id, e.thread}].push_back(&e);
  uint64_t pairs = 0, same = 0;
  for (auto& [thread, gets] : by_thread) {
    std::stable_sort(gets.begin(), gets.end(),
                     [](auto* a, auto* b) { return a->start_ns < b->start_ns; });
    for (size_t i = 1; i < gets.size(); ++i, ++pairs) same += gets[i]->file == gets[i - 1]->file;
  }
  uint64_t again = 0;
  for (const auto& [object, n] : per_object) again += n > 1;

  // The table's rows, named in words (ProfileTable prints them in this order).
  nlohmann::ordered_json p = {
      {"operations", entries.size()},
      {"bytes", bytes},
      {"span s", span},
      {"ops/s", span > 0 ? static_cast<double>(entries.size()) / span : 0.0},
      {"MB/s", span > 0 ? static_cast<double>(bytes) / span / 1e6 : 0.0},
      {"threads", threads.size()},
      {"most in flight", most},
      {"mean in flight", span > 0 ? busy_s / span : 0.0},
      {"objects", per_object.size()},
      {"objects touched twice or more", again},
      {"operations per object",
       per_object.empty() ? 0.0 : static_cast<double>(entries.size()) / per_object.size()},
      {"GETs to the thread's last object",
       pairs ? static_cast<double>(same) / static_cast<double>(pairs) : 0.0}};
  for (const auto& [op, profile] : ops) {
    const OpFigures& f = profile.figures;
    p[op + " count"] = f.count;
    p[op + " bytes"] = f.bytes;
    p[op + " size min"] = profile.sizes.Min();
    p[op + " size p50"] = profile.sizes.Percentile(0.5);
    p[op + " size max"] = profile.sizes.Max();
    p[op + " latency p50 ms"] = f.latency_ns.Percentile(0.5) / 1e6;
    p[op + " latency p99 ms"] = f.latency_ns.Percentile(0.99) / 1e6;
    p[op + " errors"] = f.errors;
  }
  return p;
}

OpLogFileProfile ProfileOpLogFile(const std::string& path) {
  const auto contents = metrics::ReadOpLog(path);
  return {ProfileOpLog(contents.entries), contents.dropped};
}

std::string ProfileTable(const std::vector<std::string>& names,
                         const std::vector<nlohmann::ordered_json>& profiles) {
  std::vector<std::string> rows;
  for (const auto& p : profiles)
    for (const auto& [key, value] : p.items())
      if (std::find(rows.begin(), rows.end(), key) == rows.end()) rows.push_back(key);
  size_t key_width = 6;
  for (const auto& r : rows) key_width = std::max(key_width, r.size());
  std::vector<size_t> widths;
  for (size_t i = 0; i < profiles.size(); ++i) {
    size_t w = names[i].size();
    for (const auto& r : rows)
      w = std::max(w, Cell(profiles[i].contains(r) ? profiles[i][r] : nullptr).size());
    widths.push_back(w);
  }
  std::string out = fmt::format("{:<{}}", "figure", key_width);
  for (size_t i = 0; i < names.size(); ++i) out += fmt::format("  {:>{}}", names[i], widths[i]);
  out += "\n";
  for (const auto& r : rows) {
    out += fmt::format("{:<{}}", r, key_width);
    for (size_t i = 0; i < profiles.size(); ++i)
      out += fmt::format("  {:>{}}", Cell(profiles[i].contains(r) ? profiles[i][r] : nullptr),
                         widths[i]);
    out += "\n";
  }
  return out;
}

}  // namespace trainbench::ops
