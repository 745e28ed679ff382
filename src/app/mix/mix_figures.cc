#include "app/mix/mix_figures.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/units.h"
#include "report/latency_histogram_json.h"

namespace trainbench::app {
namespace {

using ordered_json = nlohmann::ordered_json;

struct Span {
  double start = 0, end = 0;
};

struct Burst {
  size_t job = 0;
  std::string operation;
  double start = 0, end = 0;
  uint64_t bytes = 0;
};

// Where a job's clock stands on the mix's: its rows and checkpoints count from its own start.
double Offset(const MixJobResult& job, double mix_start) {
  return job.record.started_at_s > 0 ? job.record.started_at_s - mix_start : 0;
}

std::vector<Burst> Bursts(const MixRecord& mix) {
  std::vector<Burst> bursts;
  for (size_t j = 0; j < mix.jobs.size(); ++j)
    for (const auto& c : mix.jobs[j].record.checkpoints) {
      if (c.started_at_s <= 0) continue;
      const double start = c.started_at_s - mix.started_at_s;
      bursts.push_back({j, c.operation, start, start + c.seconds, c.bytes});
    }
  std::sort(bursts.begin(), bursts.end(),
            [](const Burst& a, const Burst& b) { return a.start < b.start; });
  return bursts;
}

bool Overlaps(const Span& a, double start, double end) { return a.start < end && start < a.end; }

// A training's AU in one interval: the share of its accelerators' time not spent waiting for
// data, while it trains (null in other phases: setup, eval, its own checkpoints).
ordered_json RowAu(const metrics::TimeseriesRow& row) {
  if (row.phase != "train") return nullptr;
  return 100.0 * std::clamp(1.0 - row.data_wait_share, 0.0, 1.0);
}

ordered_json MeanOrNull(const std::vector<double>& values) {
  if (values.empty()) return nullptr;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// The job's figures as its own run reports them (its final line's), and where they are.
ordered_json JobFigures(const MixJobResult& job) {
  const auto& m = job.metrics;
  auto pick = [&m](const char* key) -> ordered_json {
    return m.is_object() && m.contains(key) ? ordered_json(m[key]) : ordered_json();
  };
  uint64_t writes = 0;
  for (const auto& c : job.record.checkpoints) writes += c.operation == "write";
  return {{"name", job.spec.name},
          {"workload", job.workload},
          {"kind", job.trains ? "run" : "checkpoint"},
          {"accelerators", job.spec.accelerators},
          {"role", job.spec.Background() ? "background" : "foreground"},
          {"every_s", job.spec.every_s > 0 ? ordered_json(job.spec.every_s) : ordered_json()},
          {"results", job.folder},
          {"exit_code", job.exit_code},
          {"complete", job.record.complete},
          {"stop_reason", job.error.empty() ? job.record.stop_reason : job.error},
          {"au_percentage", job.trains ? pick("au_percentage") : ordered_json()},
          {"samples_per_second", job.trains ? pick("samples_per_second") : ordered_json()},
          {"MB_per_second", job.trains ? pick("io_mb_per_second") : ordered_json()},
          {"read_latency_ms", pick("read_latency_ms")},
          {"checkpoints_written", writes},
          {"checkpoint_write_GB_per_second", pick("checkpoint_write_GB_per_second")},
          {"run_seconds", job.record.run_seconds}};
}

// The job's rows on the mix's axis: t_s (the interval's end), AU, MB/s, samples/s.
ordered_json JobSeries(const MixJobResult& job, double offset) {
  ordered_json t = ordered_json::array(), au = ordered_json::array(), mb = ordered_json::array(),
               samples = ordered_json::array();
  for (const auto& row : job.record.timeseries) {
    t.push_back(offset + row.elapsed_s);
    au.push_back(RowAu(row));
    mb.push_back(row.io_mb_per_second);
    samples.push_back(row.samples_per_second);
  }
  return {
      {"t_s", t}, {"au_percentage", au}, {"MB_per_second", mb}, {"samples_per_second", samples}};
}

// A training's mean AU over its intervals that overlap another job's burst, and over those
// that do not.
void AuAroundBursts(const MixJobResult& job, size_t index, double offset,
                    const std::vector<Burst>& bursts, ordered_json& out) {
  std::vector<double> in, outside;
  bool others = false;
  for (const auto& b : bursts) others = others || b.job != index;
  for (const auto& row : job.record.timeseries) {
    const ordered_json au = RowAu(row);
    if (au.is_null()) continue;
    const Span span{offset + row.elapsed_s - row.interval_s, offset + row.elapsed_s};
    const bool hit = std::any_of(bursts.begin(), bursts.end(), [&](const Burst& b) {
      return b.job != index && Overlaps(span, b.start, b.end);
    });
    (hit ? in : outside).push_back(au.get<double>());
  }
  out["au_in_bursts_percentage"] = others ? MeanOrNull(in) : ordered_json();
  out["au_outside_bursts_percentage"] = MeanOrNull(outside);
  out["intervals_in_bursts"] = in.size();
}

// Adds `bytes`, moved evenly over [start, end), to the bins of `step` seconds they overlap.
void Spread(double bytes, double start, double end, double step, std::vector<double>& bins) {
  const double length = std::max(end - start, 1e-9);
  for (size_t bin = 0; bin < bins.size(); ++bin) {
    const double lo = static_cast<double>(bin) * step, hi = lo + step;
    const double overlap = std::min(hi, end) - std::max(lo, start);
    if (overlap > 0) bins[bin] += bytes * overlap / length;
  }
}

// The storage over the mix: every job's reads and checkpoint bytes per interval, and each
// job's share of them. A job's rows start a little after the mix's clock: each row's bytes are
// spread over the time it covers, as a burst's are.
ordered_json StorageSeries(const MixRecord& mix, const std::vector<Burst>& bursts,
                           double interval_s) {
  const double step = interval_s > 0 ? interval_s : 1;
  const size_t bins = std::max<size_t>(1, static_cast<size_t>(std::ceil(mix.wall_s / step)));
  std::vector<std::vector<double>> bytes(mix.jobs.size(), std::vector<double>(bins, 0));
  for (size_t j = 0; j < mix.jobs.size(); ++j) {
    const double offset = Offset(mix.jobs[j], mix.started_at_s);
    for (const auto& row : mix.jobs[j].record.timeseries) {
      const double end = offset + row.elapsed_s;
      Spread(row.io_mb_per_second * kMB * row.interval_s, end - row.interval_s, end, step,
             bytes[j]);
    }
  }
  for (const auto& b : bursts)
    Spread(static_cast<double>(b.bytes), b.start, b.end, step, bytes[b.job]);
  ordered_json t = ordered_json::array(), total = ordered_json::array(),
               share = ordered_json::object();
  for (const auto& job : mix.jobs) share[job.spec.name] = ordered_json::array();
  for (size_t bin = 0; bin < bins; ++bin) {
    double sum = 0;
    for (const auto& job : bytes) sum += job[bin];
    t.push_back(static_cast<double>(bin + 1) * step);
    total.push_back(sum / step / kMB);
    for (size_t j = 0; j < mix.jobs.size(); ++j)
      share[mix.jobs[j].spec.name].push_back(sum > 0 ? bytes[j][bin] / sum : 0.0);
  }
  return {{"t_s", t}, {"MB_per_second", total}, {"share", share}};
}

ordered_json StorageFigures(const MixRecord& mix, const std::vector<Burst>& bursts,
                            double interval_s) {
  metrics::Histogram latency;
  uint64_t reads = 0, read_bytes = 0, checkpoint_bytes = 0, checkpoint_files = 0;
  for (const auto& job : mix.jobs) {
    latency.Merge(job.record.read_latency_ns);
    reads += job.record.io.reads;
    read_bytes += job.record.io.bytes_read;
    for (const auto& c : job.record.checkpoints) {
      checkpoint_bytes += c.bytes;
      checkpoint_files += c.files;
    }
  }
  const double wall = std::max(mix.wall_s, 1e-9);
  return {{"MB_per_second", static_cast<double>(read_bytes + checkpoint_bytes) / wall / kMB},
          {"read_MB_per_second", static_cast<double>(read_bytes) / wall / kMB},
          {"checkpoint_MB_per_second", static_cast<double>(checkpoint_bytes) / wall / kMB},
          {"reads", reads},
          {"checkpoint_files", checkpoint_files},
          {"operations_per_second", static_cast<double>(reads + checkpoint_files) / wall},
          {"read_latency_ms", report::LatencyJson(latency, 1e-6)},
          {"series", StorageSeries(mix, bursts, interval_s)}};
}

// The job alone beside the job in the mix: what sharing the storage cost it.
ordered_json Alone(const MixJobResult& alone, const ordered_json& in_mix) {
  ordered_json figures = JobFigures(alone);
  ordered_json cost = ordered_json::object();
  const auto& au_alone = figures["au_percentage"];
  const auto& au_mix = in_mix["au_percentage"];
  cost["au_points"] = au_alone.is_number() && au_mix.is_number()
                          ? ordered_json(au_alone.get<double>() - au_mix.get<double>())
                          : ordered_json();
  // A rate in the mix over the same rate alone (null where either was not measured).
  auto ratio = [&](const char* key) {
    const auto& a = figures[key];
    const auto& m = in_mix[key];
    return a.is_number() && m.is_number() && a.get<double>() > 0
               ? ordered_json(m.get<double>() / a.get<double>())
               : ordered_json();
  };
  cost["samples_per_second_ratio"] = ratio("samples_per_second");
  cost["checkpoint_write_GB_per_second_ratio"] = ratio("checkpoint_write_GB_per_second");
  return {{"au_percentage", au_alone},
          {"samples_per_second", figures["samples_per_second"]},
          {"MB_per_second", figures["MB_per_second"]},
          {"checkpoint_write_GB_per_second", figures["checkpoint_write_GB_per_second"]},
          {"results", figures["results"]},
          {"cost", cost}};
}

}  // namespace

ordered_json MixFigures(const MixRecord& mix, const MixRecord* alone, double interval_s) {
  const auto bursts = Bursts(mix);
  ordered_json jobs = ordered_json::array();
  for (size_t j = 0; j < mix.jobs.size(); ++j) {
    const auto& job = mix.jobs[j];
    const double offset = Offset(job, mix.started_at_s);
    ordered_json figures = JobFigures(job);
    figures["start_s"] = offset;
    if (job.trains) AuAroundBursts(job, j, offset, bursts, figures);
    if (alone && j < alone->jobs.size()) figures["alone"] = Alone(alone->jobs[j], figures);
    figures["series"] = JobSeries(job, offset);
    jobs.push_back(std::move(figures));
  }
  ordered_json burst_list = ordered_json::array();
  for (const auto& b : bursts)
    burst_list.push_back({{"job", mix.jobs[b.job].spec.name},
                          {"operation", b.operation},
                          {"start_s", b.start},
                          {"end_s", b.end},
                          {"bytes", b.bytes}});
  uint64_t samples = 0;
  for (const auto& job : mix.jobs)
    for (const auto& phase : job.record.epochs) samples += phase.samples;
  return {{"mix",
           {{"jobs", mix.jobs.size()},
            {"wall_s", mix.wall_s},
            {"interval_s", interval_s},
            {"baseline", alone != nullptr}}},
          {"client",
           {{"cpu_seconds", mix.cpu_seconds},
            {"samples", samples},
            {"cpu_us_per_sample",
             samples > 0 ? ordered_json(mix.cpu_seconds * 1e6 / static_cast<double>(samples))
                         : ordered_json()}}},
          {"jobs", jobs},
          {"bursts", burst_list},
          {"storage", StorageFigures(mix, bursts, interval_s)}};
}

namespace {

std::string Cell(const ordered_json& v, const char* format) {
  return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : std::string("-");
}

}  // namespace

std::string MixTable(const ordered_json& figures) {
  std::string text =
      fmt::format("{:<16} {:<22} {:>5} {:>10} {:>8} {:>10} {:>9} {:>8} {:>9}\n", "job", "workload",
                  "accel", "role", "AU %", "samples/s", "MB/s", "p99 ms", "alone AU");
  for (const auto& job : figures["jobs"]) {
    const auto& lat = job["read_latency_ms"];
    const ordered_json p99 = lat.is_object() ? lat["p99"] : ordered_json();
    const ordered_json alone_au =
        job.contains("alone") ? job["alone"]["au_percentage"] : ordered_json();
    text += fmt::format(
        "{:<16} {:<22} {:>5} {:>10} {:>8} {:>10} {:>9} {:>8} {:>9}\n",
        job["name"].get<std::string>(), job["workload"].get<std::string>(),
        job["accelerators"].get<uint64_t>(), job["role"].get<std::string>(),
        Cell(job["au_percentage"], "{:.2f}"), Cell(job["samples_per_second"], "{:.1f}"),
        Cell(job["MB_per_second"], "{:.1f}"), Cell(p99, "{:.2f}"), Cell(alone_au, "{:.2f}"));
    if (job["checkpoints_written"].get<uint64_t>() > 0)
      text += fmt::format("{:<16} {} checkpoint(s) written, {} GB/s\n", "",
                          job["checkpoints_written"].get<uint64_t>(),
                          Cell(job["checkpoint_write_GB_per_second"], "{:.3f}"));
  }
  const auto& s = figures["storage"];
  text += fmt::format(
      "storage: {:.1f} MB/s over the mix ({:.1f} MB/s reads, {:.1f} MB/s "
      "checkpoints), {:.0f} operations/s, read p99 {} ms, {} checkpoint burst(s)\n",
      s["MB_per_second"].get<double>(), s["read_MB_per_second"].get<double>(),
      s["checkpoint_MB_per_second"].get<double>(), s["operations_per_second"].get<double>(),
      Cell(s["read_latency_ms"]["p99"], "{:.2f}"), figures["bursts"].size());
  return text;
}

}  // namespace trainbench::app
