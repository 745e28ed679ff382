// Everything one `trainbench run` measured, as plain data: filled by sim/ (and the read
// scheduler's reads) while the run goes, and turned into files and tables by report/.
// Each rank keeps its own; rank 0 merges them (run_record_merge.h) and they travel as JSON
// (run_record_json.h).
// Not thread-safe (built by the event loop, read after it stops).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/io_characterization.h"
#include "metrics/process_stats.h"
#include "metrics/timeseries.h"

namespace trainbench::metrics {

// One training epoch, one evaluation pass, or the preload of read_type memory.
struct PhaseRecord {
  std::string kind;    // "train", "eval", "preload"
  uint64_t epoch = 0;  // 1-based
  double start_s = 0;  // seconds since the run started
  double duration_s = 0;
  uint64_t steps = 0;            // steps per accelerator
  uint64_t samples = 0;          // over all accelerators
  uint64_t bytes_read = 0;       // bytes the reads returned (aligned bytes under O_DIRECT)
  uint64_t requested_bytes = 0;  // the samples' bytes
  double au_percentage = 0;      // 100 x compute_s / counted_s: the mean over accelerators
  double au_min_percentage = 0;  // the accelerator with the lowest AU
  double compute_s = 0;          // summed over accelerators, the steps AU counts
  double counted_s = 0;          // summed over accelerators: the elapsed time of those steps
  double data_wait_s = 0;        // summed over accelerators: time steps waited for their batch
  bool complete = true;
  double SamplesPerSecond() const;
  double BytesPerSecond() const;
};

struct CheckpointRecord {
  std::string operation;  // "write" or "read"
  uint64_t epoch = 0;
  uint64_t step = 0;  // global step count when it was taken
  std::string path;   // the checkpoint's folder
  uint64_t bytes = 0;
  uint64_t files = 0;
  double seconds = 0;      // the slowest rank's, when merged
  double seconds_min = 0;  // the fastest rank's (0 when one rank wrote it)
  uint64_t ranks = 1;      // ranks that wrote or read a part of it
  // When it began, on this process's NowSeconds() clock (merged: rank 0's): set against the
  // run's started_at_s it places the checkpoint on the run's time axis (a mix's bursts).
  double started_at_s = 0;
};

// What the page cache served of a rank's dataset reads, as told by the one method that can
// see it there (docs/results.md, "How the cache figures are measured").
struct CacheRecord {
  // "proc_io": /proc/self/io's read_bytes (a local disk); "mincore": the pages resident before
  // each read (network and FUSE file systems, whose reads read_bytes never counts); "none":
  // nothing here can tell (S3, O_DIRECT). Merged over hosts whose methods differ: "mixed".
  std::string method = "proc_io";
  std::string reason;               // why this method, or why none can tell, in words
  uint64_t storage_read_bytes = 0;  // bytes of the reads that came from storage, by `method`
  uint64_t resident_bytes = 0;      // mincore: bytes of the reads the page cache held before
  uint64_t unchecked_bytes = 0;     // mincore: bytes of files it could not look at (storage's)
  double check_seconds = 0;         // mincore: the checks' own CPU time (sampled), all threads
};

struct RunRecord {
  std::string workload;
  uint64_t accelerators = 0;  // over all ranks
  uint64_t ranks = 1;
  std::vector<std::string> hosts;  // distinct host names, rank 0's first
  uint64_t epochs_planned = 0;
  uint64_t steps_per_epoch = 0;
  uint64_t batch_size = 0;
  uint64_t train_files = 0;
  uint64_t train_samples = 0;
  uint64_t dataset_bytes = 0;  // train + eval files on storage
  uint64_t train_bytes = 0;
  // The seed of `shuffle: random` orders, drawn once per run: recorded so a run can be replayed.
  uint64_t random_shuffle_seed = 0;
  double nominal_sample_bytes = 0;  // dataset.record_length_bytes
  bool barrier = true;
  std::string read_engine;
  uint64_t io_threads = 0;  // reader loops
  uint64_t io_depth = 1;    // reads in flight per loop

  std::vector<PhaseRecord> epochs;
  std::vector<PhaseRecord> evals;
  std::vector<PhaseRecord> preloads;
  std::vector<CheckpointRecord> checkpoints;

  Histogram read_latency_ns;  // every read that happened (a transfer_size piece, an hdf5 sample)
  Histogram data_wait_ns;     // every step's wait for its batch
  // How late the step loop handled each accelerator's end of compute (its timer) on this
  // host: scheduling delay, a busy client's mark (the step still ends at its deadline).
  Histogram compute_late_ns;
  // The host's CPUs busy over the run, all processes (/proc/stat): -1 unknown. Merged, the
  // busiest host's.
  double host_busy_share = -1;
  // The dataset is on a local file system, whose reads this host's page cache can serve (an
  // object store's cannot: its device reads are 0 whatever it served).
  bool page_cache_applies = true;
  IoCounters io;  // from the reads that happened, prefetched ones included

  double run_seconds = 0;
  double cpu_seconds = 0;
  uint64_t peak_rss_bytes = 0;
  uint64_t host_memory_bytes = 0;
  ProcessIo io_before;
  ProcessIo io_after;
  CacheRecord cache;

  // The storage backend's own counters (S3: requests, retries, bytes and seconds lost to
  // retries), over the whole run: datagen's writes are not in them.
  std::map<std::string, double> storage_counters;
  // Per kind of storage request: the dataset's (GET, HEAD, ...) and the checkpoints'
  // (checkpoint_PUT, ...).
  std::map<std::string, Histogram> storage_latency_ns;

  // One row per interval of `run --interval` (none when 0): this rank's own.
  double timeseries_interval_s = 0;
  std::vector<TimeseriesRow> timeseries;
  double timeseries_cpu_seconds = 0;  // the sampler thread's own CPU time

  bool complete = true;
  std::string stop_reason;  // "" when complete: "interrupted", or the error's message
  // Checkpointing workloads that read back: seconds from the end of the last write to the
  // first read (every rank's clock, between barriers); below 0 when not measured (no
  // checkpointing workload, no read-back), which the summary writes as null.
  double checkpoint_gap_s = -1;
  // The stop came from another rank's failure notice (stop_reason is that rank's words).
  bool stopped_by_peer = false;
  // NowSeconds() when the run's clock started (merged: rank 0's): the time series' elapsed_s
  // and the checkpoints' started_at_s count from it.
  double started_at_s = 0;
};

}  // namespace trainbench::metrics
