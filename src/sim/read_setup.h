// How a run reads: which engine over which files, how many loop threads and how deep
// each queue is. The defaults give the depth the workload asks for (accelerators x
// reader.read_threads samples in flight): pread spreads it over threads (at most 4 a
// core and 64), an engine that keeps many reads in flight per queue (io_uring) over at
// most one thread a core. --io-threads and --io-depth override either. Not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/workload.h"
#include "dataset/file_table.h"
#include "formats/format.h"
#include "loader/read_scheduler.h"
#include "metrics/op_log.h"
#include "sim/cache_method.h"
#include "storage/page_residency.h"
#include "storage/storage.h"

namespace trainbench::sim {

// Reads in flight per process (loop threads x queue depth) at most: pread serves a depth
// with a thread per read (a depth of 4096 in one loop aborted the run).
inline constexpr uint64_t kMaxReadsInFlight = 4096;

struct ReadFlags {
  std::string engine;       // --io-engine; empty: the format's or the storage's own
  unsigned io_threads = 0;  // --io-threads; 0: from the workload
  unsigned io_depth = 0;    // --io-depth; 0: from the workload and the engine
  // Ranks of the job on this host: they share its cores, and so the default cap on threads.
  unsigned ranks_on_host = 1;
  // Where every read is recorded (--op-log), when set.
  std::shared_ptr<metrics::OpLog> op_log;
};

struct ReadSetup {
  std::unique_ptr<storage::ReadEngine> engine;
  loader::ReaderOptions reader;
  std::string description;  // "pread, 8 threads" for results
  // How the page cache's share of the reads is told, and under mincore the check that each
  // read passes before it is submitted (its counts are the figure).
  CacheMethod cache;
  std::shared_ptr<storage::PageResidency> residency;
};

// Opens the engine over `files` (object i is files[i]): the format's own reader when it
// reads samples through a library (hdf5) from a file system, else the storage's engine
// (on S3, hdf5 samples are ranged GETs of their extents); with mincore as the cache method,
// every read's pages checked first (storage/page_residency.h).
ReadSetup SetUpReads(const config::WorkloadConfig& config, uint64_t accelerators,
                     const ReadFlags& flags, storage::Storage& storage,
                     const dataset::FileTable& files);

// The loop threads and per-queue depth for `accelerators` local accelerators on an
// engine whose queues are worth `useful_depth` reads in flight.
unsigned ReadThreads(const config::WorkloadConfig& config, uint64_t accelerators,
                     const ReadFlags& flags, unsigned useful_depth);
unsigned ReadDepth(const config::WorkloadConfig& config, uint64_t accelerators,
                   const ReadFlags& flags, unsigned useful_depth);

}  // namespace trainbench::sim
