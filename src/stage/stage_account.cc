#include "stage/stage_account.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/clock.h"
#include "common/json_fields.h"
#include "common/units.h"

namespace trainbench::stage {
namespace {

double Mbps(uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / kMB / seconds : 0;
}

double Ms(const metrics::Histogram& h, double q) { return h.Percentile(q) / 1e6; }

// The account's times and rates, as summary.json and the final line both carry them.
struct TimeAccountFields {
  double wall_s = 0, transfer_s = 0, retry_wasted_s = 0;
  uint64_t retry_wasted_bytes = 0;
  double verify_s = 0, extract_s = 0, compute_s = 0;
  uint64_t retries = 0;
  double MB_per_second = 0;  // over the stage's own time (a staged training's holds its compute)

  explicit TimeAccountFields(const StageAccount& a)
      : wall_s(a.wall_s),
        transfer_s(a.transfer_s),
        retry_wasted_s(a.retry_wasted_s),
        retry_wasted_bytes(a.retry_wasted_bytes),
        verify_s(a.verify_s),
        extract_s(a.extract_s),
        compute_s(a.compute_s),
        retries(a.retries),
        MB_per_second(Mbps(a.bytes, a.wall_s - a.compute_s)) {}
};

struct ObjectFields {
  std::string name;
  uint64_t size_bytes = 0, fetched_bytes = 0, resumed_bytes = 0;
  std::string checksum, status;
  std::vector<std::string> repaired_ranges;
};
TB_JSON_FIELDS(ObjectFields, name, size_bytes, fetched_bytes, resumed_bytes, checksum, status,
               repaired_ranges)

struct SourceFields {
  std::string source, role;
  uint64_t bytes = 0, requests = 0, retries = 0;
  double MB_per_second = 0, latency_p50_ms = 0, latency_p99_ms = 0;
  bool demoted = false;
  std::string demoted_reason;
};
TB_JSON_FIELDS(SourceFields, source, role, bytes, requests, retries, MB_per_second, latency_p50_ms,
               latency_p99_ms, demoted, demoted_reason)

// summary.json's figures of a stage.
struct SummaryFields : TimeAccountFields {
  std::string command, trainbench_version, source, dest, start, end;
  bool complete = false;
  std::string stop_reason;
  unsigned streams = 0;
  uint64_t chunk_size_bytes = 0;
  bool extract = false;
  uint64_t bytes = 0, resumed_bytes = 0, total_bytes = 0;
  std::vector<ObjectFields> objects;
  std::vector<SourceFields> sources;

  explicit SummaryFields(const StageAccount& a)
      : TimeAccountFields(a),
        command(a.command),
        trainbench_version(TRAINBENCH_VERSION),
        source(a.source),
        dest(a.dest),
        start(a.start_utc),
        end(a.end_utc),
        complete(a.complete),
        stop_reason(a.stop_reason),
        streams(a.streams),
        chunk_size_bytes(a.chunk_size),
        extract(a.extract),
        bytes(a.bytes),
        resumed_bytes(a.resumed_bytes),
        total_bytes(a.total_bytes) {
    for (const auto& o : a.objects)
      objects.push_back({o.name, o.size, o.fetched_bytes, o.resumed_bytes, o.checksum, o.status,
                         o.repaired_ranges});
    for (const auto& s : a.sources)
      sources.push_back({s.source, s.role, s.bytes, s.requests, s.retries,
                         Mbps(s.bytes, a.wall_s - a.compute_s), Ms(s.latency_ns, 0.5),
                         Ms(s.latency_ns, 0.99), s.demoted, s.demoted_reason});
  }
};
TB_JSON_FIELDS(SummaryFields, command, trainbench_version, source, dest, start, end, complete,
               stop_reason, streams, chunk_size_bytes, extract, bytes, resumed_bytes, total_bytes,
               wall_s, transfer_s, retry_wasted_s, retry_wasted_bytes, verify_s, extract_s,
               compute_s, retries, MB_per_second, objects, sources)

// The final line's "trainbench_stage".
struct LineFields : TimeAccountFields {
  bool complete = false;
  size_t objects = 0;
  uint64_t bytes = 0, resumed_bytes = 0;

