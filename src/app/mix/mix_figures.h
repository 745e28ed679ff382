// What a mix measured, from its jobs' records: each job's figures (as its own run reports
// them) and its AU over time on the mix's one time axis; the checkpoint bursts; each training's
// AU inside and outside the other jobs' bursts; the storage's aggregate (MB/s, operations,
// read latency) and each job's share of it over time; and, with --baseline, each job alone
// beside it and what sharing cost. The page (report) and docs/mixes.md read these keys. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/json_fields.h"
#include "config/mix.h"
#include "metrics/run_record.h"
#include "report/latency_histogram_json.h"

namespace trainbench::app {

// The figures of a job's final line (report::MetricsLine's) that a mix reports: null where the
// job did not measure them (a checkpointing workload reads no samples).
struct MixRunLine {
  Nullable<double> au_percentage, samples_per_second, io_mb_per_second;
  Nullable<report::LatencyPercentiles> read_latency_ms;
  Nullable<double> checkpoint_write_GB_per_second;
};
TB_JSON_FIELDS(MixRunLine, au_percentage, samples_per_second, io_mb_per_second, read_latency_ms,
               checkpoint_write_GB_per_second)

// One job's end, rank 0's.
struct MixJobResult {
  config::MixJob spec;
  std::string workload;  // its config's workload_name
  bool trains = true;    // workflow.train (false: a checkpointing workload)
  int exit_code = 0;
  std::string error;          // why it stopped or was refused ("" when it ended as it should)
  std::string folder;         // its results folder
  nlohmann::json summary;     // its summary.json
  MixRunLine metrics;         // its final line's figures
  metrics::RunRecord record;  // merged over ranks, the time series over every rank
};

struct MixRecord {
  std::vector<MixJobResult> jobs;
  double started_at_s = 0;  // NowSeconds() when the jobs were started
  double wall_s = 0;        // until the last job ended
  // This process's CPU time over the jobs (rank 0's): every job's together, as no job's own
  // can be told apart from the others' in one process.
  double cpu_seconds = 0;
};

// A job's rows on the mix's time axis: t_s (each interval's end), AU (null outside training),
// MB/s and samples/s.
struct MixJobSeries {
  std::vector<double> t_s;
  std::vector<Nullable<double>> au_percentage;
  std::vector<double> MB_per_second, samples_per_second;
};
TB_JSON_FIELDS(MixJobSeries, t_s, au_percentage, MB_per_second, samples_per_second)

// What sharing the storage cost a job: AU points lost, and its rates in the mix over alone
// (null where either was not measured).
struct MixCost {
  Nullable<double> au_points, samples_per_second_ratio, checkpoint_write_GB_per_second_ratio;
};
TB_JSON_FIELDS(MixCost, au_points, samples_per_second_ratio, checkpoint_write_GB_per_second_ratio)

// The job run alone (--baseline).
struct MixAlone {
  Nullable<double> au_percentage, samples_per_second, MB_per_second, checkpoint_write_GB_per_second;
  std::string results;
  MixCost cost;
};
TB_JSON_FIELDS(MixAlone, au_percentage, samples_per_second, MB_per_second,
               checkpoint_write_GB_per_second, results, cost)

// One job in the mix: its figures as its own run reports them, where it started on the mix's
// axis, a training's AU inside and outside the other jobs' bursts, its baseline, its series.
struct MixJobFigures {
  std::string name, workload;
  std::string kind;  // run (a training) or checkpoint
  uint64_t accelerators = 0;
  std::string role;  // foreground or background
  Nullable<double> every_s;
  std::string results;
  int exit_code = 0;
  bool complete = false;
  std::string stop_reason;
  Nullable<double> au_percentage, samples_per_second, MB_per_second;
  Nullable<report::LatencyPercentiles> read_latency_ms;
  uint64_t checkpoints_written = 0;
  Nullable<double> checkpoint_write_GB_per_second;
  double run_seconds = 0;
  double start_s = 0;
  // A training's (absent for a checkpointing job); in bursts null when no other job had one.
  std::optional<Nullable<double>> au_in_bursts_percentage, au_outside_bursts_percentage;
  std::optional<uint64_t> intervals_in_bursts;
  std::optional<MixAlone> alone;  // --baseline
  MixJobSeries series;
};
TB_JSON_FIELDS(MixJobFigures, name, workload, kind, accelerators, role, every_s, results, exit_code,
               complete, stop_reason, au_percentage, samples_per_second, MB_per_second,
               read_latency_ms, checkpoints_written, checkpoint_write_GB_per_second, run_seconds,
               start_s, au_in_bursts_percentage, au_outside_bursts_percentage, intervals_in_bursts,
               alone, series)

// A checkpoint's write or read, on the mix's axis.
struct MixBurst {
  std::string job, operation;
  double start_s = 0, end_s = 0;
  uint64_t bytes = 0;
};
TB_JSON_FIELDS(MixBurst, job, operation, start_s, end_s, bytes)

// Each job's share of the storage's bytes per interval: an object by job name, in the mix's
// order (a std::map would sort the jobs).
struct MixShares {
  std::vector<std::pair<std::string, std::vector<double>>> jobs;
  std::vector<double>& operator[](const std::string& job);
};

template <class Json>
void to_json(Json& j, const MixShares& shares) {
  j = Json::object();
  for (const auto& [job, share] : shares.jobs) j[job] = share;
}

template <class Json>
void from_json(const Json& j, MixShares& shares) {
  shares.jobs.clear();
  for (const auto& [job, share] : j.items())
    shares.jobs.emplace_back(job, share.template get<std::vector<double>>());
}

// The storage per interval: every job's bytes, and each job's share of them.
struct MixStorageSeries {
  std::vector<double> t_s, MB_per_second;
  MixShares share;
};
TB_JSON_FIELDS(MixStorageSeries, t_s, MB_per_second, share)

// The storage over the whole mix: every job's reads and checkpoints together.
struct MixStorageFigures {
  double MB_per_second = 0, read_MB_per_second = 0, checkpoint_MB_per_second = 0;
  uint64_t reads = 0, checkpoint_files = 0;
  double operations_per_second = 0;
  report::LatencyFigures read_latency_ms;  // the jobs' read latencies merged
  MixStorageSeries series;
};
TB_JSON_FIELDS(MixStorageFigures, MB_per_second, read_MB_per_second, checkpoint_MB_per_second,
               reads, checkpoint_files, operations_per_second, read_latency_ms, series)

struct MixFacts {
  uint64_t jobs = 0;
  double wall_s = 0, interval_s = 0;
  bool baseline = false;
};
TB_JSON_FIELDS(MixFacts, jobs, wall_s, interval_s, baseline)

// The client: its CPU over the mix is the process's, every job's together (MixRecord's).
struct MixClient {
  double cpu_seconds = 0;
  uint64_t samples = 0;  // every job's
  Nullable<double> cpu_us_per_sample;
};
TB_JSON_FIELDS(MixClient, cpu_seconds, samples, cpu_us_per_sample)

// summary.json's figures of a mix (kind mix). The page (report) and docs/mixes.md read these keys.
struct MixSummary {
  MixFacts mix;
  MixClient client;
  std::vector<MixJobFigures> jobs;
  std::vector<MixBurst> bursts;
  MixStorageFigures storage;
};
TB_JSON_FIELDS(MixSummary, mix, client, jobs, bursts, storage)

// The mix's figures; `alone` (null without --baseline) holds the same jobs, each run by itself.
MixSummary MixFigures(const MixRecord& mix, const MixRecord* alone, double interval_s);

// The console's table: a line per job, then the storage's aggregate.
std::string MixTable(const MixSummary& figures);

}  // namespace trainbench::app
