// A RunRecord as JSON and back, whole (histograms bucket by bucket), so that each rank's
// record can travel to rank 0 and be kept in the results as it was measured.
// Thread-compatible.
#pragma once

#include <nlohmann/json.hpp>

#include "metrics/run_record.h"

namespace trainbench::metrics {

void to_json(nlohmann::json& j, const Histogram& h);
void from_json(const nlohmann::json& j, Histogram& h);  // throws on inconsistent buckets

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PhaseRecord, kind, epoch, start_s, duration_s, steps, samples,
                                   bytes_read, requested_bytes, au_percentage, au_min_percentage,
                                   compute_s, counted_s, data_wait_s, complete)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CheckpointRecord, operation, epoch, step, path, bytes, files,
                                   seconds, seconds_min, ranks, started_at_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(IoCounters, opens, reads, bytes_read, size_buckets,
                                   sequential_reads, consecutive_reads, files_read, files_reread,
                                   max_read_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProcessIo, rchar, read_bytes, available)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CacheRecord, method, reason, storage_read_bytes, resident_bytes,
                                   unchecked_bytes, check_seconds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TimeseriesRow, elapsed_s, interval_s, phase, epoch,
                                   samples_per_second, io_mb_per_second, reads, reads_in_flight,
                                   data_wait_share, accelerators_waiting, read_latency_p50_ms,
                                   read_latency_p99_ms, cpu_percent, rss_bytes)

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(
    RunRecord, workload, accelerators, ranks, hosts, epochs_planned, steps_per_epoch, batch_size,
    train_files, train_samples, dataset_bytes, train_bytes, random_shuffle_seed,
    nominal_sample_bytes, barrier, read_engine, io_threads, io_depth, epochs, evals, preloads,
    checkpoints, read_latency_ns, data_wait_ns, compute_late_ns, host_busy_share,
    page_cache_applies, io, run_seconds, cpu_seconds, peak_rss_bytes, host_memory_bytes, io_before,
    io_after, cache, storage_counters, storage_latency_ns, checkpoint_gap_s, timeseries_interval_s,
    timeseries, timeseries_cpu_seconds, complete, stop_reason, stopped_by_peer, started_at_s)

}  // namespace trainbench::metrics