  explicit LineFields(const StageAccount& a)
      : TimeAccountFields(a),
        complete(a.complete),
        objects(a.objects.size()),
        bytes(a.bytes),
        resumed_bytes(a.resumed_bytes) {}
};
TB_JSON_FIELDS(LineFields, complete, objects, bytes, resumed_bytes, wall_s, transfer_s,
               retry_wasted_s, retry_wasted_bytes, verify_s, extract_s, compute_s, retries,
               MB_per_second)

}  // namespace

PhaseClock::PhaseClock() : since_(NowSeconds()) {}

Phase PhaseClock::Switch(Phase phase) {
  const double now = NowSeconds();
  seconds_[static_cast<int>(current_)] += now - since_;
  since_ = now;
  const Phase previous = current_;
  current_ = phase;
  return previous;
}

double PhaseClock::Seconds(Phase phase) const {
  double s = seconds_[static_cast<int>(phase)];
  if (phase == current_) s += NowSeconds() - since_;
  return s;
}

double PhaseClock::Total() const {
  return Seconds(Phase::kFetch) + Seconds(Phase::kVerify) + Seconds(Phase::kExtract);
}

SourceRow& SourceLedger::Row(const std::string& source, const std::string& role) {
  // By server and role: an origin and a mirror on one host:port are two sources.
  for (auto& row : rows_)
    if (row.source == source && row.role == role) return row;
  SourceRow& row = rows_.emplace_back();
  row.source = source;
  row.role = role;
  return row;
}

void StageAccount::SetShares(const PhaseClock& clock, const StreamTime& stream_time) {
  const double fetch = clock.Seconds(Phase::kFetch);
  verify_s = clock.Seconds(Phase::kVerify);
  extract_s = clock.Seconds(Phase::kExtract);
  wall_s = fetch + verify_s + extract_s;
  const double busy = stream_time.useful_s + stream_time.wasted_s;
  retry_wasted_s = busy > 0 ? fetch * stream_time.wasted_s / busy : 0;
  transfer_s = fetch - retry_wasted_s;
  retry_wasted_bytes = stream_time.wasted_bytes;
  retries = stream_time.retries;
}

void StageAccount::AddCompute(double seconds) {
  compute_s += seconds;
  wall_s += seconds;
}

nlohmann::ordered_json ToJson(const StageAccount& a) { return SummaryFields(a); }

nlohmann::ordered_json FinalLine(const StageAccount& a) {
  return {{"trainbench_stage", LineFields(a)}};
}

std::string FormatTable(const StageAccount& a) {
  auto share = [&](double s) { return a.wall_s > 0 ? 100.0 * s / a.wall_s : 0.0; };
  std::string out;
  out += fmt::format("{} {} -> {}: {}\n", a.command, a.source, a.dest,
                     a.complete ? "complete" : "INCOMPLETE (" + a.stop_reason + ")");
  const double stage_s = a.wall_s - a.compute_s;  // a staged training's compute is not the stage's
  out += fmt::format("  fetched {} in {} ({:.1f} MB/s); {} resumed from the journal; {} in all\n",
                     FormatBytes(static_cast<double>(a.bytes)), FormatDuration(stage_s),
                     Mbps(a.bytes, stage_s), FormatBytes(static_cast<double>(a.resumed_bytes)),
                     FormatBytes(static_cast<double>(a.total_bytes)));
  out += fmt::format("  {:<22}{:>10}{:>8}\n", "time", "seconds", "share");
  out += fmt::format("  {:<22}{:>10.2f}{:>7.1f}%\n", "transfer", a.transfer_s, share(a.transfer_s));
  // Failed attempts, as the error of a range that ran out of tries counts them.
  out += fmt::format("  {:<22}{:>10.2f}{:>7.1f}%  ({} failed attempt{}, {} thrown away)\n",
                     "retry wasted", a.retry_wasted_s, share(a.retry_wasted_s), a.retries,
                     a.retries == 1 ? "" : "s",
                     FormatBytes(static_cast<double>(a.retry_wasted_bytes)));
  out += fmt::format("  {:<22}{:>10.2f}{:>7.1f}%\n", "verify", a.verify_s, share(a.verify_s));
  out += fmt::format("  {:<22}{:>10.2f}{:>7.1f}%\n", "extract", a.extract_s, share(a.extract_s));
  if (a.command != "stage")
    out += fmt::format("  {:<22}{:>10.2f}{:>7.1f}%\n", "compute", a.compute_s, share(a.compute_s));
  out += fmt::format("  {:<22}{:>10.2f}{:>7.1f}%\n", "wall", a.wall_s, 100.0);
  // The source column is as wide as its longest URL and two spaces: a long one never runs
  // into the role.
  size_t width = 32;
  for (const auto& s : a.sources) width = std::max(width, s.source.size() + 2);
  out += fmt::format("  {:<{}}{:<9}{:>12}{:>9}{:>8}{:>9}{:>9}{:>9}\n", "source", width, "role",
                     "bytes", "requests", "failed", "MB/s", "p50 ms", "p99 ms");
  for (const auto& s : a.sources)
    out += fmt::format("  {:<{}}{:<9}{:>12}{:>9}{:>8}{:>9.1f}{:>9.1f}{:>9.1f}{}\n", s.source, width,
                       s.role, s.bytes, s.requests, s.retries, Mbps(s.bytes, stage_s),
                       Ms(s.latency_ns, 0.5), Ms(s.latency_ns, 0.99),
                       s.demoted ? "  demoted: " + s.demoted_reason : "");
  for (const auto& o : a.objects)
    if (o.status != "staged" || !o.repaired_ranges.empty())
      out += fmt::format("  {}: {}{}\n", o.name, o.status,
                         o.repaired_ranges.empty()
                             ? ""
                             : fmt::format(" (replaced {} chunk(s) that differed on re-fetch)",
                                           o.repaired_ranges.size()));
  return out;
}

}  // namespace trainbench::stage
