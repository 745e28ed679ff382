// Which method tells what the page cache served of a run's dataset reads, and why
// (metrics::CacheRecord): /proc/self/io's read_bytes where the data is on a local disk (the
// kernel counts the device's reads for the process), mincore(2) where it is on a network or
// FUSE file system (whose reads read_bytes never counts, so a cold run would look served by
// the cache), none where nothing can tell (S3, O_DIRECT, the null engine). Pure but for
// ReadCacheMethodOverride.
#pragma once

#include <optional>
#include <string>

#include "metrics/process_stats.h"
#include "metrics/run_record.h"
#include "storage/page_residency.h"

namespace trainbench::sim {

// The environment variable that picks the method by hand ("proc_io", "mincore"; "auto" or
// unset: by the file system), so that mincore can be tested on a local disk.
inline constexpr const char* kCacheMethodVariable = "TRAINBENCH_CACHE_METHOD";

struct CacheMethodInputs {
  bool file_system = true;     // the dataset is on a file system (not object storage)
  bool direct = false;         // reader.odirect
  bool null_engine = false;    // --io-engine null: nothing is read
  bool whole_samples = false;  // a library reads the samples (hdf5): no byte ranges to check
  std::string fs_type;         // the data folder's file system; "" unknown
  bool proc_io_available = true;
  std::string forced;  // kCacheMethodVariable's value: "", "auto", "proc_io" or "mincore"
};

struct CacheMethod {
  std::string method;  // "proc_io", "mincore" or "none"
  std::string reason;
};

CacheMethod ChooseCacheMethod(const CacheMethodInputs& in);

// kCacheMethodVariable's value ("" when unset); a UsageError for a value it does not take.
std::string ReadCacheMethodOverride();

// The run's figures by `method`: /proc/self/io's between `before` and `after`, or the
// residency counts (mincore).
metrics::CacheRecord CacheRecordOf(const CacheMethod& method, const metrics::ProcessIo& before,
                                   const metrics::ProcessIo& after,
                                   const std::optional<storage::ResidencyCounts>& residency);

}  // namespace trainbench::sim
