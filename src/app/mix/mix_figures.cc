#include "app/mix/mix_figures.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/units.h"

namespace trainbench::app {
namespace {

struct Span {
  double start = 0, end = 0;
};

// Where a job's clock stands on the mix's: its rows and checkpoints count from its own start.
double Offset(const MixJobResult& job, double mix_start) {
  return job.record.started_at_s > 0 ? job.record.started_at_s - mix_start : 0;
}

// The checkpoint bursts on the mix's axis, each with its job's index.
struct Burst {
  size_t job = 0;
  MixBurst figures;
};

std::vector<Burst> Bursts(const MixRecord& mix) {
  std::vector<Burst> bursts;
  for (size_t j = 0; j < mix.jobs.size(); ++j)
    for (const auto& c : mix.jobs[j].record.checkpoints) {
      if (c.started_at_s <= 0) continue;
      const double start = c.started_at_s - mix.started_at_s;
      bursts.push_back(
          {j, {mix.jobs[j].spec.name, c.operation, start, start + c.seconds, c.bytes}});
    }
  std::sort(bursts.begin(), bursts.end(),
            [](const Burst& a, const Burst& b) { return a.figures.start_s < b.figures.start_s; });
  return bursts;
}

bool Overlaps(const Span& a, const MixBurst& b) { return a.start < b.end_s && b.start_s < a.end; }

// A training's AU in one interval: the share of its accelerators' time not spent waiting for
// data, while it trains (null in other phases: setup, eval, its own checkpoints).
Nullable<double> RowAu(const metrics::TimeseriesRow& row) {
  if (row.phase != "train") return {};
  return 100.0 * std::clamp(1.0 - row.data_wait_share, 0.0, 1.0);
}

Nullable<double> MeanOrNull(const std::vector<double>& values) {
  if (values.empty()) return {};
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// The job's figures as its own run reports them (its final line's), and where they are.
MixJobFigures JobFigures(const MixJobResult& job) {
  const MixRunLine& m = job.metrics;
  MixJobFigures f;
  f.name = job.spec.name;
  f.workload = job.workload;
  f.kind = job.trains ? "run" : "checkpoint";
  f.accelerators = job.spec.accelerators;
  f.role = job.spec.Background() ? "background" : "foreground";
  if (job.spec.every_s > 0) f.every_s.emplace(job.spec.every_s);
  f.results = job.folder;
  f.exit_code = job.exit_code;
  f.complete = job.record.complete;
  f.stop_reason = job.error.empty() ? job.record.stop_reason : job.error;
  if (job.trains) {
    f.au_percentage = m.au_percentage;
    f.samples_per_second = m.samples_per_second;
    f.MB_per_second = m.io_mb_per_second;
  }
  f.read_latency_ms = m.read_latency_ms;
  for (const auto& c : job.record.checkpoints) f.checkpoints_written += c.operation == "write";
  f.checkpoint_write_GB_per_second = m.checkpoint_write_GB_per_second;
  f.run_seconds = job.record.run_seconds;
  return f;
}

MixJobSeries JobSeries(const MixJobResult& job, double offset) {
  MixJobSeries series;
  for (const auto& row : job.record.timeseries) {
    series.t_s.push_back(offset + row.elapsed_s);
    series.au_percentage.push_back(RowAu(row));
    series.MB_per_second.push_back(row.io_mb_per_second);
    series.samples_per_second.push_back(row.samples_per_second);
  }
  return series;
}

// A training's mean AU over its intervals that overlap another job's burst, and over those
// that do not.
void AuAroundBursts(const MixJobResult& job, size_t index, double offset,
                    const std::vector<Burst>& bursts, MixJobFigures& out) {
  std::vector<double> in, outside;
  bool others = false;
  for (const auto& b : bursts) others = others || b.job != index;
  for (const auto& row : job.record.timeseries) {
    const Nullable<double> au = RowAu(row);
    if (!au) continue;
    const Span span{offset + row.elapsed_s - row.interval_s, offset + row.elapsed_s};
    const bool hit = std::any_of(bursts.begin(), bursts.end(), [&](const Burst& b) {
      return b.job != index && Overlaps(span, b.figures);
    });
    (hit ? in : outside).push_back(*au);
  }
  out.au_in_bursts_percentage = others ? MeanOrNull(in) : Nullable<double>();
  out.au_outside_bursts_percentage = MeanOrNull(outside);
  out.intervals_in_bursts = in.size();
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
MixStorageSeries StorageSeries(const MixRecord& mix, const std::vector<Burst>& bursts,
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
    Spread(static_cast<double>(b.figures.bytes), b.figures.start_s, b.figures.end_s, step,
           bytes[b.job]);
  MixStorageSeries series;
  for (const auto& job : mix.jobs) series.share[job.spec.name];
  for (size_t bin = 0; bin < bins; ++bin) {
    double sum = 0;
    for (const auto& job : bytes) sum += job[bin];
    series.t_s.push_back(static_cast<double>(bin + 1) * step);
    series.MB_per_second.push_back(sum / step / kMB);
    for (size_t j = 0; j < mix.jobs.size(); ++j)
      series.share[mix.jobs[j].spec.name].push_back(sum > 0 ? bytes[j][bin] / sum : 0.0);
  }
  return series;
}

MixStorageFigures StorageFigures(const MixRecord& mix, const std::vector<Burst>& bursts,
                                 double interval_s) {
  metrics::Histogram latency;
  uint64_t read_bytes = 0, checkpoint_bytes = 0;
  MixStorageFigures f;
  for (const auto& job : mix.jobs) {
    latency.Merge(job.record.read_latency_ns);
    f.reads += job.record.io.reads;
    read_bytes += job.record.io.bytes_read;
    for (const auto& c : job.record.checkpoints) {
      checkpoint_bytes += c.bytes;
      f.checkpoint_files += c.files;
    }
  }
  const double wall = std::max(mix.wall_s, 1e-9);
  f.MB_per_second = static_cast<double>(read_bytes + checkpoint_bytes) / wall / kMB;
  f.read_MB_per_second = static_cast<double>(read_bytes) / wall / kMB;
  f.checkpoint_MB_per_second = static_cast<double>(checkpoint_bytes) / wall / kMB;
  f.operations_per_second = static_cast<double>(f.reads + f.checkpoint_files) / wall;
  f.read_latency_ms = report::LatencyOf(latency, 1e-6);
  f.series = StorageSeries(mix, bursts, interval_s);
  return f;
}

// A rate in the mix over the same rate alone (null where either was not measured).
Nullable<double> Ratio(const Nullable<double>& in_mix, const Nullable<double>& alone) {
  if (!in_mix || !alone || *alone <= 0) return {};
  return *in_mix / *alone;
}

// The job alone beside the job in the mix: what sharing the storage cost it.
MixAlone Alone(const MixJobResult& job_alone, const MixJobFigures& in_mix) {
  const MixJobFigures f = JobFigures(job_alone);
  MixAlone alone{f.au_percentage, f.samples_per_second,
                 f.MB_per_second, f.checkpoint_write_GB_per_second,
                 f.results,       {}};
  if (f.au_percentage && in_mix.au_percentage)
    alone.cost.au_points.emplace(*f.au_percentage - *in_mix.au_percentage);
  alone.cost.samples_per_second_ratio = Ratio(in_mix.samples_per_second, f.samples_per_second);
  alone.cost.checkpoint_write_GB_per_second_ratio =
      Ratio(in_mix.checkpoint_write_GB_per_second, f.checkpoint_write_GB_per_second);
  return alone;
}

}  // namespace

std::vector<double>& MixShares::operator[](const std::string& job) {
  for (auto& [name, share] : jobs)
    if (name == job) return share;
  return jobs.emplace_back(job, std::vector<double>()).second;
}

MixSummary MixFigures(const MixRecord& mix, const MixRecord* alone, double interval_s) {
  const auto bursts = Bursts(mix);
  MixSummary out;
  for (size_t j = 0; j < mix.jobs.size(); ++j) {
    const auto& job = mix.jobs[j];
    const double offset = Offset(job, mix.started_at_s);
    MixJobFigures figures = JobFigures(job);
    figures.start_s = offset;
    if (job.trains) AuAroundBursts(job, j, offset, bursts, figures);
    if (alone && j < alone->jobs.size()) figures.alone = Alone(alone->jobs[j], figures);
    figures.series = JobSeries(job, offset);
    out.jobs.push_back(std::move(figures));
  }
  for (const auto& b : bursts) out.bursts.push_back(b.figures);
  for (const auto& job : mix.jobs)
    for (const auto& phase : job.record.epochs) out.client.samples += phase.samples;
  out.mix = {mix.jobs.size(), mix.wall_s, interval_s, alone != nullptr};
  out.client.cpu_seconds = mix.cpu_seconds;
  if (out.client.samples > 0)
    out.client.cpu_us_per_sample.emplace(mix.cpu_seconds * 1e6 /
                                         static_cast<double>(out.client.samples));
  out.storage = StorageFigures(mix, bursts, interval_s);
  return out;
}

namespace {

std::string Cell(const Nullable<double>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("-");
}

}  // namespace

std::string MixTable(const MixSummary& figures) {
  std::string text =
      fmt::format("{:<16} {:<22} {:>5} {:>10} {:>8} {:>10} {:>9} {:>8} {:>9}\n", "job", "workload",
                  "accel", "role", "AU %", "samples/s", "MB/s", "p99 ms", "alone AU");
  for (const auto& job : figures.jobs) {
    Nullable<double> p99, alone_au;
    if (job.read_latency_ms) p99.emplace(job.read_latency_ms->p99);
    if (job.alone) alone_au = job.alone->au_percentage;
    text += fmt::format("{:<16} {:<22} {:>5} {:>10} {:>8} {:>10} {:>9} {:>8} {:>9}\n", job.name,
                        job.workload, job.accelerators, job.role, Cell(job.au_percentage, "{:.2f}"),
                        Cell(job.samples_per_second, "{:.1f}"), Cell(job.MB_per_second, "{:.1f}"),
                        Cell(p99, "{:.2f}"), Cell(alone_au, "{:.2f}"));
    if (job.checkpoints_written > 0)
      text += fmt::format("{:<16} {} checkpoint(s) written, {} GB/s\n", "", job.checkpoints_written,
                          Cell(job.checkpoint_write_GB_per_second, "{:.3f}"));
  }
  const auto& s = figures.storage;
  text += fmt::format(
      "storage: {:.1f} MB/s over the mix ({:.1f} MB/s reads, {:.1f} MB/s "
      "checkpoints), {:.0f} operations/s, read p99 {} ms, {} checkpoint burst(s)\n",
      s.MB_per_second, s.read_MB_per_second, s.checkpoint_MB_per_second, s.operations_per_second,
      s.read_latency_ms.count > 0 ? fmt::format("{:.2f}", s.read_latency_ms.p99) : "-",
      figures.bursts.size());
  return text;
}

}  // namespace trainbench::app
